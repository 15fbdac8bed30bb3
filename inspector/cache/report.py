"""Renderers of the cache analysis: JSON, CSV, a terminal table, and a self-contained HTML report
with inline SVG charts (no external assets, no scripts).

Every function takes the :class:`~inspector.cache.analysis.CacheAnalysis` objects the analysis
returns and produces text; nothing here computes a number the analysis did not.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from inspector.cache.results import CacheAnalysis, CachePair, Finding
from inspector.cache.session_totals import session_cost_classes
from inspector.jsjson import js_stringify
from inspector.ids import short_id
from inspector.numbering import shown_label, step_attempt_text
from inspector.output import table_lines

# The CSV columns, in the order CachePair.to_json writes its keys (a test holds them equal).
PAIR_COLUMNS = (
    "sessionId", "runtimeId", "turnId", "previousTurnId", "eventId", "previousEventId", "kind", "step",
    "attempt", "model", "provider", "protocol", "startedAt", "rules", "tokenizer", "tokenProvenance",
    "sharedChars", "totalChars", "sharedTokens", "totalTokens", "firstDifference", "region", "offset",
    "predictedCachedTokens", "predictedCacheWriteTokens", "reportedCachedTokens", "reportedCacheWriteTokens",
    "reportedInputTokens", "gapSeconds", "ttlSeconds", "reason", "reasonDetail", "confidence", "providerMissReason",
    "providerMissedTokens", "verdictsDisagree", "breakpoints", "uncachedTokens",
    "inputPricePerMTok", "uncachedCostUsd", "reportedUncachedCostUsd", "missedSavingsUsd", "routingRate",
)
FINDING_COLUMNS = ("sessionId", "runtimeId", "kind", "severity", "part", "count", "outOf", "turnIds", "message")


# --- JSON / CSV ---------------------------------------------------------------------------------

def _dump(value: Any) -> str:
    """Indented JSON in the layout of ``JSON.stringify(value, null, 2)``, written by orjson: on a
    1,000-turn session the JavaScript-exact writer takes about a second. A very small number may
    come out as ``7.35e-6`` where JavaScript writes ``0.00000735``; the value is the same. The
    exact writer stays for what orjson refuses (a lone surrogate in recorded text)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n"
    except (TypeError, orjson.JSONEncodeError):
        return js_stringify(value, indent=2) + "\n"


def pairs_json(analyses: Iterable[CacheAnalysis]) -> str:
    """The CLI contract: one JSON list of pairs, every session's in order."""
    return _dump([p.to_json() for a in analyses for p in a.pairs])


def findings_json(analyses: Iterable[CacheAnalysis]) -> str:
    return _dump([f.to_json() for a in analyses for f in a.findings])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        # Whole numbers without ".0", as JSON prints them.
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _csv(columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[k]) for k in columns])
    return out.getvalue()


def pairs_csv(analyses: Iterable[CacheAnalysis]) -> str:
    return _csv(PAIR_COLUMNS, (pair.to_json() for analysis in analyses for pair in analysis.pairs))


def findings_csv(analyses: Iterable[CacheAnalysis]) -> str:
    return _csv(FINDING_COLUMNS, (f.to_json() for analysis in analyses for f in analysis.findings))


# --- text ---------------------------------------------------------------------------------------

def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: frozenset[int] = frozenset()) -> list[str]:
    return table_lines([list(headers)] + [list(r) for r in rows], right)


def _num(value: int | None) -> str:
    return "-" if value is None else str(value)


def _gap(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}s" if value >= 10 else f"{value:.1f}s"


def _usd(value: float | None) -> str:
    return "-" if value is None else f"${value:.4f}"


def verdict_text(p: CachePair) -> str:
    """A pair's reason as a report shows it: with "(uncertain)" when the verdict rests on a count
    or a gap within a band, and the provider's own verdict when it reported one ("≠" when the
    two disagree)."""
    text = p.reason if p.confidence == "certain" else f"{p.reason} (uncertain)"
    if p.provider_miss_reason is not None:
        text += f" {'≠' if p.verdicts_disagree else '·'} provider: {p.provider_miss_reason}"
    return text


def _kind(p: CachePair) -> str:
    return p.kind if p.kind == "turn" else f"loop {step_attempt_text(p.step, p.attempt)}"


def cost_class_lines(analysis: CacheAnalysis) -> list[str]:
    """The session's input in its four billing classes, one line each, and the total; [] when
    no request is priced."""
    classes = session_cost_classes(analysis.findings)
    if not classes.priced:
        return []
    lines = [f"Cost classes ({classes.requests} priced requests):"]
    lines.extend(_table(["class", "tokens", "cost"],
                        [[name, str(tokens), _usd(usd)] for name, tokens, usd in classes.rows()]
                        + [["total", str(sum(classes.tokens)), _usd(classes.total_usd)]],
                        right=frozenset({1, 2})))
    return lines


def report_text(analyses: Sequence[CacheAnalysis], turn_numbers: Mapping[str, Mapping[str, int]] | None = None) -> str:
    """The text report; ``turn_numbers`` (session → turn id → number, :func:`inspector.ids.turn_numbers`)
    names each pair's turn by its number ("4") as the app does, else by its short id."""
    lines: list[str] = []
    for analysis in analyses:
        lines.append(f"Session {analysis.session_id}")
        numbers = (turn_numbers or {}).get(analysis.session_id, {})
        rows = []
        for p in analysis.pairs:
            rows.append([
                p.runtime_id or "?", str(numbers.get(p.turn_id) or short_id(p.turn_id)), _kind(p),
                f"{p.shared_tokens}/{p.total_tokens}", str(p.predicted_cached_tokens), _num(p.reported_cached_tokens),
                _gap(p.gap_seconds), verdict_text(p), shown_label(p.first_difference),
            ])
        headers = ["runtime", "turn", "kind", "shared/total", "predicted", "reported", "gap", "reason",
                   "first difference"]
        lines.extend(_table(headers, rows, right=frozenset({3, 4, 5, 6})))
        lines.append("")
        lines.append("Per runtime (tokens summed over its requests; cost of the input not cached, predicted):")
        srows = []
        for s in analysis.summaries:
            share = f"{round(100 * s.predicted_cached_tokens / s.total_tokens)}%" if s.total_tokens else "-"
            reported = "-" if not s.reported_pairs else str(s.reported_cached_tokens)
            reasons = ", ".join(f"{k} {v}" for k, v in s.reasons.most_common())
            srows.append([s.runtime_id or "?", str(s.pairs), str(s.total_tokens), str(s.shared_tokens),
                          str(s.predicted_cached_tokens), reported, share,
                          _usd(s.uncached_cost_usd if s.priced else None), reasons])
        lines.extend(_table(["runtime", "requests", "tokens", "shared", "predicted", "reported", "cached", "uncached",
                             "reasons"], srows, right=frozenset({1, 2, 3, 4, 5, 6, 7})))
        classes = cost_class_lines(analysis)
        if classes:
            lines.append("")
            lines.extend(classes)
        if analysis.findings:
            lines.append("")
            lines.append("Layout findings:")
            for f in analysis.findings:
                lines.append(f"  [{f.severity}] {f.runtime_id}: {f.kind} at {f.part} ({f.count} of {f.out_of})")
                lines.append(f"      {f.message}")
        for w in analysis.warnings:
            lines.append(f"  warning: {w}")
        lines.append("")
    lines.append(_FOOTNOTE)
    return "\n".join(lines) + "\n"


_FOOTNOTE = (
    "Shared/total: tokens of the prefix this request shares with the one it is compared to (the previous turn's "
    "first request, or the previous call of the same turn), in the order providers hash a request. Predicted: "
    "cached tokens under the provider rules table (resources/provider_rules.toml, or your --rules file); "
    "reported: cachedInputTokens from llm.responded. Counts use the table's tokenizer: exact for OpenAI "
    "models, a stand-in for every other provider."
)


# --- HTML ---------------------------------------------------------------------------------------

_CSS = """
:root { color-scheme: light dark; --fg:#1d2330; --muted:#5d6677; --bg:#fbfbfc; --card:#ffffff; --line:#d9dde5;
  --total:#cfd5e0; --shared:#4d7cc7; --pred:#d9822b; --rep:#2f9e6b; --warn:#b3541e; }
@media (prefers-color-scheme: dark) { :root { --fg:#e3e7ef; --muted:#9aa3b2; --bg:#14171d; --card:#1c2029;
  --line:#323846; --total:#3a4150; --shared:#6f9be0; --pred:#f0a050; --rep:#4cc38a; --warn:#f08a5d; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0 auto; max-width: 1200px;
  padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: var(--muted); } .card { background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  padding: 12px 16px; margin: 10px 0; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 6px; text-align: left; vertical-align: top; }
th { position: sticky; top: 0; background: var(--card); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.finding { border-left: 4px solid var(--warn); }
.reason { white-space: nowrap; }
svg text { fill: var(--muted); font-size: 11px; }
svg .grid { stroke: var(--line); } svg .tot { fill: var(--total); } svg .sh { fill: var(--shared); }
svg .pred { fill: none; stroke: var(--pred); stroke-width: 1.6; } svg .rep { fill: var(--rep); }
.legend span { display: inline-block; margin-right: 14px; }
.sw { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
details summary { cursor: pointer; }
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _chart(pairs: Sequence[CachePair], width: int = 1100, height: int = 230) -> str:
    """Shared vs total tokens per request of one runtime, with predicted and reported cached tokens."""
    left, right, top, bottom = 56, 12, 12, 28
    plot_w = width - left - right
    plot_h = height - top - bottom
    n = len(pairs)
    peak = max([1] + [max(p.total_tokens, p.reported_cached_tokens or 0) for p in pairs])
    step = plot_w / max(n, 1)
    bar = max(1.0, step * 0.8)

    def y(value: float) -> float:
        return top + plot_h - plot_h * value / peak

    out = [f'<svg role="img" viewBox="0 0 {width} {height}" width="100%" xmlns="http://www.w3.org/2000/svg">']
    for frac in (0, 0.5, 1):
        value = round(peak * frac)
        yy = y(value)
        out.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{yy:.1f}" y2="{yy:.1f}"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">{value}</text>')
    predicted_points = []
    label_every = max(1, n // 12)
    for i, p in enumerate(pairs):
        x = left + i * step + (step - bar) / 2
        tip = _e(f"{p.turn_id[:8]} {p.kind}: shared {p.shared_tokens} of {p.total_tokens} tokens, predicted "
                 f"{p.predicted_cached_tokens}, reported {_num(p.reported_cached_tokens)} — {p.reason}: "
                 f"{p.first_difference}")
        out.append(f'<g><title>{tip}</title>'
                   f'<rect class="tot" x="{x:.1f}" y="{y(p.total_tokens):.1f}" width="{bar:.1f}" '
                   f'height="{top + plot_h - y(p.total_tokens):.1f}"/>'
                   f'<rect class="sh" x="{x:.1f}" y="{y(p.shared_tokens):.1f}" width="{bar:.1f}" '
                   f'height="{top + plot_h - y(p.shared_tokens):.1f}"/></g>')
        cx = left + i * step + step / 2
        predicted_points.append(f"{cx:.1f},{y(p.predicted_cached_tokens):.1f}")
        if p.reported_cached_tokens is not None:
            out.append(f'<circle class="rep" cx="{cx:.1f}" cy="{y(p.reported_cached_tokens):.1f}" r="2.6"/>')
        if i % label_every == 0:
            out.append(f'<text x="{cx:.1f}" y="{height - 10}" text-anchor="middle">{i + 1}</text>')
    if predicted_points:
        out.append(f'<polyline class="pred" points="{" ".join(predicted_points)}"/>')
    out.append("</svg>")
    return "".join(out)


_LEGEND = (
    '<div class="legend muted">'
    '<span><i class="sw" style="background:var(--total)"></i>total tokens</span>'
    '<span><i class="sw" style="background:var(--shared)"></i>shared with the previous request</span>'
    '<span><i class="sw" style="background:var(--pred)"></i>predicted cached</span>'
    '<span><i class="sw" style="background:var(--rep);border-radius:5px"></i>reported cached</span>'
    "</div>"
)


def _finding_html(f: Finding) -> str:
    example = ""
    if f.example and (f.example.get("was") is not None or f.example.get("now") is not None):
        example = (f'<details><summary class="muted">example: turn {_e(str(f.example.get("turnId"))[:8])}</summary>'
                   f'<div>was: <code>{_e(f.example.get("was"))}</code></div>'
                   f'<div>now: <code>{_e(f.example.get("now"))}</code></div></details>')
    return (f'<div class="card finding"><b>{_e(f.kind)}</b> · {_e(f.runtime_id)} · <i>{_e(f.part)}</i> '
            f'<span class="muted">({f.count} of {f.out_of})</span><div>{_e(f.message)}</div>{example}</div>')


def _pairs_table(pairs: Sequence[CachePair]) -> str:
    head = ("<tr><th>#</th><th>turn</th><th>kind</th><th>shared</th><th>total</th><th>predicted</th><th>reported</th>"
            "<th>gap</th><th>reason</th><th>first difference</th><th>uncached</th></tr>")
    rows = []
    for i, p in enumerate(pairs, start=1):
        kind = _kind(p)
        rows.append(
            f'<tr><td class="n">{i}</td><td title="{_e(p.turn_id)}">{_e(p.turn_id[:8])}</td><td>{_e(kind)}</td>'
            f'<td class="n">{p.shared_tokens}</td><td class="n">{p.total_tokens}</td>'
            f'<td class="n">{p.predicted_cached_tokens}</td><td class="n">{_num(p.reported_cached_tokens)}</td>'
            f'<td class="n">{_gap(p.gap_seconds)}</td><td class="reason" title="{_e(p.reason_detail)}">{_e(verdict_text(p))}</td>'
            f"<td>{_e(p.first_difference)}</td><td class=\"n\">{_usd(p.uncached_cost_usd)}</td></tr>"
        )
    return f"<table>{head}{''.join(rows)}</table>"


def report_html(analyses: Sequence[CacheAnalysis], *, title: str = "Prompt cache report", source: str = "") -> str:
    body: list[str] = [f"<h1>{_e(title)}</h1>"]
    if source:
        body.append(f'<div class="muted">{_e(source)}</div>')
    for analysis in analyses:
        body.append(f"<h2>Session {_e(analysis.session_id)}</h2>")
        classes = session_cost_classes(analysis.findings)
        if classes.priced:
            cells = "".join(f'<tr><td>{_e(name)}</td><td class="n">{tokens}</td><td class="n">{_usd(usd)}</td></tr>'
                            for name, tokens, usd in classes.rows())
            body.append(f'<div class="card"><b>Cost classes</b> <span class="muted">({classes.requests} priced '
                        f'requests)</span><table><tr><th>class</th><th>tokens</th><th>cost</th></tr>{cells}'
                        f'<tr><th>total</th><td class="n">{sum(classes.tokens)}</td>'
                        f'<td class="n">{_usd(classes.total_usd)}</td></tr></table></div>')
        if analysis.findings:
            body.append("<h3>Layout findings</h3>")
            body.extend(_finding_html(f) for f in analysis.findings)
        for summary in analysis.summaries:
            pairs = [p for p in analysis.pairs if p.runtime_id == summary.runtime_id]
            if not pairs:
                continue
            rules = pairs[-1].rules
            share = round(100 * summary.predicted_cached_tokens / summary.total_tokens) if summary.total_tokens else 0
            reported = (f", reported {summary.reported_cached_tokens}" if summary.reported_pairs else "")
            cost = f", uncached input {_usd(summary.uncached_cost_usd)}" if summary.priced else ""
            body.append(f"<h3>{_e(summary.runtime_id)}</h3>")
            body.append(
                f'<div class="muted">{summary.pairs} requests, {summary.total_tokens} tokens, predicted cached '
                f"{summary.predicted_cached_tokens} ({share}%){reported}{cost} · rules {_e(rules.source)}: minimum "
                f"{rules.min_cacheable_tokens}, {_e(rules.granularity)}, TTL {rules.ttl_seconds:g} s, tokenizer "
                f"{_e(rules.tokenizer)}</div>")
            body.append(f'<div class="card">{_chart(pairs)}{_LEGEND}</div>')
            body.append(f"<details><summary>requests</summary>{_pairs_table(pairs)}</details>")
        for w in analysis.warnings:
            body.append(f'<div class="muted">warning: {_e(w)}</div>')
    body.append(f'<p class="muted">{_e(_FOOTNOTE)}</p>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{_e(title)}</title>"
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
