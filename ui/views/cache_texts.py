"""How the cache analysis views word a pair: its share colour, durations, the runtime's name, the
kind of request, the route and the tooltip of a table cell. The numbers are the core's
(:mod:`inspector.cache.analysis`, :mod:`inspector.cache.session_totals`); this only formats them."""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from inspector.cache.results import CachePair
from inspector.cache.session_totals import CostClasses, shared_share
from inspector.numbering import shown
from ui.views.core_texts import core_text
from ui.views.part_names import part_label


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


def share_colour(share: float, dark: bool) -> QColor:
    """Red (nothing shared) through amber to green (everything shared), muted so the numbers on
    top stay readable; darker shades on a dark palette."""
    share = min(1.0, max(0.0, share))
    hue = share * 120 / 360
    return QColor.fromHsvF(hue, 0.62, 0.42) if dark else QColor.fromHsvF(hue, 0.42, 0.98)


COLD_COLOURS = ("#e4e7ec", "#3a3f47")  # (light, dark): a cold start is expected, not a miss


def format_seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 120:
        return _tr("{n} s").format(n=f"{value:,.1f}")
    if value < 7200:
        return _tr("{n} min").format(n=f"{value / 60:,.1f}")
    return _tr("{n} h").format(n=f"{value / 3600:,.1f}")


def num_text(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def runtime_name(runtime_id: str | None) -> str:
    return runtime_id if runtime_id is not None else _tr("(no runtime)")


def pair_tooltip(pair: CachePair) -> str:
    lines = [
        _tr("<b>{runtime}</b> · {kind}").format(runtime=html.escape(runtime_name(pair.runtime_id)),
                                                 kind=kind_text(pair)),
        _tr("Shared prefix: {shared} of {total} tokens ({pct})").format(
            shared=num_text(pair.shared_tokens), total=num_text(pair.total_tokens), pct=f"{shared_share(pair) * 100:.1f} %"),
        _tr("Cached tokens: predicted {predicted}, reported {reported}").format(
            predicted=num_text(pair.predicted_cached_tokens), reported=num_text(pair.reported_cached_tokens)),
        _tr("Gap since the earlier request: {gap} (cache lifetime {ttl})").format(
            gap=format_seconds(pair.gap_seconds), ttl=format_seconds(pair.ttl_seconds)),
        _tr("Reason: <b>{reason}</b> — {detail}").format(reason=html.escape(reason_name(pair.reason)),
                                                         detail=html.escape(reason_detail_text(pair.reason_detail))),
        _tr("First difference: {part} at character {offset}").format(
            part=html.escape(part_label(pair.first_difference)), offset=f"{pair.offset:,}"),
    ]
    lines += verdict_lines(pair)
    route = route_text(pair)
    if route:
        lines.append(route)
    return "<br>".join(lines)


def reason_name(reason: str) -> str:
    """A reason of :data:`inspector.cache.results.REASONS` as a person reads it (an unknown one as
    recorded)."""
    return {
        "cold-start": _tr("cold start"),
        "expired": _tr("expired"),
        "model-changed": _tr("model changed"),
        "tools-changed": _tr("tools changed"),
        "system-changed": _tr("system prompt changed"),
        "history-rewritten": _tr("history rewritten"),
        "turn-context": _tr("turn context"),
        "below-minimum": _tr("below the minimum"),
        "options-changed": _tr("options changed"),
        "provider-reported": _tr("reported by the provider"),
        "unexplained": _tr("unexplained"),
    }.get(reason, reason)


def region_name(region: str) -> str:
    """Where a first difference lies (:data:`inspector.cache.results.REGIONS`), translated."""
    return {
        "tools": _tr("tools"),
        "settings": _tr("request settings"),
        "system": _tr("system prompt"),
        "history": _tr("history"),
        "turn-context": _tr("turn context"),
        "end": _tr("end of the request"),
    }.get(region, region)


def reason_detail_text(detail: str) -> str:
    """A pair's reason detail (the core's English sentence) in the UI's language."""
    return core_text(detail)


def finding_message_text(message: str) -> str:
    """A finding's explanation (the core's English sentence) in the UI's language."""
    return core_text(message)


# Shown before an uncertain pair's share in the table: the verdict is an approximation.
UNCERTAIN_MARK = "≈"


def confidence_mark(pair: CachePair) -> str:
    return UNCERTAIN_MARK if pair.confidence == "uncertain" else ""


def verdict_lines(pair: CachePair, *, say_certain: bool = False) -> list[str]:
    """How sure the reason is and the provider's own verdict, as rich-text lines (none for a
    certain pair without one, unless ``say_certain``)."""
    lines = []
    if pair.confidence == "uncertain":
        lines.append(_tr("Confidence: <b>uncertain</b> — a count or gap lies within the error band of a threshold"))
    elif say_certain:
        lines.append(_tr("Confidence: certain"))
    if pair.provider_miss_reason is not None:
        missed = num_text(pair.provider_missed_tokens)
        lines.append(_tr("Provider's verdict: <b>{reason}</b> ({missed} input tokens missed)").format(
            reason=html.escape(pair.provider_miss_reason), missed=missed))
        if pair.verdicts_disagree:
            lines.append(_tr("<b>Our reason and the provider's disagree.</b>"))
    return lines


def route_text(pair: CachePair) -> str:
    """The requests on the pair's route in its minute, and the provider's limit, when known."""
    if pair.routing_rate is None:
        return ""
    limit = pair.rules.overflow_requests_per_minute
    if limit is None:
        return _tr("Route: {rate} requests in the minute up to this one").format(rate=pair.routing_rate)
    return _tr("Route: {rate} requests in the minute up to this one (some overflow to other machines above "
               "~{limit:g})").format(rate=pair.routing_rate, limit=limit)


def kind_text(pair: CachePair) -> str:
    if pair.kind == "turn":
        return _tr("first request of the turn")
    if pair.attempt:
        return _tr("tool-loop step {step}, attempt {attempt}").format(step=shown(pair.step), attempt=shown(pair.attempt))
    return _tr("tool-loop step {step}").format(step=shown(pair.step))


def cost_class_name(name: str) -> str:
    """A billing class of :data:`inspector.cache.pricing.COST_CLASSES`, translated."""
    return {
        "uncached input": _tr("uncached input"),
        "cache read": _tr("cache read"),
        "5-minute write": _tr("5-minute write"),
        "1-hour write": _tr("1-hour write"),
    }.get(name, name)


def cost_classes_text(classes: CostClasses) -> tuple[str, str]:
    """The session's input cost for the status line, and a tooltip with its four classes;
    ("", "") when no request is priced."""
    if not classes.priced:
        return "", ""
    short = _tr("input cost ${usd}").format(usd=f"{classes.total_usd:,.4f}")
    rows = [_tr("{name}: {tokens} tokens, ${usd}").format(name=cost_class_name(name), tokens=f"{tokens:,}",
                                                          usd=f"{usd:,.4f}")
            for name, tokens, usd in classes.rows()]
    head = _tr("The input of {n} priced requests by billing class:").format(n=f"{classes.requests:,}")
    return short, "\n".join([head, *rows])
