"""The request header's context budget: a bar of the request's input and reserved output
against the model's context window, with the numbers beside it. The arithmetic and the limits
come from :func:`inspector.budget.request_budget`; this widget only draws them."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from inspector.budget import (
    INPUT_OVER_INPUT_LIMIT, INPUT_OVER_WINDOW, OUTPUT_OVER_MODEL_MAX, TOTAL_OVER_WINDOW, ContextBudget,
)

from ui.theme import is_dark


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("BudgetBar", text)


OVER_COLOUR = QColor("#c0392b")


def _source_label(source: str) -> str:
    return {"reported": _tr("reported by the provider"), "counted": _tr("counted here"),
            "estimated": _tr("Covel's estimate")}.get(source, source)


def _problem_text(code: str, b: ContextBudget) -> str:
    limits = b.limits
    assert limits is not None
    if code == INPUT_OVER_WINDOW:
        return _tr("the input alone is over the context window")
    if code == INPUT_OVER_INPUT_LIMIT:
        return _tr("the input is over the model's input limit of {n:,}").format(n=limits.input_ceiling)
    if code == OUTPUT_OVER_MODEL_MAX:
        return _tr("{field} is over the model's output limit of {n:,}").format(field=b.output_field,
                                                                              n=limits.max_output_tokens)
    if code == TOTAL_OVER_WINDOW:
        return _tr("input and {field} together are over the context window").format(field=b.output_field)
    return code


class _Bar(QWidget):
    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.budget: ContextBudget | None = None
        self.setMinimumWidth(60)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(220, max(10, self.fontMetrics().height() - 4))

    def paintEvent(self, _e) -> None:  # noqa: N802 - Qt override
        b = self.budget
        painter = QPainter(self)
        pal = self.palette()
        r = self.rect().adjusted(0, 2, -1, -2)
        track = QColor(pal.color(QPalette.ColorRole.Mid))
        track.setAlpha(160)
        painter.fillRect(r, track)
        if b is None or not b.known:
            painter.end()
            return
        over = bool(b.problems)
        used = QColor(OVER_COLOUR if over else pal.color(QPalette.ColorRole.Highlight))
        reserved = QColor("#e8a33d" if not is_dark(pal) else "#c98a2b")
        width = r.width()
        in_w = min(width, round(width * (b.input_share or 0.0)))
        out_w = min(width - in_w, round(width * (b.output_share or 0.0)))
        if b.input_tokens > 0:
            in_w = max(1, in_w)
        if b.reserved_output > 0 and in_w < width:
            out_w = max(1, out_w)
        painter.fillRect(QRect(r.left(), r.top(), in_w, r.height()), used)
        painter.fillRect(QRect(r.left() + in_w, r.top(), out_w, r.height()), reserved)
        painter.end()


class BudgetBar(QWidget):
    """``set_budget(budget)``; ``text()`` is what the label says."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = _Bar(self)
        self.label = QLabel(self)
        self.label.setObjectName("budgetText")
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.label, 3)
        self.budget: ContextBudget | None = None

    def clear(self) -> None:
        self.budget = None
        self.bar.budget = None
        self.label.clear()
        self.setToolTip("")
        self.bar.update()

    def text(self) -> str:
        return self.label.text()

    def set_budget(self, b: ContextBudget) -> None:
        self.budget = b
        self.bar.budget = b
        self.bar.update()
        if not b.known:
            self.label.setText(_tr("Context window: not known for {model} (add it to the rules table's "
                                   "[[model_limits]])").format(model=b.model or "?"))
            self.label.setStyleSheet("")
            self.setToolTip(_tr("The rules table has no context window for this model, so no budget is shown."))
            return
        limits = b.limits
        assert limits is not None
        parts = [_tr("Context: {input:,} input").format(input=b.input_tokens)]
        if b.requested_output is not None:
            parts.append(_tr("+ {out:,} {field}").format(out=b.requested_output, field=b.output_field))
        else:
            parts.append(_tr("(no output limit in the request)"))
        parts.append(_tr("of {window:,} ({share:.1%})").format(window=limits.context_window,
                                                               share=(b.input_tokens + b.reserved_output)
                                                               / limits.context_window))
        text = " ".join(parts)
        if b.problems:
            text += " — " + "; ".join(_problem_text(code, b) for code in b.problems)
            self.label.setStyleSheet(f"color: {OVER_COLOUR.name()};")
        else:
            self.label.setStyleSheet("")
        self.label.setText(text)
        tip = [
            _tr("Input: {n:,} tokens, {how}").format(n=b.input_tokens, how=_source_label(b.input_source)),
            _tr("Context window: {n:,} tokens; output limit {out:,}").format(n=limits.context_window,
                                                                            out=limits.max_output_tokens),
        ]
        if not limits.output_in_window:
            tip.append(_tr("This model's output does not count against its input window."))
        if limits.max_input_tokens is not None:
            tip.append(_tr("Input limit: {n:,} tokens").format(n=limits.max_input_tokens))
        tip.append(_tr("Rule {pattern}: {source}").format(pattern=b.pattern, source=limits.source))
        self.setToolTip("\n".join(tip))
