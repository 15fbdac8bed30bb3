"""The demo's database writer: buffered inserts numbered as Covel's store numbers them."""

from __future__ import annotations

import sqlite3
from typing import Any

from .schema import columns_of


# --- the database writer ----------------------------------------------------------------------


class DemoWriter:
    """Buffered inserts with the store's per-(session, created_at) ``seq`` numbering."""

    _SEQ_TABLES = ("trace_events", "messages", "turn_results")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._rows: dict[str, list[tuple]] = {}
        self._sql: dict[str, str] = {}
        self._seq: dict[tuple[str, str, str], int] = {}
        self.counts: dict[str, int] = {}

    def _next_seq(self, table: str, session_id: str, created_at: str) -> int:
        key = (table, session_id, created_at)
        seq = self._seq.get(key, 0)
        self._seq[key] = seq + 1
        return seq

    def add(self, table: str, **values: Any) -> None:
        cols = columns_of(table)
        if table in self._SEQ_TABLES:
            values["seq"] = self._next_seq(table, values["session_id"], values["created_at"])
        if table not in self._sql:
            names = ", ".join(f'"{c}"' if c in ("order", "values") else c for c in cols)
            self._sql[table] = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(cols))})"
        self._rows.setdefault(table, []).append(tuple(values.get(c) for c in cols))
        self.counts[table] = self.counts.get(table, 0) + 1

    def flush(self) -> None:
        for table, rows in self._rows.items():
            if rows:
                self.conn.executemany(self._sql[table], rows)
        self._rows.clear()
