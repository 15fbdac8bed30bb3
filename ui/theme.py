"""Fusion style with a light or dark palette that follows the system colour scheme.

Fusion because native styles on some platforms ignore a custom palette; a palette of our own
because Fusion's built-in dark handling differs between Qt versions and desktops. The scheme can
be forced with ``PROMPT_INSPECTOR_THEME=light|dark`` (screenshots, bug reports).
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

ENV_THEME = "PROMPT_INSPECTOR_THEME"

_LIGHT = {
    "window": "#f3f3f3", "base": "#ffffff", "alt": "#f6f7f9", "text": "#1d1f23", "button": "#ececec",
    "highlight": "#2f6fd1", "highlighted_text": "#ffffff", "mid": "#c9c9c9", "dark": "#a0a0a0",
    "light": "#ffffff", "placeholder": "#6b7078", "link": "#1f5fbf", "tooltip_base": "#fffbe6",
    "disabled": "#9a9da3",
}
_DARK = {
    "window": "#2b2d31", "base": "#1f2023", "alt": "#25272b", "text": "#e3e5e8", "button": "#35373c",
    "highlight": "#3d7be0", "highlighted_text": "#ffffff", "mid": "#4a4d53", "dark": "#18191b",
    "light": "#45484e", "placeholder": "#9aa0a8", "link": "#7fb0ff", "tooltip_base": "#3a3c41",
    "disabled": "#6c7077",
}


def is_dark(palette: QPalette) -> bool:
    """Does ``palette`` paint light text on a dark base? Views pick their tints by it."""
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def current_scheme() -> str:
    forced = os.environ.get(ENV_THEME, "").strip().lower()
    if forced in ("light", "dark"):
        return forced
    hints = QGuiApplication.styleHints()
    return "dark" if hints.colorScheme() == Qt.ColorScheme.Dark else "light"


def palette_for(scheme: str) -> QPalette:
    c = {k: QColor(v) for k, v in (_DARK if scheme == "dark" else _LIGHT).items()}
    p = QPalette()
    R = QPalette.ColorRole
    p.setColor(R.Window, c["window"])
    p.setColor(R.WindowText, c["text"])
    p.setColor(R.Base, c["base"])
    p.setColor(R.AlternateBase, c["alt"])
    p.setColor(R.Text, c["text"])
    p.setColor(R.Button, c["button"])
    p.setColor(R.ButtonText, c["text"])
    p.setColor(R.BrightText, QColor("#ff5050"))
    p.setColor(R.Highlight, c["highlight"])
    p.setColor(R.HighlightedText, c["highlighted_text"])
    p.setColor(R.Mid, c["mid"])
    p.setColor(R.Midlight, c["light"])
    p.setColor(R.Dark, c["dark"])
    p.setColor(R.Light, c["light"])
    p.setColor(R.Shadow, QColor("#000000"))
    p.setColor(R.PlaceholderText, c["placeholder"])
    p.setColor(R.Link, c["link"])
    p.setColor(R.ToolTipBase, c["tooltip_base"])
    p.setColor(R.ToolTipText, c["text"])
    for role in (R.WindowText, R.Text, R.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, c["disabled"])
    return p


def apply_theme(app: QApplication) -> str:
    """Style the application and keep following the system scheme. Returns the scheme applied."""
    app.setStyle("Fusion")
    scheme = current_scheme()
    app.setPalette(palette_for(scheme))
    if not getattr(app, "_pi_theme_connected", False):
        QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _s: app.setPalette(palette_for(current_scheme())))
        app._pi_theme_connected = True  # type: ignore[attr-defined]
    return scheme
