"""Queries built from the reflected schema, per dialect (inspector.store.schema)."""

from __future__ import annotations

from inspector.store import Store
from inspector.store.sql import select


def _open(db) -> Store:
    return db.open()


def test_postgresql_queries_read_jsonb_and_order_bytewise(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        schema = store.schema
        sql = select([*schema.event_columns(), schema.runtime_id_expr()], schema.tables.source("trace_events"),
                     order_by=schema.order("trace_events"))
        turns = store.turns("s1")
    assert [t.runtime_ids for t in turns][:2] == [("setup/init",), ("narrator/main",)]
    if backend == "sqlite":
        assert "json_extract" in sql and 'CAST("trace_events"."payload" AS BLOB)' in sql
    else:
        # Runtime ids are read inside the server; payloads leave it as text; ids compare as bytes.
        assert "json_extract" not in sql and "BLOB" not in sql
        assert 'CAST("trace_events"."payload" AS TEXT)' in sql
        assert "jsonb_typeof" in sql and "->>" in sql
        assert '"trace_events"."id" COLLATE "C"' in sql
