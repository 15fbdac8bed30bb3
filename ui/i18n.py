"""UI language: English source strings, Simplified Chinese from ``prompt_inspector_zh_CN.qm``.

The language follows ``QLocale.system()`` unless ``PROMPT_INSPECTOR_LANG=en|zh_CN`` says
otherwise. Qt's own strings (dialog buttons, context menus) come from Qt's bundled
``qtbase_*.qm`` so a Chinese window does not show "Cancel".
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from inspector.messages import ENV_LANG, SUPPORTED, language_of

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "resources" / "translations"
__all__ = ["ENV_LANG", "SUPPORTED", "TRANSLATIONS_DIR", "choose_language", "install_translators"]


def choose_language(env: str | None = None, locale: QLocale | None = None) -> str:
    """``en`` or ``zh_CN``: the environment override if valid, else from the system locale."""
    # The override is read as the command line reads it (inspector.messages.language_of).
    chosen = language_of(env if env is not None else os.environ.get(ENV_LANG, ""))
    if chosen is not None:
        return chosen
    loc = locale if locale is not None else QLocale.system()
    return "zh_CN" if loc.language() == QLocale.Language.Chinese else "en"


def install_translators(app: QCoreApplication, lang: str | None = None) -> str:
    """Install the translators for ``lang`` (default: :func:`choose_language`) on ``app``, replacing
    any installed before. Returns the language actually in effect."""
    chosen = lang or choose_language()
    for old in getattr(app, "_pi_translators", []):
        app.removeTranslator(old)
    installed: list[QTranslator] = []
    if chosen != "en":
        ours = QTranslator(app)
        if ours.load(f"prompt_inspector_{chosen}", str(TRANSLATIONS_DIR)):
            app.installTranslator(ours)
            installed.append(ours)
        else:
            chosen = "en"
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        qtbase = QTranslator(app)
        if chosen != "en" and qtbase.load(f"qtbase_{chosen}", qt_dir):
            app.installTranslator(qtbase)
            installed.append(qtbase)
    app._pi_translators = installed  # type: ignore[attr-defined]
    from ui.views import core_texts, part_names

    part_names.clear_cache()
    core_texts.clear_cache()
    return chosen
