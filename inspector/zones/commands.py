"""``prompt-inspector lint`` and ``prompt-inspector render`` for prompt-zone configs and Covel
runtime bodies.

A file is a Covel runtime body when its name ends in ``.md`` (``PLUGIN.md``, ``RUNTIME.md``: the
front matter is skipped), ``.covel`` or ``.covel.txt``, or with ``--covel``; a ChatLuna preset when
it is ``.yml``/``.yaml`` and its content is one (a mapping with ``prompts`` and/or ``keywords`` at
the top, and none of a zones config's keys); anything else is a zones config (``.json``,
``.yaml``/``.yml``, ``.toml``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from inspector.error_boundary import EXIT_FAILED_CHECK, EXIT_OK
from inspector.messages import localized
from inspector.output import dump_json, write_text


def _out():
    return write_text, dump_json


def _is_covel(args: argparse.Namespace) -> bool:
    from .covel_templates import is_covel_template_path

    return bool(args.covel) or is_covel_template_path(args.file)


def _is_preset(args: argparse.Namespace) -> bool:
    from .presets import looks_like_preset

    return not _is_covel(args) and looks_like_preset(args.file)


def _load_preset(path: str, error_type):
    from .presets import PresetError, load_preset

    try:
        return load_preset(path)
    except PresetError as exc:
        raise error_type(str(exc)) from None


def _read_text(path: str, error_type) -> str:
    from .config import read_text_file

    return read_text_file(path, error_type)


def _load(path: str, error_type):
    from .config import ConfigError, load_config

    try:
        return load_config(path)
    except ConfigError as exc:
        raise error_type(str(exc)) from None


def _diagnostic_line(file: str, d) -> str:
    where = d.block_id if d.block_id is not None else "-"
    if d.source is not None:
        where += f" ({d.source})"
    place = f"{d.line}:{d.column}" if d.field == "content" else d.field or "-"
    name = f" ({d.variable})" if d.variable and d.code == "unused-variable" else ""
    return f"{file}: {where} {place}: {d.severity} [{d.code}] {d.message}{name}"


def _summary(diagnostics) -> str:
    from .diagnostic import ERROR, INFO, WARNING, severity_counts

    counts = severity_counts(diagnostics)
    errors, warnings, infos = counts[ERROR], counts[WARNING], counts[INFO]
    parts = [f"{errors} error{'s' if errors != 1 else ''}", f"{warnings} warning{'s' if warnings != 1 else ''}"]
    if infos:
        parts.append(f"{infos} note{'s' if infos != 1 else ''}")
    return ", ".join(parts)


def cmd_lint(args: argparse.Namespace, error_type) -> int:
    write, dump = _out()
    if _is_covel(args):
        from .covel_templates import check_covel

        text = _read_text(args.file, error_type)
        diagnostics = check_covel(text, Path(args.file).name, front_matter=args.file.lower().endswith(".md"))
    elif _is_preset(args):
        from .presets import render_preset

        diagnostics = render_preset(_load_preset(args.file, error_type)).diagnostics
    else:
        from .diagnostics import check

        diagnostics = check(_load(args.file, error_type))
    if args.json:
        write(dump([d.to_json() for d in diagnostics]))
    elif diagnostics:
        write("".join(_diagnostic_line(args.file, d) + "\n" for d in diagnostics) + _summary(diagnostics) + "\n")
    else:
        write(f"{args.file}: no problems\n")
    return EXIT_FAILED_CHECK if any(d.severity == "error" for d in diagnostics) else EXIT_OK


def _deep_merge(base: Any, patch: Any) -> Any:
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = _deep_merge(out.get(k), v)
        return out
    return patch


def _read_json(path: str, error_type, what: str) -> Any:
    from .config import MAX_NESTING, too_deep

    try:
        value = json.loads(_read_text(path, error_type))
    except json.JSONDecodeError as exc:
        raise error_type(localized("{path}: not valid JSON: {problem} at line {line}", path=path, problem=exc.msg,
                                   line=exc.lineno)) from None
    except RecursionError:
        raise error_type(localized("{path}: values nested deeper than {limit} levels", path=path,
                                   limit=MAX_NESTING)) from None
    except ValueError as exc:
        raise error_type(localized("{path}: not valid JSON: {problem}", path=path, problem=exc)) from None
    if too_deep(value):
        raise error_type(localized("{path}: values nested deeper than {limit} levels", path=path, limit=MAX_NESTING))
    return value


def _read_vars(path: str, error_type) -> dict:
    extra = _read_json(path, error_type, "template variables")
    if not isinstance(extra, dict):
        raise error_type(localized("{path}: expected a JSON object of template variables", path=path))
    return extra


def _render_covel(args: argparse.Namespace, error_type) -> int:
    from .covel_templates import check_covel, example_variables, interpolate

    write, dump = _out()
    text = _read_text(args.file, error_type)
    variables = example_variables()
    if args.vars:
        variables = _deep_merge(variables, _read_vars(args.vars, error_type))
    md = args.file.lower().endswith(".md")
    rendered = interpolate(text, variables, front_matter=md)
    diagnostics = check_covel(text, Path(args.file).name, front_matter=md)
    if args.json:
        write(dump({"text": rendered, "diagnostics": [d.to_json() for d in diagnostics]}))
    else:
        write(rendered if rendered.endswith("\n") else rendered + "\n")
    return EXIT_OK


def _render_text(result) -> str:
    lines = [f"turn {result.turn} · system {result.system_action} · digest {result.digest[:16]} · "
             f"content {result.content_digest[:16]}"]
    lines.append("sections: " + ", ".join(result.section_names))
    lines.append("== system ==")
    lines.append(result.system)
    for i, m in enumerate(result.prelude, 1):
        lines.append(f"== prelude {i} ({m.role}) · {m.source} ==")
        lines.append(m.content)
    for i, m in enumerate(result.contexts, 1):
        lines.append(f"== context {i} ({m.role}) · {m.source} ==")
        lines.append(m.content)
    lines.append("== input ==")
    lines.append(result.input)
    for w in result.warnings:
        where = f"{w.block_id}: " if w.block_id else ""
        lines.append(f"warning: {where}[{w.code}] {w.message}")
    return "\n".join(lines) + "\n"


def _turns_text(rows) -> str:
    out = ["turn  system        note  digest            content           changes"]
    for row in rows:
        changes = ", ".join(row.changes) if row.note is not None else ""
        out.append(f"{row.turn:<5} {row.system_action:<13} {'yes' if row.note_added else '-':<5} "
                   f"{row.digest[:16]}  {row.content_digest[:16]}  {changes}".rstrip())
    return "\n".join(out) + "\n"


def _preset_text(result) -> str:
    lines = []
    for i, m in enumerate(result.messages):
        if m.source == "prompt":
            title = f"prompts[{m.index}]" + (f" · {m.type}" if m.type else "")
        elif m.source == "history":
            title = f"history {m.index}"
        elif m.source == "lore":
            title = f"lore · {m.position} · world_lores " + ", ".join(str(e) for e in m.entries)
        elif m.source == "authors_note":
            title = f"author's note · {m.position}"
        else:
            title = "input"
        lines.append(f"== {i + 1}. {m.role} · {title} ==")
        lines.append(m.content)
    if result.authors_note is not None and not result.authors_note.active:
        lines.append(f"(author's note not inserted: {result.authors_note.reason})")
    for d in result.diagnostics:
        if d.severity != "info":
            where = d.block_id or "-"
            place = f"{d.line}:{d.column}" if d.field == "content" else d.field or "-"
            lines.append(f"{d.severity}: {where} {place}: [{d.code}] {d.message}")
    return "\n".join(lines) + "\n"


def _render_preset(args: argparse.Namespace, error_type) -> int:
    from .presets import ClockError, PresetOptions, check_history, render_preset

    write, dump = _out()
    if args.turns is not None or args.turn != 0:
        raise error_type(localized("--turn and --turns simulate a zones config's turns; for a ChatLuna preset give "
                                   "the conversation so far with --history"))
    preset = _load_preset(args.file, error_type)
    history: list = []
    if args.history:
        try:
            history = check_history(_read_json(args.history, error_type, "history"), args.history)
        except ValueError as exc:
            raise error_type(str(exc)) from None
    options = PresetOptions(**{k: v for k, v in {
        "input": args.input, "now": args.now, "seed": args.seed,
        "variables": _read_vars(args.vars, error_type) if args.vars else None,
    }.items() if v is not None}, history=tuple(history))
    try:
        result = render_preset(preset, options)
    except ClockError as exc:
        raise error_type(str(exc)) from None
    write(dump(result.to_json()) if args.json else _preset_text(result))
    return EXIT_FAILED_CHECK if result.has_errors else EXIT_OK


def cmd_render(args: argparse.Namespace, error_type) -> int:
    if _is_covel(args):
        return _render_covel(args, error_type)
    if _is_preset(args):
        return _render_preset(args, error_type)
    for option in ("history", "now", "seed"):
        if getattr(args, option) is not None:
            raise error_type(localized("--{option} is for ChatLuna preset files; {file} is not one", option=option,
                                       file=args.file))
    from .blocks import MAX_TURNS, render, simulate_turns

    write, dump = _out()
    if args.turn < 0:
        raise error_type(localized("--turn counts from 0 and cannot be negative"))
    if args.turn >= MAX_TURNS:
        raise error_type(localized("--turn {turn}: a simulation has at most {count} turns (0 to {last})",
                                   turn=args.turn, count=MAX_TURNS, last=MAX_TURNS - 1))
    if args.turns is not None and not 0 <= args.turns <= MAX_TURNS:
        raise error_type(localized("--turns {turns}: give a number of turns from 0 to {count}", turns=args.turns,
                                   count=MAX_TURNS))
    config = _load(args.file, error_type)
    if args.turns is not None:
        rows = simulate_turns(config, args.turns, args.input)
        write(dump([r.to_json() for r in rows]) if args.json else _turns_text(rows))
        return EXIT_FAILED_CHECK if any(r.error is not None for r in rows) else EXIT_OK
    result = render(config, args.turn, args.input)
    if result.error is not None:
        # Like lint's errors, a config that cannot be assembled is an answer (status 1), not bad input.
        if args.json:
            write(dump(result.to_json()))
        else:
            sys.stderr.write(f"prompt-inspector: {args.file}: the assembly failed: {result.error.message}\n")
        return EXIT_FAILED_CHECK
    write(dump(result.to_json()) if args.json else _render_text(result))
    return EXIT_OK


def configure_lint(p: argparse.ArgumentParser, error_type) -> None:
    """The arguments of ``lint`` (named, with its one-line help, in ``inspector.cli.registry``)."""
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the diagnostics as a JSON list")
    p.add_argument("--covel", action="store_true", help="treat FILE as a Covel runtime body whatever its name")
    p.set_defaults(func=lambda args: cmd_lint(args, error_type))


def configure_render(p: argparse.ArgumentParser, error_type) -> None:
    """The arguments of ``render`` (named, with its one-line help, in ``inspector.cli.registry``)."""
    p.add_argument("file", metavar="FILE")
    p.add_argument("--turn", type=int, default=0, help="simulated turn, counted from 0 (default 0)")
    p.add_argument("--turns", type=int, metavar="N", help="instead: step through N turns and print, per turn, "
                   "whether the system zone was re-rendered or an \"environment updated\" note added")
    p.add_argument("--input", metavar="TEXT", help="the user's input (default: the config's sampleInput; for a "
                   "ChatLuna preset 你好)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--covel", action="store_true", help="treat FILE as a Covel runtime body whatever its name")
    p.add_argument("--vars", metavar="JSON", help="with a Covel body or a ChatLuna preset: a JSON file of template "
                   "variables over the sample values")
    p.add_argument("--history", metavar="JSON", help="with a ChatLuna preset: a JSON list of {role, content} "
                   "messages, oldest first, that lore entries are matched against (default: none)")
    p.add_argument("--now", metavar="ISO", help="with a ChatLuna preset: the clock for date/time functions and "
                   "variables; its UTC offset is the local time zone (default 2026-01-01T09:30:00+08:00)")
    p.add_argument("--seed", type=int, metavar="N", help="with a ChatLuna preset: the seed of random/pick/roll "
                   "(default 0; every template starts the sequence afresh)")
    p.set_defaults(func=lambda args: cmd_render(args, error_type))
