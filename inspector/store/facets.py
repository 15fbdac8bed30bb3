"""The distinct runtime ids and models of every model request, worked out by the database."""

from __future__ import annotations

from ..covel.events import LLM_CALLING
from . import postgres as pg
from .schema import Reader

__all__ = ["llm_call_facets"]

# runtimeId and model of an llm.calling payload as parse_json_object(merge_data=True) reads them:
# the top-level field when present (a non-string there hides the nested one), else the legacy
# payload.data field; a string or nothing. JSON null is present-but-not-a-string.
_FACET_SQLITE = """
          CASE WHEN json_type(p, '$.{key}') IS NOT NULL
                 THEN CASE WHEN json_type(p, '$.{key}') = 'text' THEN json_extract(p, '$.{key}') END
               WHEN json_type(p, '$.data') = 'object' AND json_type(p, '$.data.{key}') = 'text'
                 THEN json_extract(p, '$.data.{key}') END"""
_FACETS_SQLITE = f"""
        SELECT DISTINCT {{runtime}}, {{model}}
        FROM (SELECT CAST(payload AS TEXT) AS p FROM trace_events WHERE type = '{LLM_CALLING}')
        WHERE json_valid(p) AND json_type(p) = 'object'
    """
_FACET_POSTGRES = """
          CASE WHEN p ? '{key}'
                 THEN CASE WHEN jsonb_typeof(p -> '{key}') = 'string' THEN p ->> '{key}' END
               WHEN jsonb_typeof(p -> 'data') = 'object' AND jsonb_typeof(p -> 'data' -> '{key}') = 'string'
                 THEN p -> 'data' ->> '{key}' END"""
_FACETS_POSTGRES = f"""
        SELECT DISTINCT {{runtime}}, {{model}}
        FROM (SELECT payload::jsonb AS p FROM trace_events WHERE type = '{LLM_CALLING}') AS calls
        WHERE jsonb_typeof(p) = 'object'
    """


def llm_call_facets(store: Reader) -> dict[str, list[str]] | None:
    """Distinct runtime ids and models of every ``llm.calling`` row, sorted, worked out by the
    database (no payload crosses into Python, so a GUI thread is not starved while it runs);
    None where the database cannot read the payloads as JSON (the caller scans instead,
    :func:`inspector.views.request_facets`)."""
    store.check_open()
    schema = store.schema
    if schema.dialect_name == "sqlite":
        field, query = _FACET_SQLITE, _FACETS_SQLITE
    elif schema.dialect_name == "postgresql" and pg.is_json_type(schema.tables.type_of("trace_events", "payload") or ""):
        field, query = _FACET_POSTGRES, _FACETS_POSTGRES
    else:
        return None
    sql = query.format(runtime=field.format(key="runtimeId"), model=field.format(key="model"))
    runtimes: set[str] = set()
    models: set[str] = set()
    with store.connect() as conn:
        try:
            rows = conn.all(sql)
        except conn.OperationalError:
            return None  # a SQLite without JSON functions, or text it cannot decode
    for runtime, model in rows:
        if isinstance(runtime, str):
            runtimes.add(runtime)
        if isinstance(model, str):
            models.add(model)
    return {"runtimes": sorted(runtimes), "models": sorted(models)}
