"""The newest Covel SQLite schema, as its boot DDL generator writes it.

Rendered the way ``common/ddl-codegen.ts`` renders the Drizzle schema of commit ``3e5ad04c``
(covel-db.md §1, §7): one ``CREATE TABLE IF NOT EXISTS`` block per table in declaration order,
reserved identifiers double-quoted, defaults as SQL literals, then its indexes. Composite primary
keys live in Drizzle's table config, which the generator does not read, so those tables come out
without one — we copy that rather than "fix" it, because a browser must cope with the real file.
"""

from __future__ import annotations

# (table, [(column, type, not_null, primary, default_sql)], [(index, unique, [columns])])
_T = tuple[str, list[tuple[str, str, bool, bool, str | None]], list[tuple[str, bool, list[str]]]]

# The shared DEFAULT_LOCALE of the newest code; older schemas defaulted to 'zh-CN'.
DEFAULT_LOCALE = "en"

TABLES: list[_T] = [
    (
        "worlds",
        [
            ("id", "text", False, True, None),
            ("name", "text", True, False, None),
            ("description", "text", True, False, None),
            ("lore", "text", False, False, None),
            ("tags", "text", False, False, None),
            ("locale", "text", False, False, None),
            ("metadata", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", False, False, None),
        ],
        [],
    ),
    (
        "sessions",
        [
            ("id", "text", False, True, None),
            ("world_id", "text", False, False, None),
            ("status", "text", True, False, "'active'"),
            ("locale", "text", True, False, f"'{DEFAULT_LOCALE}'"),
            ("active_plugins", "text", True, False, "'[]'"),
            ("metadata", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", True, False, None),
            ("embedding_model_id", "integer", False, False, None),
            ("embedding_locked_at", "text", False, False, None),
            ("runtime_model_overrides", "text", False, False, "'{}'"),
            ("phase", "text", True, False, "'setup'"),
            ("completed_player_turns", "integer", True, False, "0"),
            ("setup_runtimes", "text", True, False, "'{}'"),
        ],
        [],
    ),
    (
        "turn_results",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("runtime_results", "text", True, False, None),
            ("conflicts", "text", False, False, None),
            ("audit_result", "text", False, False, None),
            ("origin", "text", True, False, None),
            ("parent_turn_id", "text", False, False, None),
            ("retry_scope", "text", False, False, None),
            ("commit_status", "text", True, False, None),
            ("duration_ms", "integer", True, False, None),
            ("created_at", "text", True, False, None),
            ("seq", "integer", True, False, None),
        ],
        [
            ("turn_results_session_id_idx", False, ["session_id"]),
            ("turn_results_turn_id_idx", False, ["turn_id"]),
            ("turn_results_session_created_seq_idx", False, ["session_id", "created_at", "seq"]),
        ],
    ),
    (
        "tool_calls",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("tool_name", "text", True, False, None),
            ("plugin_id", "text", True, False, None),
            ("runtime_id", "text", True, False, None),
            ("input", "text", False, False, None),
            ("output", "text", False, False, None),
            ("duration_ms", "integer", True, False, None),
            ("approval_status", "text", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("tool_calls_session_id_idx", False, ["session_id"]),
            ("tool_calls_turn_id_idx", False, ["turn_id"]),
        ],
    ),
    (
        "state_schemas",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("table_name", "text", True, False, None),
            ("schema", "text", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [("state_schemas_session_id_idx", False, ["session_id"])],
    ),
    (
        "state_entries",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("table_name", "text", True, False, None),
            ("field_name", "text", True, False, None),
            ("value", "text", False, False, None),
            ("updated_at", "text", True, False, None),
        ],
        [
            ("state_entries_session_id_idx", False, ["session_id"]),
            ("state_entries_composite_idx", False, ["session_id", "table_name", "field_name"]),
            ("state_entries_unique_idx", True, ["session_id", "table_name", "field_name"]),
        ],
    ),
    (
        "state_changes",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("table_name", "text", True, False, None),
            ("field_name", "text", True, False, None),
            ("value", "text", False, False, None),
            ("changed_by", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("reason", "text", False, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("state_changes_session_id_idx", False, ["session_id"]),
            ("state_changes_composite_idx", False, ["session_id", "table_name", "field_name"]),
        ],
    ),
    (
        "events",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("type", "text", True, False, None),
            ("topic", "text", True, False, None),
            ("payload", "text", False, False, None),
            ("target_runtime", "text", False, False, None),
            ("turn_id", "text", False, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("events_session_id_idx", False, ["session_id"]),
            ("events_topic_idx", False, ["session_id", "topic"]),
        ],
    ),
    (
        "messages",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("role", "text", True, False, None),
            ("content", "text", True, False, None),
            ("metadata", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("seq", "integer", True, False, None),
        ],
        [
            ("messages_session_id_idx", False, ["session_id"]),
            ("messages_created_idx", False, ["session_id", "created_at", "seq"]),
        ],
    ),
    (
        "character_schemas",
        [
            ("session_id", "text", False, True, None),
            ("version", "integer", True, False, None),
            ("types", "text", True, False, None),
            ("attributes", "text", True, False, None),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", True, False, None),
        ],
        [],
    ),
    (
        "characters",
        [
            ("id", "text", True, False, None),
            ("session_id", "text", True, False, None),
            ("name", "text", True, False, None),
            ("type", "text", True, False, None),
            ("description", "text", False, False, None),
            ("fields", "text", False, False, None),
            ("version", "integer", True, False, "1"),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", True, False, None),
        ],
        [("characters_session_id_idx", False, ["session_id"])],
    ),
    (
        "plugin_data",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("plugin_id", "text", True, False, None),
            ("namespace", "text", True, False, None),
            ("key", "text", True, False, None),
            ("value", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", True, False, None),
        ],
        [
            ("plugin_data_session_id_idx", False, ["session_id"]),
            ("plugin_data_namespace_idx", False, ["namespace", "session_id"]),
            ("plugin_data_unique_idx", True, ["session_id", "plugin_id", "namespace", "key"]),
        ],
    ),
    (
        "world_data_import_ledger",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("target", "text", True, False, None),
            ("plugin_id", "text", False, False, None),
            ("namespace", "text", False, False, None),
            ("key", "text", False, False, None),
            ("source_world_id", "text", True, False, None),
            ("source_id", "text", True, False, None),
            ("source_digest", "text", True, False, None),
            ("value_hash", "text", True, False, None),
            ("schema_ref", "text", False, False, None),
            ("derived_from", "text", False, False, None),
            ("imported_at", "text", True, False, None),
            ("managed", "integer", True, False, "1"),
        ],
        [
            ("world_data_import_ledger_session_id_idx", False, ["session_id"]),
            (
                "world_data_import_ledger_source_idx",
                False,
                ["session_id", "source_world_id", "source_id"],
            ),
        ],
    ),
    (
        "trace_events",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("type", "text", True, False, None),
            ("trace_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("payload", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("seq", "integer", True, False, None),
        ],
        [
            ("trace_events_session_id_idx", False, ["session_id"]),
            ("trace_events_type_idx", False, ["session_id", "type", "created_at"]),
            ("trace_events_trace_id_idx", False, ["session_id", "trace_id"]),
            ("trace_events_turn_id_idx", False, ["session_id", "turn_id"]),
            ("trace_events_created_idx", False, ["session_id", "created_at", "seq"]),
        ],
    ),
    (
        "runtime_outputs",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("runtime_result_id", "text", False, False, None),
            ("plugin_id", "text", True, False, None),
            ("runtime_id", "text", True, False, None),
            ("timestamp", "text", True, False, None),
            ("results", "text", True, False, None),
            ("meta_data", "text", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("runtime_outputs_session_time_idx", False, ["session_id", "timestamp"]),
            ("runtime_outputs_runtime_idx", False, ["session_id", "runtime_id"]),
            ("runtime_outputs_plugin_idx", False, ["session_id", "plugin_id"]),
        ],
    ),
    (
        "interaction_records",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", False, False, None),
            ("timestamp", "text", True, False, None),
            ("source", "text", True, False, None),
            ("channel", "text", True, False, None),
            ("type", "text", True, False, None),
            ("target_plugin_id", "text", False, False, None),
            ("target_runtime_id", "text", False, False, None),
            ("payload", "text", True, False, None),
            ("meta_data", "text", False, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("interaction_records_session_time_idx", False, ["session_id", "timestamp"]),
            ("interaction_records_type_idx", False, ["session_id", "type"]),
        ],
    ),
    (
        "turn_messages",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("source_type", "text", True, False, None),
            ("source_plugin_id", "text", False, False, None),
            ("source_runtime_id", "text", False, False, None),
            ("role", "text", True, False, None),
            ("name", "text", False, False, None),
            ("content", "text", True, False, None),
            ("ui", "text", False, False, None),
            ("pending_input", "text", False, False, None),
            ("order", "integer", True, False, None),
            ("created_at", "text", True, False, None),
            ("compacted_at_turn_id", "text", False, False, None),
        ],
        [
            ("turn_messages_session_id_idx", False, ["session_id"]),
            ("turn_messages_turn_id_idx", False, ["session_id", "turn_id"]),
        ],
    ),
    (
        "session_summaries",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_range_start", "text", True, False, None),
            ("turn_range_end", "text", True, False, None),
            ("content", "text", True, False, None),
            ("focus_sections", "text", True, False, "'[]'"),
            ("created_at", "text", True, False, None),
        ],
        [("session_summaries_session_id_idx", False, ["session_id"])],
    ),
    (
        "player_inputs",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("form_id", "text", True, False, None),
            ("values", "text", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [("player_inputs_session_id_idx", False, ["session_id"])],
    ),
    (
        "media_assets",
        [
            ("id", "text", False, True, None),
            ("sha256", "text", True, False, None),
            ("mime", "text", True, False, None),
            ("size", "integer", True, False, None),
            ("path", "text", True, False, None),
            ("meta", "text", False, False, None),
            ("owner_session_id", "text", False, False, None),
            ("owner_plugin_id", "text", False, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("media_assets_sha256_idx", True, ["sha256"]),
            ("media_assets_owner_idx", False, ["owner_session_id", "owner_plugin_id"]),
        ],
    ),
    (
        "media_refs",
        [
            ("session_id", "text", True, False, None),
            ("media_id", "text", True, False, None),
            ("plugin_id", "text", False, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            ("media_refs_session_id_idx", False, ["session_id"]),
            ("media_refs_media_id_idx", False, ["media_id"]),
            ("media_refs_unique_idx", True, ["session_id", "media_id"]),
        ],
    ),
    (
        "lorebook_entries",
        [
            ("id", "text", True, False, None),
            ("session_id", "text", True, False, None),
            ("owner", "text", True, False, None),
            ("keys", "text", True, False, None),
            ("content", "text", True, False, None),
            ("strategy", "text", True, False, None),
            ("position", "text", True, False, None),
            ("insertion_order", "integer", True, False, "100"),
            ("enabled", "integer", True, False, "1"),
            ("extra", "text", False, False, None),
            ("created_at", "text", True, False, None),
            ("updated_at", "text", True, False, None),
        ],
        [
            ("lorebook_entries_session_id_idx", False, ["session_id"]),
            ("lorebook_entries_owner_idx", False, ["session_id", "owner"]),
        ],
    ),
    (
        "state_snapshots",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("kind", "text", True, False, None),
            ("parent_id", "text", False, False, None),
            ("payload", "text", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [("state_snapshots_session_id_idx", False, ["session_id"])],
    ),
    (
        "suspensions",
        [
            ("id", "text", False, True, None),
            ("session_id", "text", True, False, None),
            ("turn_id", "text", True, False, None),
            ("runtime_id", "text", True, False, None),
            ("plugin_id", "text", True, False, None),
            ("reason", "text", True, False, None),
            ("resume_schema", "text", True, False, None),
            ("pending_continuation", "text", True, False, None),
            ("created_at", "text", True, False, None),
            ("resolved_at", "text", False, False, None),
        ],
        [("suspensions_session_id_idx", False, ["session_id"])],
    ),
    (
        "logical_turn_ledger",
        [
            ("session_id", "text", True, False, None),
            ("logical_turn_id", "text", True, False, None),
            ("completed_by_execution_id", "text", True, False, None),
            ("completed_at", "text", True, False, None),
        ],
        [("logical_turn_ledger_unique_idx", True, ["session_id", "logical_turn_id"])],
    ),
    (
        "setup_attempts",
        [
            ("session_id", "text", True, False, None),
            ("runtime_id", "text", True, False, None),
            ("plugin_version", "text", True, False, None),
            ("generation", "integer", True, False, None),
            ("execution_id", "text", True, False, None),
            ("state", "text", True, False, None),
            ("started_at", "text", True, False, None),
            ("finished_at", "text", False, False, None),
            ("error", "text", False, False, None),
        ],
        [
            (
                "setup_attempts_unique_idx",
                True,
                ["session_id", "runtime_id", "generation", "execution_id"],
            )
        ],
    ),
    (
        "job_status",
        [
            ("session_id", "text", True, False, None),
            ("progress_scope_id", "text", True, False, None),
            ("plugin_id", "text", True, False, None),
            ("runtime_id", "text", True, False, None),
            ("job_id", "text", True, False, None),
            ("state", "text", True, False, None),
            ("progress", "real", False, False, None),
            ("message", "text", False, False, None),
            ("data", "text", False, False, None),
            ("sequence", "integer", True, False, None),
            ("created_at", "text", True, False, None),
        ],
        [
            (
                "job_status_unique_idx",
                True,
                ["session_id", "progress_scope_id", "plugin_id", "runtime_id", "job_id", "sequence"],
            )
        ],
    ),
    (
        "runtime_exports",
        [
            ("session_id", "text", True, False, None),
            ("producer_plugin_id", "text", True, False, None),
            ("producer_runtime_id", "text", True, False, None),
            ("record_as", "text", True, False, None),
            ("revision", "integer", True, False, None),
            ("plugin_version", "text", True, False, None),
            ("schema_digest", "text", True, False, None),
            ("result_id", "text", True, False, None),
            ("value", "text", False, False, None),
            ("committed_at", "text", True, False, None),
        ],
        [
            (
                "runtime_exports_unique_idx",
                True,
                ["session_id", "producer_runtime_id", "record_as", "revision"],
            )
        ],
    ),
]

# The codegen's reserved-word list, limited to the names this schema uses ("key" is not on it).
_RESERVED = {"order", "values"}


def _ident(name: str) -> str:
    return f'"{name}"' if name in _RESERVED else name


def _column(col: tuple[str, str, bool, bool, str | None]) -> str:
    name, sql_type, not_null, primary, default = col
    parts = [_ident(name), sql_type.upper()]
    if primary:
        parts.append("PRIMARY KEY")
    else:
        if not_null:
            parts.append("NOT NULL")
        if default is not None:
            parts.append(f"DEFAULT {default}")
    return " ".join(parts)


def render_ddl() -> str:
    """The full boot DDL script, byte-stable across runs."""
    blocks = []
    for name, columns, indexes in TABLES:
        cols = ",\n".join(f"  {_column(c)}" for c in columns)
        lines = [f"CREATE TABLE IF NOT EXISTS {name} (\n{cols}\n);"]
        for index, unique, idx_cols in indexes:
            kw = "CREATE UNIQUE INDEX" if unique else "CREATE INDEX"
            lines.append(f"{kw} IF NOT EXISTS {index} ON {name}({', '.join(idx_cols)});")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def columns_of(table: str) -> list[str]:
    for name, columns, _ in TABLES:
        if name == table:
            return [c[0] for c in columns]
    raise KeyError(table)
