"""The two requests of one cache pair, aligned part by part, with where they first differ marked.

Where the two differ is the core's answer (:func:`inspector.anatomy.compare.compare_details`,
whose first difference is :func:`inspector.anatomy.divergence.request_divergence`, the rule the
cache analysis applies): the header names the analysis's point, the table marks the same point in
its rows, and the excerpt shows the analysis's text around it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector import views
from inspector.anatomy.compare import Comparison, compare_details
from inspector.anatomy.divergence import context_point
from inspector.cache.results import CachePair
from inspector.cache.session_totals import shared_share
from inspector.ids import TurnNumbers
from inspector.prefix.report import CONTEXT_AFTER, CONTEXT_BEFORE
from ui.views.part_names import part_label

from ..workers import Job, TaskManager
from .cache_texts import (
    format_seconds,
    kind_text,
    num_text,
    reason_detail_text,
    reason_name,
    route_text,
    runtime_name,
    verdict_lines,
)
from .compare_view import MARK_COLOUR, CompareView, ids_tooltip, pair_side_html
from .names import copy_id_link


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


# The least height of the facts above the buttons: two lines, the rest scrolls.
FACTS_MINIMUM_HEIGHT = 36


class PairView(QWidget):
    """Two requests of one :class:`CachePair`, aligned part by part, with the first difference
    marked to the character. ``loaded(event_id)`` once the alignment is shown;
    ``openRequested(event_id)`` from the Open buttons."""

    loaded = Signal(str)
    openRequested = Signal(str)

    def __init__(self, tasks: TaskManager, store: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._store = store
        self.pair: CachePair | None = None
        self.comparison: Comparison | None = None
        self._job: Job | None = None
        # Turn id → number of the sessions compared so far ("Turn 4 · narrator/main · step 1").
        self._numbers = TurnNumbers()

        self.header = QLabel(self)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                            | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.header.linkActivated.connect(copy_id_link)
        self.header.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.context = QLabel(self)
        self.context.setObjectName("divergenceContext")
        self.context.setTextFormat(Qt.TextFormat.RichText)
        self.context.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.context.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.context.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.context.setToolTip(_tr("The text around the first difference, as the analysis compared it "
                                    "({before} characters before, {after} after)").format(
            before=CONTEXT_BEFORE, after=CONTEXT_AFTER))
        self.open_previous = QPushButton(_tr("Open earlier request"), self)
        self.open_previous.setToolTip(_tr("Show the earlier request of this pair in the request view"))
        self.open_previous.clicked.connect(lambda: self._open(previous=True))
        self.open_current = QPushButton(_tr("Open request"), self)
        self.open_current.setToolTip(_tr("Show this request in the request view"))
        self.open_current.clicked.connect(lambda: self._open(previous=False))
        self.goto_button = QPushButton(_tr("Go to difference"), self)
        self.goto_button.setToolTip(_tr("Select the part where the cached prefix ends and mark the character"))
        self.goto_button.clicked.connect(self.show_divergence)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.goto_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_previous)
        buttons.addWidget(self.open_current)

        self.compare = CompareView(self)
        # The header says what the comparison's summary would: the pair's first difference.
        self.compare.summary.hide()
        # The facts (a line each: verdict, shares, first difference, confidence, names, counts) and
        # the excerpt scroll in a short dock instead of pushing its height up; the buttons stay.
        facts = QWidget(self)
        facts_layout = QVBoxLayout(facts)
        facts_layout.setContentsMargins(0, 0, 0, 0)
        facts_layout.setSpacing(3)
        facts_layout.addWidget(self.header)
        facts_layout.addWidget(self.context)
        facts_layout.addStretch(1)
        self.facts = QScrollArea(self)
        self.facts.setObjectName("pairFacts")
        self.facts.setWidgetResizable(True)
        self.facts.setFrameShape(QFrame.Shape.NoFrame)
        self.facts.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.facts.setWidget(facts)
        self.facts.setMinimumHeight(FACTS_MINIMUM_HEIGHT)
        self.facts.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.facts)
        layout.addLayout(buttons)
        layout.addWidget(self.compare, 1)
        self.clear()

    def sizeHint(self) -> QSize:
        """Room for every fact line (the scroll area's own hint stops at a few lines)."""
        hint = super().sizeHint()
        facts = self.facts.widget()
        width = max(self.facts.viewport().width(), 200)
        wanted = facts.heightForWidth(width) if facts.hasHeightForWidth() else facts.sizeHint().height()
        return QSize(hint.width(), hint.height() - self.facts.sizeHint().height() + wanted)

    def clear(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self.pair = self.comparison = None
        self.header.setText(_tr("Select a cell of the table to compare its request with the earlier one."))
        self.header.setToolTip("")
        self.context.hide()
        self.compare.table.clear()
        self.compare.left_pane.set_content("")
        self.compare.right_pane.set_content("")
        for button in (self.open_previous, self.open_current, self.goto_button):
            button.setEnabled(False)

    def show_pair(self, pair: CachePair) -> None:
        if self.pair is pair:
            return
        self.clear()
        self.pair = pair
        self.header.setText(self._header_html(pair, None))
        self.open_current.setEnabled(True)
        self.open_previous.setEnabled(pair.previous_event_id is not None)
        self._show_context(pair)
        store = self._store()
        if pair.previous_event_id is None or store is None:
            return

        numbers = self._numbers

        def work(job: Job) -> tuple[Comparison, dict[str, int]] | None:
            before = views.request_detail(store, pair.previous_event_id)
            if job.cancelled or before is None:
                return None
            after = views.request_detail(store, pair.event_id)
            if job.cancelled or after is None:
                return None
            return compare_details(before, after), numbers.of_session(store, pair.session_id)

        self._job = self.tasks.run(work, lambda result: self._compared(pair, result),
                                   lambda exc: self._failed(pair, exc), resource=store, pause_gc=True)

    def _compared(self, pair: CachePair, result: tuple[Comparison, dict[str, int]] | None) -> None:
        if pair is not self.pair:
            return
        self._job = None
        comparison, numbers = result if result is not None else (None, None)
        if comparison is None:
            self.header.setText(self._header_html(pair, None) + "<br>"
                                + _tr("One of the two requests is no longer in the database."))
            return
        self.comparison = comparison
        self.compare.set_comparison(comparison, numbers)
        self.header.setText(self._header_html(pair, comparison, numbers))
        self.header.setToolTip(ids_tooltip(comparison.left.row, comparison.right.row))
        self.goto_button.setEnabled(comparison.first_difference is not None)
        self.loaded.emit(pair.event_id)

    def _failed(self, pair: CachePair, exc: BaseException) -> None:
        if pair is not self.pair:
            return
        self._job = None
        self.header.setText(self._header_html(pair, None) + "<br>"
                            + _tr("Cannot compare the two requests: {error}").format(error=html.escape(str(exc))))

    def show_divergence(self) -> None:
        """Select the row holding the first difference and show both sides with the differing
        character marked."""
        cmp = self.comparison
        if cmp is None or cmp.first_difference is None:
            return
        row = cmp.first_difference.row_index
        if self.compare.table.topLevelItemCount() > row:
            self.compare.table.setCurrentItem(self.compare.table.topLevelItem(row))
        self.compare.show_first_difference()

    # -- text

    def _show_context(self, pair: CachePair) -> None:
        if pair.now is None:
            self.context.hide()
            return
        k = context_point(pair.now, pair.offset)
        lines = []
        if pair.was is not None:
            lines.append(_tr("earlier") + " │ " + _marked_html(pair.was, k))
        else:
            lines.append(_tr("earlier") + " │ " + html.escape(_tr("(ended here)")))
        lines.append(_tr("this") + " &nbsp;&nbsp;│ " + _marked_html(pair.now, k))
        self.context.setText("<br>".join(lines))
        self.context.show()

    def _header_html(self, pair: CachePair, comparison: Comparison | None,
                     numbers: dict[str, int] | None = None) -> str:
        title = _tr("<b>{runtime}</b> · {kind} · {reason}").format(
            runtime=html.escape(runtime_name(pair.runtime_id)), kind=kind_text(pair),
            reason=html.escape(reason_name(pair.reason)))
        facts = _tr("shared {shared} of {total} tokens ({pct}) · cached: predicted {predicted}, reported "
                    "{reported} · gap {gap} (lifetime {ttl})").format(
            shared=num_text(pair.shared_tokens), total=num_text(pair.total_tokens),
            pct=f"{shared_share(pair) * 100:.1f} %", predicted=num_text(pair.predicted_cached_tokens),
            reported=num_text(pair.reported_cached_tokens), gap=format_seconds(pair.gap_seconds),
            ttl=format_seconds(pair.ttl_seconds))
        where = _tr("First difference: <b>{part}</b> at character {offset} — {detail}").format(
            part=html.escape(part_label(pair.first_difference)), offset=f"{pair.offset:,}",
            detail=html.escape(reason_detail_text(pair.reason_detail)))
        lines = [title, facts, where, *verdict_lines(pair, say_certain=True)]
        route = route_text(pair)
        if route:
            lines.append(f"<b>{route}</b>" if pair.routing_over_limit else route)
        if comparison is not None:
            lines.append(_tr("Earlier {left} · this {right}").format(
                left=pair_side_html(comparison.left.row, numbers), right=pair_side_html(comparison.right.row, numbers)))
            lines.append(_tr("Aligned parts: {equal} equal, {changed} changed, {moved} moved, {added} added, "
                             "{removed} removed").format(**comparison.counts()))
        elif pair.previous_event_id is not None:
            lines.append(_tr("Aligning the two requests…"))
        return "<br>".join(lines)

    def _open(self, *, previous: bool) -> None:
        if self.pair is None:
            return
        target = self.pair.previous_event_id if previous else self.pair.event_id
        if target:
            self.openRequested.emit(target)


def _visible(text: str) -> str:
    # One line per side: line breaks and tabs shown as symbols keep the two excerpts aligned.
    return html.escape(text.replace("\n", "⏎").replace("\t", "⇥")).replace(" ", "&nbsp;")


def _marked_html(text: str, k: int) -> str:
    mark = MARK_COLOUR.name()
    head, ch, tail = text[:k], text[k:k + 1], text[k + 1:]
    marked = (f'<span style="background:{mark};color:#ffffff">{_visible(ch)}</span>' if ch
              else f'<span style="background:{mark};color:#ffffff">&nbsp;</span>')
    return _visible(head) + marked + _visible(tail)
