"""``prompt-inspector order`` and ``prompt-inspector assemble``: the writing-agent on the command line.

    prompt-inspector order FILE [--normalise] [--apply OP …] [--json]
    prompt-inspector assemble ORDER SCENARIO --slot REF [--turn N] [--json] [--simulate] …

Named in ``inspector.cli.registry``, which hands each command's parser to its ``configure_…``
function here; a failure raises the CLI's error type, which prints one line and exits with status 1 (a rejected edit prints the spec's message, in English unless the locale is Chinese: :mod:`.errors`).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from inspector.inputs import InputFileError, refuse_special_file
from inspector.messages import localized
from inspector.output import dump_json, write_text


def configure_order(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    """The arguments of ``order`` (named, with its one-line help, in ``inspector.cli.registry``)."""
    p.add_argument("file", metavar="FILE", help="the order table: JSON, text holding a fenced JSON block, or a "
                   "worker set (设计.worker集 JSON) holding it under context_order")
    p.add_argument("--normalise", "--normalize", action="store_true",
                   help="print the document exactly as serializeContextOrder writes it")
    p.add_argument("--apply", metavar="OP", nargs="+", action="extend", default=[],
                   help='edit operations as JSON, applied in order, e.g. '
                        '\'{"action":"move","slotRef":"narrator","index":2,"delta":-1}\'')
    p.add_argument("--json", action="store_true", help="print the document and what normalisation changed as JSON")
    p.set_defaults(func=lambda args: _cmd_order(args, error_type))


def configure_assemble(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    """The arguments of ``assemble`` (named, with its one-line help, in ``inspector.cli.registry``)."""
    p.add_argument("order", metavar="ORDER", help="the context-order.v1 table")
    p.add_argument("scenario", metavar="BLACKBOARD", help="the blackboard / scenario file (JSON or YAML)")
    p.add_argument("--slot", required=True, metavar="REF", help="the slot (worker ref or play-slot alias)")
    p.add_argument("--turn", type=int, metavar="N", help="assemble as at history block N (default: all of it)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--simulate", action="store_true",
                   help="replay every turn and report where the shared prefix with the previous turn breaks")
    p.add_argument("--encoding", default="o200k_base", choices=("o200k_base", "cl100k_base"),
                   help="tokenizer for counts and tail_tokens_N (default o200k_base)")
    p.add_argument("--history-mode", choices=("hysteresis", "window"), default="hysteresis",
                   help="history cut: hysteresis (design doc, default) or the code's sliding window")
    p.add_argument("--boundary", choices=(">", ">="), default=">",
                   help="trim when the block count is > 2n (default) or >= 2n")
    p.add_argument("--marker", choices=("n", "kept", "none"), default="n",
                   help="the 仅最近 marker shows n (default), the kept count, or nothing")
    p.add_argument("--variant", metavar="NAME", help="contextProfile variant (default: the scenario's choice; '' for none)")
    p.add_argument("--code-policies", action="store_true",
                   help="policies as in the public code: tail_tokens_N, latest and concat do nothing")
    p.add_argument("--leak", action="store_true",
                   help="reproduce the original's isolation leak through the blackboard fallback")
    p.add_argument("--single-history-message", action="store_true",
                   help="send the history as one system message (the code's framing) instead of role messages")
    p.set_defaults(func=lambda args: _cmd_assemble(args, error_type))


def _out(text: str) -> None:
    write_text(text)


def _dump(value: Any) -> str:
    return dump_json(value)


def _read_order(path: str, error_type: type[Exception]):
    from .order import NoDocumentError, read_order_source

    try:
        refuse_special_file(path)  # a FIFO or a device would block the read forever
        text = Path(path).read_text(encoding="utf-8")
    except InputFileError as exc:
        raise error_type(str(exc)) from None
    except OSError as exc:
        raise error_type(localized("cannot read {path}: {reason}", path=path, reason=exc.strerror)) from None
    except UnicodeDecodeError:
        raise error_type(localized("{path} is not UTF-8 text", path=path)) from None
    try:
        return read_order_source(text)[0]
    except NoDocumentError as exc:
        raise error_type(f"{path}: {exc}") from None


def _order_table(document) -> str:
    lines = []
    if document.brief:
        lines.append(f"brief: {document.brief}")
    if document.play_slots is not None:
        lines.append("play_slots: " + ", ".join(f"{k}={'on' if v else 'off'}" for k, v in document.play_slots.items()
                                                if isinstance(v, bool)))
    for slot in document.slots:
        lines.append(f"\n{slot.ref}  {slot.label}")
        for insert in slot.inserts:
            extra = "  ".join(x for x in (insert.note and f"（{insert.note}）", insert.label and f"label: {insert.label}") if x)
            lines.append(f"  {insert.order:>3}  {insert.projection:<8} {insert.ref}" + (f"  {extra}" if extra else ""))
    return "\n".join(lines).lstrip("\n") + "\n"


def _cmd_order(args: argparse.Namespace, error_type: type[Exception]) -> int:
    from inspector.jsjson import js_parse

    from .edits import apply_edit
    from .errors import edit_error_text
    from .order import OrderEditError, normalise, serialise, to_json_object

    document = _read_order(args.file, error_type)
    if args.apply:
        # Edits index the table as read (sorted by order), as the original edits the order it
        # parsed; each edit normalises and reports what normalisation changed.
        changes = []
    else:
        normal = normalise(document)
        document, changes = normal.document, list(normal.changes)
    for op in args.apply:
        try:
            request = js_parse(op)
        except ValueError as exc:
            raise error_type(localized("--apply {op} is not JSON: {error}", op=repr(op), error=exc)) from None
        try:
            result = apply_edit(document, request)
        except OrderEditError as exc:
            raise error_type(edit_error_text(exc)) from None
        document = result.document
        changes.extend(result.changes)
    if args.normalise:
        _out(serialise(document) + "\n")
    elif args.json:
        _out(_dump({"document": to_json_object(document),
                    "changes": [{"slot": c.slot_ref, "kind": c.kind, "message": c.message} for c in changes]}))
    else:
        text = _order_table(document)
        if changes:
            text += "\n" + "\n".join(f"note: {c.slot_ref}: {c.message}" for c in changes) + "\n"
        _out(text)
    return 0


def _assembly_text(result) -> str:
    lines = [f"{result.slot_ref} ({result.worker_name}) · turn {result.turn}/{result.turn_count} · "
             f"{len(result.messages)} messages · {result.total_tokens} tokens ({result.encoding})"
             + (f" · variant {result.variant}" if result.variant else "")
             + (f" · isolation {result.isolation}" if result.isolation != "none" else "")]
    if result.history is not None:
        h = result.history
        lines.append(f"history: {h.mode}, blocks {h.kept_start}..{h.kept_start + h.kept_blocks} of {h.total_blocks}"
                     + (f", n={h.limit}" if h.limit else ""))
    lines.append("\nsegments:")
    for s in result.segments:
        lines.append(f"  {s.bag or '-':<9} {s.tokens:>6}  {s.projection or 'full':<8} {s.policy or '':<16} {s.id}")
    lines.append("\nmessages:")
    for n, m in enumerate(result.messages):
        lines.append(f"[{n}] {m.role} · {m.source} · {m.tokens} tokens")
        lines.append("    " + m.content.replace("\n", "\n    "))
    for warning in result.warnings:
        lines.append(f"warning: {warning}")
    return "\n".join(lines) + "\n"


def _simulation_text(sim) -> str:
    lines = [f"{sim.slot_ref}: {len(sim.rows)} turns, prefix breaks at "
             f"{', '.join(map(str, sim.break_turns)) or 'no turn'}; "
             f"{sim.shared_tokens} of {sim.total_tokens} tokens repeat the previous turn ({sim.encoding})",
             f"{'turn':>4} {'msgs':>4} {'tokens':>7} {'shared':>7}  history   break"]
    for row in sim.rows:
        history = "" if row.history_start is None else f"{row.history_start}+{row.history_kept}"
        lines.append(f"{row.turn:>4} {row.message_count:>4} {row.total_tokens:>7} {row.shared_tokens:>7}  "
                     f"{history:<9} {'BREAK ' + row.reason if row.broke else ''}".rstrip())
    return "\n".join(lines) + "\n"


def _cmd_assemble(args: argparse.Namespace, error_type: type[Exception]) -> int:
    from .assembly import AssemblyError, AssemblyOptions
    from .history import HistoryOptions
    from .prefix_sim import simulate_prefix
    from .scenario import ScenarioError, load_scenario

    order = _read_order(args.order, error_type)
    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as exc:
        raise error_type(str(exc)) from None
    options = AssemblyOptions(
        encoding=args.encoding,
        history=HistoryOptions(mode=args.history_mode, boundary=args.boundary, marker=args.marker),
        history_as_messages=not args.single_history_message,
        code_policies=args.code_policies,
        leak_through_blackboard=args.leak,
        variant=args.variant,
    )
    from .assembly import assemble

    try:
        if args.simulate:
            sim = simulate_prefix(order, scenario, args.slot, options)
            _out(_dump(sim.to_json()) if args.json else _simulation_text(sim))
            return 0
        result = assemble(order, scenario, args.slot, args.turn, options)
    except AssemblyError as exc:
        raise error_type(str(exc)) from None
    _out(_dump(result.to_json()) if args.json else _assembly_text(result))
    return 0
