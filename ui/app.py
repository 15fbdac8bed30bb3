"""Start the desktop app: ``prompt-inspector [DB] [--screenshot OUT.png] [--select EVENT_ID] [--size WxH]``.

``--screenshot`` runs headless (offscreen platform): it opens the database, reveals the selected
request, writes the window to a PNG and exits — used for documentation and to look at the UI in CI.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspector.error_boundary import DEBUG_FLAG

NO_DISPLAY_MESSAGE = (
    "prompt-inspector: no display available (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
    "Set QT_QPA_PLATFORM=offscreen for screenshots, or use the command line: prompt-inspector --help\n"
)
SCREENSHOT_TIMEOUT_MS = 120_000


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = text.lower().split("x", 1)
        width, height = int(w), int(h)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if width < 200 or height < 150:
        raise argparse.ArgumentTypeError(f"window size {text} is too small")
    return width, height


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prompt-inspector",
        description="Browse a Covel store (covel.db). Without DB the built-in demo opens.",
    )
    parser.add_argument("db", nargs="?", help="covel.db to open")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window to a PNG and exit")
    parser.add_argument("--select", metavar="EVENT_ID", help="select this model request (llm.calling id)")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window size, e.g. 1400x900")
    editors = parser.add_mutually_exclusive_group()
    editors.add_argument("--order-editor", nargs="?", const="", metavar="ORDER",
                         help="open the context-order editor alone (the shipped sample without ORDER)")
    editors.add_argument("--blocks-editor", nargs="?", const="", metavar="FILE",
                         help="open the prompt blocks editor alone on a TOML/YAML/JSON config or a Covel "
                              "template (the shipped sample without FILE)")
    parser.add_argument("--scenario", metavar="FILE", help="with --order-editor: the blackboard/scenario file")
    parser.add_argument(DEBUG_FLAG, action="store_true",
                        help="print the traceback of an unexpected error as well as its message")
    return parser


def display_available(env: dict[str, str] | None = None, platform: str | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    platform = sys.platform if platform is None else platform
    if env.get("QT_QPA_PLATFORM"):
        return True
    if platform.startswith("linux") or "bsd" in platform:
        return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
    return True


def demo_path() -> Path:
    """Where the built-in demo database lives: the user cache dir, ``prompt-inspector/demo.db``."""
    from PySide6.QtCore import QStandardPaths

    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericCacheLocation)
    return Path(base) / "prompt-inspector" / "demo.db"


def ensure_demo(path: Path) -> Path:
    """Generate the demo database at ``path`` unless this release's edition of it is already
    there (an older release's copy is replaced). Runs off the GUI thread."""
    try:
        from inspector.demo import DEMO_FORMAT, demo_format

        if path.is_file() and demo_format(path) == DEMO_FORMAT:
            return path
        # The generator (and what it writes with) is loaded only to write the demo.
        from inspector.demo import generate_demo
    except ImportError as exc:
        raise RuntimeError(f"the built-in demo is not available in this installation ({exc})") from None
    path.parent.mkdir(parents=True, exist_ok=True)
    generate_demo(path, overwrite=True)
    return path


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("App", text)


def open_demo(window: Any) -> None:
    """Generate (once) and open the demo database, in the background."""
    target = demo_path()
    window.statusBar().showMessage(_tr("Preparing the demo database…"))

    def failed(exc: BaseException) -> None:
        window.report_error(_tr("Cannot open the demo"), str(exc))
        window.openFinished.emit(False)

    window.tasks.run(lambda _job: ensure_demo(target), window.open_database, failed)


def start_worker_for_big_sessions(window: Any) -> None:
    """Start the cache analysis's worker process (:mod:`inspector.cache.worker`) once the window
    lists a session big enough to profit from it, as the ``cache`` command does: when a store
    opens with one, or when following makes one that big. It loads in the background (about a
    second, and the memory of a second process); a small store never starts it."""
    from inspector.cache.worker import WORKER_MIN_REQUESTS, start_worker, worker_enabled

    if not worker_enabled():
        return

    def check(_changed: Any = None) -> None:
        sessions = window.navigator.model.root.children
        if any((node.record.llm_calls or 0) >= WORKER_MIN_REQUESTS for node in sessions if node.record):
            start_worker()
            window.storeOpened.disconnect(check)
            window.follow.updated.disconnect(check)

    window.storeOpened.connect(check)
    window.follow.updated.connect(check)


def _run_editor(args: argparse.Namespace, app: Any, loop: Any, *, debug: bool = False) -> int:
    """``--order-editor`` / ``--blocks-editor``: that editor alone, no database."""
    from PySide6.QtCore import QTimer

    status = {"code": 0}

    def report(title: str, text: str) -> None:
        sys.stderr.write(f"prompt-inspector: {title}: {text}\n")
        status["code"] = 1

    # Headless, a problem goes to stderr and the exit status; on screen, to the editor's dialog.
    reporter = report if args.screenshot else None
    if args.order_editor is not None:
        from .order_editor import open_order_editor

        editor = open_order_editor(None, args.order_editor or None, args.scenario, report_error=reporter)
    else:
        from .zones_editor import open_zones_editor

        editor = open_zones_editor(None, args.blocks_editor or None, report_error=reporter)
    if args.size:
        editor.resize(*args.size)
    if args.screenshot:

        def finish() -> None:
            settle = getattr(editor, "settle", None)
            if callable(settle):
                settle()
            app.processEvents()
            from .snapshot import write_screenshot

            status["code"] = write_screenshot(editor, args.screenshot, [
                args.order_editor, args.scenario, args.blocks_editor], status["code"])
            editor.close()
            (app.exit if loop is None else loop.exit)(status["code"])

        QTimer.singleShot(300, finish)
    if loop is None:
        from .error_hook import error_hook

        with error_hook(lambda title, text: editor.report_error(title, text), debug=debug):
            code = app.exec()
    else:
        from .i18n import install_translators

        loop_quit = loop.quit
        quit_on_close = app.quitOnLastWindowClosed()
        app.setQuitOnLastWindowClosed(False)
        app.lastWindowClosed.connect(loop_quit)
        code = loop.exec()
        app.lastWindowClosed.disconnect(loop_quit)
        app.setQuitOnLastWindowClosed(quit_on_close)
        install_translators(app, "en")  # hosted (tests): leave the host's language as it was
    return status["code"] if args.screenshot else code


def run_app(argv: Sequence[str], *, debug: bool = False) -> int:
    args = build_parser().parse_args(list(argv))
    debug = debug or args.debug
    if args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    elif not display_available():
        sys.stderr.write(NO_DISPLAY_MESSAGE)
        return 2

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from ui.windows.cache_dock import install_cache_view
    from .i18n import install_translators
    from ui.windows.main_window import MainWindow
    from ui.views.request_view import attach_request_view
    from .theme import apply_theme
    from ui.windows.turn_dock import install_turn_view

    app = QApplication.instance()
    owns_app = app is None
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "prompt-inspector"])
    if owns_app:
        app.setOrganizationName("prompt-inspector")
        app.setApplicationName("prompt-inspector")
        app.setApplicationDisplayName("Prompt Inspector")
    install_translators(app)
    apply_theme(app)
    # Hosted in a running application (tests), a local loop stands in for exec() so the host's
    # application state (quit flags, quit-on-last-window) is left alone.
    loop = None if owns_app else QEventLoop()
    exit_loop = app.exit if loop is None else loop.exit
    if args.order_editor is not None or args.blocks_editor is not None:
        return _run_editor(args, app, loop, debug=debug)
    window = MainWindow(remember_layout=not args.screenshot)
    attach_request_view(window, screenshot=bool(args.screenshot))
    install_turn_view(window)
    install_cache_view(window)
    if owns_app and not args.screenshot:
        start_worker_for_big_sessions(window)
    if args.size:
        window.resize(*args.size)
    elif owns_app and window.settings.geometry("geometry") is None:
        window.resize(1400, 900)
    status = {"code": 0}

    if args.screenshot:
        out = Path(args.screenshot)

        def report(title: str, text: str) -> None:
            sys.stderr.write(f"prompt-inspector: {title}: {text}\n")
            status["code"] = 1

        window.report_error = report

        def finish() -> None:
            QApplication.processEvents()
            from .snapshot import write_screenshot

            status["code"] = write_screenshot(window, out, [args.db, window.path], status["code"])
            window.close()
            exit_loop(status["code"])

        def settle() -> None:
            # Let the overview relayout and pending paints land before grabbing.
            QTimer.singleShot(150, finish)

        def opened(ok: bool) -> None:
            if not ok:
                status["code"] = 1
                window.close()
                exit_loop(1)
                return
            if args.select:
                window.navigator.revealFinished.connect(
                    lambda complete: (status.__setitem__("code", 0 if complete else 1), settle()))
                window.navigator.select_request(args.select)
            else:
                settle()

        def timeout() -> None:
            sys.stderr.write("prompt-inspector: timed out waiting for the database to load\n")
            window.close()
            exit_loop(1)

        window.openFinished.connect(opened)
        watchdog = QTimer(window)
        watchdog.setSingleShot(True)
        watchdog.timeout.connect(timeout)
        watchdog.start(SCREENSHOT_TIMEOUT_MS)

    window.show()
    if args.db:
        window.open_database(args.db)
    else:
        open_demo(window)
    if loop is None:
        from .error_hook import error_hook

        with error_hook(lambda title, text: window.report_error(title, text), debug=debug):
            code = app.exec()
    else:
        quit_on_close = app.quitOnLastWindowClosed()
        app.setQuitOnLastWindowClosed(False)
        app.lastWindowClosed.connect(loop.quit)
        code = loop.exec()
        app.lastWindowClosed.disconnect(loop.quit)
        app.setQuitOnLastWindowClosed(quit_on_close)
    window.shutdown()
    window.deleteLater()
    if not owns_app:
        # Hosted in another QApplication (tests): leave its translators as they were.
        install_translators(app, "en")
    return status["code"] if args.screenshot else code
