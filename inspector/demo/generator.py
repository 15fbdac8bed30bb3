"""Deterministic generator of a Covel-shaped ``covel.db`` for demos, tests and benchmarks.

The file is built the way Covel itself would have written it while a player played: every model
request goes through the real assembly (``inspector.covel.assembly``) and the real wire
serialisers (``inspector.wire.serialise``), every JSON column is ``JSON.stringify`` output
(``inspector.jsjson``), and the write-order ``seq`` columns are numbered exactly as the store
numbers them. Nothing reads the wall clock or the OS random source: the seed fixes every byte.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path

from inspector.files import check_output_path
from inspector.jsjson import js_stringify

from inspector.store import open_store
from inspector.store.turn_counts import TurnCounts, session_turn_counts, total_turn_counts

from . import world as W
from .edition import DEMO_APPLICATION_ID, DEMO_FORMAT, is_demo_file
from .file_output import new_sqlite_file
from .limits import check_scale, check_sessions, check_turns
from .schema import render_ddl
from .basics import Ids, iso_at
from .session_configs import session_configs
from .simulation import SessionSim
from .writer import DemoWriter

__all__ = ["DemoSummary", "generate_demo"]


@dataclass(frozen=True)
class DemoSummary:
    """What was written: ``turns`` and ``executions`` as every view counts them
    (:mod:`inspector.store.turn_counts`)."""

    path: Path
    sessions: int
    turns: int
    executions: int
    llm_calls: int
    bytes: int


# --- top level --------------------------------------------------------------------------------


def _write_world(out: DemoWriter) -> None:
    out.add("worlds", id=W.WORLD_ID, name=W.WORLD_NAME, description=W.WORLD_DESCRIPTION, lore=W.WORLD_LORE,
            tags=js_stringify(W.WORLD_TAGS), locale="zh-CN",
            metadata=js_stringify({"version": "1.2.0", "author": "covel-demo", "cover": None}),
            created_at=iso_at(-86_400_000), updated_at=iso_at(-3_600_000))


def _write_session(out: DemoWriter, sim: SessionSim) -> None:
    cfg = sim.cfg
    plugins = ["guide", "narrator", "char-creator", "world-init", "affinity", "memory", "character-blueprint",
               "history-compaction"]
    out.add(
        "sessions", id=cfg.session_id, world_id=W.WORLD_ID, status="active", locale="zh-CN",
        active_plugins=js_stringify(plugins),
        metadata=js_stringify({"title": f"{W.WORLD_NAME}·{cfg.player.name}", "playerCharacter": cfg.player.name}),
        created_at=iso_at(cfg.start_ms - 60_000), updated_at=iso_at(sim.now), embedding_model_id=None,
        embedding_locked_at=None,
        runtime_model_overrides=js_stringify({"guide/main": cfg.fast.name}),
        phase="playing", completed_player_turns=sim.completed_player_turns,
        setup_runtimes=js_stringify({"world-init/setup": {"status": "completed", "generation": 1}}),
    )


def _write_media(out: DemoWriter, sim: SessionSim) -> None:
    for digest, size, created, _raw in sim.media:
        media_id = sim.ids.uuid()
        out.add("media_assets", id=media_id, sha256=digest, mime="image/png", size=size,
                path=f"media/{digest[:2]}/{digest}.png", meta=js_stringify({"width": 24, "height": 16}),
                owner_session_id=sim.cfg.session_id, owner_plugin_id=None, created_at=created)
        out.add("media_refs", session_id=sim.cfg.session_id, media_id=media_id, plugin_id=None, created_at=created)


def generate_demo(
    path: str | os.PathLike[str],
    *,
    turns: int = 12,
    seed: int = 20261130,
    scale: float = 1.0,
    sessions: int | None = None,
    overwrite: bool = False,
) -> DemoSummary:
    """Write a new demo ``covel.db`` at ``path`` and describe it.

    ``turns`` is the length of the main (DeepSeek) session; the Claude, OpenAI and Gemini sessions
    play min(turns, 6/5/4). ``scale`` stretches every story reply. ``sessions`` limits (or, past
    four, repeats) the session list. An existing file is replaced only if this generator wrote it,
    unless ``overwrite`` is set.
    """
    _check_arguments(turns, scale, sessions)
    target = check_output_path(path, may_replace_database=True)  # never a folder
    if target.exists() and not overwrite and not is_demo_file(target):
        raise FileExistsError(f"{target} exists and is not a demo database; pass overwrite=True to replace it")
    built = build_demo_file(target, turns=turns, seed=seed, scale=scale, sessions=sessions)
    return DemoSummary(target, built.sessions, built.turns, built.executions, built.llm_calls, target.stat().st_size)


def _check_arguments(turns: int, scale: float, sessions: int | None) -> int:
    """The number of sessions to play, once the arguments are known to be usable (``limits``)."""
    check_turns(turns)
    check_scale(scale)
    return check_sessions(sessions)


@dataclass(frozen=True)
class BuiltDemo:
    sessions: int
    turns: int
    executions: int
    llm_calls: int
    # sha256 -> image bytes of every media_assets row (the SQLite file keeps only their paths).
    media: dict[str, bytes]


def build_demo_file(
    target: Path, *, turns: int = 12, seed: int = 20261130, scale: float = 1.0, sessions: int | None = None
) -> BuiltDemo:
    """Write the demo SQLite file at ``target`` (replacing it atomically, no questions asked;
    a failed write raises ``inspector.files.SaveError`` and leaves the old file)."""
    count = _check_arguments(turns, scale, sessions)
    media: dict[str, bytes] = {}
    with new_sqlite_file(target) as conn:
        conn.execute(f"PRAGMA application_id = {DEMO_APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {DEMO_FORMAT}")
        conn.executescript(render_ddl())
        conn.execute("BEGIN")
        rng = random.Random(seed)
        ids = Ids(rng)
        out = DemoWriter(conn)
        _write_world(out)
        llm_calls = 0
        configs = session_configs(turns, count)
        for cfg in configs:
            sim = SessionSim(cfg, random.Random(rng.getrandbits(64)), ids, out, scale)
            sim.play()
            _write_session(out, sim)
            _write_media(out, sim)
            out.flush()
            llm_calls += sim.llm_calls
            media.update((digest, raw) for digest, _size, _created, raw in sim.media)
        conn.execute("COMMIT")
    counts = _turn_counts(target)
    return BuiltDemo(len(configs), counts.turns or 0, counts.executions, llm_calls, media)


def _turn_counts(target: Path) -> TurnCounts:
    """The turns and executions of the written file, read back the way every view counts them."""
    with open_store(target) as store:
        return total_turn_counts(session_turn_counts(s) for s in store.sessions(event_counts=False))
