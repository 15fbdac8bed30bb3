"""The request view's header: the request's title and facts, the message line, the Copy /
Export / Compare buttons and the context budget bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from inspector.budget import ContextBudget
from inspector.ids import short_id
from inspector.numbering import shown as shown_number
from inspector.views import RequestDetail

from ui.views.budget_bar import BudgetBar
from ui.views.names import copy_id_link, id_link, request_title
from ui.views.part_names import provenance_label
from ui.views.request_picker import num


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("RequestView", text)


def esc(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class RequestHeader(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self)
        self.title.setObjectName("requestTitle")
        font = QFont(self.title.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Long runtime ids and event ids must not force the window wider than the user made it;
        # the title wraps between its parts instead of running under the buttons.
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setWordWrap(True)
        # "Turn 4 · narrator/main · step 1 · 29877d78": the short id copies the full one when clicked.
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.title.linkActivated.connect(self._copy_id)
        self.facts = QLabel(self)
        self.facts.setObjectName("requestFacts")
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        self.facts.setWordWrap(True)
        self.facts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.facts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.budget_bar = BudgetBar(self)
        self.budget_bar.hide()
        self.message = QLabel(self)
        self.message.setObjectName("requestMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.hide()
        self._facts: list[str] = []
        self._facts_tail = ""
        self._facts_width = -1
        self.compact = False

        def tool(text: str, tip: str) -> QToolButton:
            b = QToolButton(self)
            b.setText(text)
            b.setToolTip(tip)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setAutoRaise(True)
            b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            return b

        self.copy_button = tool(_tr("Copy"), _tr("Copy the anatomy or the provider body"))
        self.export_button = tool(_tr("Export"), _tr("Save the anatomy or the provider body to a file"))
        self.compare_button = tool(_tr("Compare"), _tr("Compare this request with another one, part by part"))
        buttons = QHBoxLayout()
        buttons.setSpacing(2)
        for b in (self.copy_button, self.export_button, self.compare_button):
            buttons.addWidget(b)
        text_col = QVBoxLayout()
        text_col.setSpacing(1)
        text_col.addWidget(self.title)
        text_col.addWidget(self.facts)
        text_col.addWidget(self.budget_bar)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addLayout(text_col, 1)
        top.addLayout(buttons)
        top.setAlignment(buttons, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addLayout(top)
        layout.addWidget(self.message)

    def _copy_id(self, link: str) -> None:
        if copy_id_link(link):
            window = self.window()
            bar = getattr(window, "statusBar", None)
            if callable(bar):
                bar().showMessage(_tr("Copied the request id to the clipboard"), 4000)

    # ------------------------------------------------------------------ facts line

    def _layout_facts(self) -> None:
        """Break the facts between facts, never inside one: a label breaks CJK text anywhere (it
        needs no space), which cut "代理分词器" in two. Greedy lines by the label's width."""
        if not self._facts:
            return
        width = self.facts.width() - 4
        doc = QTextDocument()
        doc.setDefaultFont(self.facts.font())
        doc.setDocumentMargin(0)

        def measure(html: str) -> float:
            doc.setHtml(html)
            return doc.idealWidth()

        sep = measure(" &nbsp;│&nbsp; ")
        lines: list[list[str]] = [[]]
        used = 0.0
        for fact in self._facts:
            w = measure(fact)
            extra = sep if lines[-1] else 0.0
            if lines[-1] and used + extra + w > width:
                lines.append([])
                used, extra = 0.0, 0.0
            lines[-1].append(fact)
            used += extra + w
        full = "<br>".join(" &nbsp;│&nbsp; ".join(line) for line in lines) + self._facts_tail
        self._facts_width = self.facts.width()
        if self.compact and (len(lines) > 1 or self._facts_tail):
            # A short view (the stepper's): one line of facts, the others in the tooltip.
            self.facts.setText(" &nbsp;│&nbsp; ".join(lines[0]) + " &nbsp;…")
            self.facts.setToolTip(full)
        else:
            self.facts.setText(full)
            self.facts.setToolTip("")

    def set_compact(self, on: bool) -> None:
        """One line of facts (the rest in its tooltip) while ``on``: for a view too short for all."""
        if on != self.compact:
            self.compact = on
            self._layout_facts()

    def resizeEvent(self, e) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        if self._facts and self.facts.width() != self._facts_width:
            self._layout_facts()

    def show_loading(self, event_id: str) -> None:
        """Say ``event_id`` is loading. The facts and the budget bar shown stay where they are,
        greyed, until the request's replace them: emptied, the header would shrink now and grow
        back when the request is shown, and each time the whole page below it (trees, text) would
        be laid out and drawn again, the first time while the load job runs beside the GUI thread."""
        self.title.setText(esc(_tr("Loading request {id}…").format(id=short_id(event_id))))
        self.title.setToolTip("")
        self._set_current(False)
        self.message.hide()

    def _set_current(self, on: bool) -> None:
        """Facts and budget bar shown as the request's (True) or greyed while another loads."""
        self.facts.setEnabled(on)
        self.budget_bar.setEnabled(on)

    def show_error(self, text: str) -> None:
        self.title.setText(esc(_tr("Request not shown")))
        self.title.setToolTip("")
        self._set_current(True)
        self._facts = []
        self.facts.clear()
        self.budget_bar.clear()
        self.budget_bar.hide()
        self.message.setText(text)
        self.message.setStyleSheet("color: #c0392b;")
        self.message.show()

    def show_message(self, text: str, *, error: bool) -> None:
        self.message.setText(text)
        self.message.setStyleSheet("color: #c0392b;" if error else "")
        self.message.show()

    def fill(self, d: RequestDetail, budget: ContextBudget | None, turn_number: int | None = None) -> None:
        """Show ``d``'s facts; ``turn_number`` names its turn ("Turn 4"; None: by short id)."""
        row = d.record
        self.message.hide()
        self._set_current(True)
        # "Turn 4 · narrator/main · step 1" (one-based, as the navigator counts), then the short id,
        # a link that copies the full id.
        name = request_title(turn_number, row.turn_id, row.runtime_id or _tr("(no runtime)"), row.step, row.attempt)
        self.title.setText(esc(name) + " · " + id_link(short_id(row.event_id), row.event_id))
        self.title.setToolTip(row.event_id)
        view = d.request.protocol if d.request.source == "provider" else _tr("kernel messages")
        tokens = (_tr("<b>{exact}</b> tokens ({encoding}, {provenance})").format(
            exact=num(d.total_exact), encoding=d.encoding, provenance=provenance_label(d.encoding_provenance))
            if d.exact_counted else _tr("<b>{est}</b> estimated tokens").format(est=num(d.total_estimate)))
        # The turn is named in the title already.
        facts = [
            f"<b>{esc(row.model or '?')}</b> · {esc(row.provider or '?')}",
            esc(view or "?"),
            tokens,
            _tr("reported input {input} · cached {cached} · cache write {write} · output {output}").format(
                input=num(row.input_tokens), cached=num(row.cached_tokens),
                write=num(row.cache_write_tokens), output=num(row.output_tokens)),
        ]
        if row.transport_attempts > 1:
            facts.append(_tr("{n} transport attempts").format(n=row.transport_attempts))
        problems = list(d.request.problems)
        self._facts = facts
        self._facts_tail = ("<br><span style='color:#c0392b'>" + "<br>".join(esc(p) for p in problems) + "</span>"
                            if problems else "")
        self._layout_facts()
        if budget is not None:
            self.budget_bar.set_budget(budget)
            self.budget_bar.show()
        else:
            self.budget_bar.clear()
            self.budget_bar.hide()


def attempt_caption(f: dict[str, Any]) -> str:
    """The caption of one transport attempt's provider-body pane."""
    if f["completeness"] == "complete":
        parts = [_tr("complete body")]
    elif f["completeness"] == "partial":
        parts = [_tr("partial body: {n} omitted fields").format(n=f["omittedFields"])]
    else:
        parts = [_tr("completeness not recorded")]
    parts.append(_tr("status {code}").format(code=f["statusCode"] if f["statusCode"] is not None else "–"))
    if f["retryReason"]:
        parts.append(_tr("retry reason: {reason}").format(reason=f["retryReason"]))
    if f["bodyRef"] is not None:
        parts.append(_tr("bodyRef → attempt {n} (body resolved from it)").format(n=shown_number(f["bodyRef"])))
    if f["bodyError"]:
        parts.append(_tr("body error: {error}").format(error=f["bodyError"]))
    if f["failed"]:
        parts.append(_tr("failed"))
    return " · ".join(parts)
