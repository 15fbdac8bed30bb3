"""Queries built from the reflected schema, per dialect (inspector.store.schema)."""

from __future__ import annotations

import sqlalchemy as sa

from inspector.store import Store


def _open(db) -> Store:
    return db.open()


def test_postgresql_queries_read_jsonb_and_order_bytewise(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        dialect = store._engine.dialect
        stmt = sa.select(*store.schema.event_columns(), store.schema.runtime_id_expr()).order_by(*store.schema.order("trace_events"))
        sql = str(stmt.compile(dialect=dialect))
        turns = store.turns("s1")
    assert [t.runtime_ids for t in turns][:2] == [("setup/init",), ("narrator/main",)]
    if backend == "sqlite":
        assert "json_extract" in sql and "CAST(trace_events.payload AS BLOB)" in sql
    else:
        # Runtime ids are read inside the server; payloads leave it as text; ids compare as bytes.
        assert "json_extract" not in sql and "BLOB" not in sql
        assert "CAST(trace_events.payload AS TEXT)" in sql
        assert "jsonb_typeof" in sql and "->>" in sql
        assert 'trace_events.id COLLATE "C"' in sql
