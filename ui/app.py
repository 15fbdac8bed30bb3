"""Start the desktop app: ``prompt-inspector [DB] [--select ID] [--view VIEW] [--screenshot OUT.png] [--size WxH]``.

``--select`` takes a request, turn or session id or the start of one, or a turn number
(:func:`inspector.ids.find_target`, as Go to… does); ``--view`` opens one view
(:data:`VIEWS`) on it. ``--screenshot`` runs headless (offscreen platform): it opens the
database, reveals the selection, opens the view, writes the window to a PNG and exits — used for
the documentation's screenshots and to look at the UI in CI.
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


# The views ``--view`` opens: the cache analysis dock, the turn stepper, the comparison of the
# selected request with the same runtime's request of the turn before, and the two editors.
VIEWS = ("cache", "turn", "compare", "order", "blocks")


def add_app_options(parser: argparse.ArgumentParser | Any) -> None:
    """The app's options (all but DB), on its own parser and in the command line's ``--help``."""
    parser.add_argument("--select", metavar="ID",
                        help="select this request, turn or session: its id or the start of one (the tables' "
                             "8 characters), or a turn number of the first session (#4), as Go to… does")
    parser.add_argument("--view", choices=VIEWS,
                        help="open this view: cache (the analysis of the selected session), turn (the "
                             "stepper on the selected turn), compare (the selected request against the same "
                             "runtime's request of the turn before), order or blocks (the editors)")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="render the window (with --view, that view) to a PNG offscreen and exit")
    parser.add_argument("--size", type=_size, metavar="WxH", help="window size, e.g. 1400x900")
    editors = parser.add_mutually_exclusive_group()
    editors.add_argument("--order-editor", nargs="?", const="", metavar="ORDER",
                         help="open the context-order editor alone (the shipped sample without ORDER)")
    editors.add_argument("--blocks-editor", nargs="?", const="", metavar="FILE",
                         help="open the prompt blocks editor alone on a TOML/YAML/JSON config or a Covel "
                              "template (the shipped sample without FILE)")
    parser.add_argument("--scenario", metavar="FILE", help="with --order-editor: the blackboard/scenario file")


def help_options(parser: argparse.ArgumentParser) -> None:
    """The app's options as a section of the command line's top-level ``--help``."""
    add_app_options(parser.add_argument_group(
        "the desktop app", "prompt-inspector [DB] [options]: with no COMMAND the app starts on DB (a covel.db or "
                           "a database URL; the built-in demo without one)"))


def build_parser() -> argparse.ArgumentParser:
    from inspector import __version__

    parser = argparse.ArgumentParser(
        prog="prompt-inspector",
        description="Browse a Covel store (covel.db). Without DB the built-in demo opens.",
    )
    parser.add_argument("db", nargs="?", help="covel.db to open")
    parser.add_argument("--version", action="version", version=f"prompt-inspector {__version__}",
                        help="print the program's version and exit")
    add_app_options(parser)
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


def _quit_when_closed(window: Any, then: Any) -> Any:
    """An event filter on ``window`` that calls ``then`` (after the event) once the window closes."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class CloseWatcher(QObject):
        def eventFilter(self, watched: Any, event: Any) -> bool:
            if watched is window and event.type() == QEvent.Type.Close:
                QTimer.singleShot(0, then)
            return False

    watcher = CloseWatcher(window)
    window.installEventFilter(watcher)
    return watcher


def open_demo(window: Any) -> None:
    """Generate (once) and open the demo database, in the background."""
    target = demo_path()
    window.statusBar().showMessage(_tr("Preparing the demo database…"))

    def failed(exc: BaseException) -> None:
        window.report_error(_tr("Cannot open the demo"), str(exc))
        window.openFinished.emit(False)

    window.tasks.run(lambda _job: ensure_demo(target), window.open_database, failed)


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

    from ui.views.request_view import attach_request_view
    from ui.windows.cache_dock import install_cache_view
    from ui.windows.main_window import MainWindow
    from ui.windows.turn_dock import install_turn_view

    from .i18n import install_translators
    from .theme import apply_theme

    app = QApplication.instance()
    owns_app = app is None
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "prompt-inspector"])
    if owns_app:
        app.setOrganizationName("prompt-inspector")
        app.setApplicationName("prompt-inspector")
        app.setApplicationDisplayName("Prompt Inspector")
    chosen = install_translators(app)
    if owns_app:
        # Messages the core writes in the language of the process (a file that cannot be opened or
        # written) follow the window's language, chosen from the system locale.
        from inspector.messages import set_language

        set_language(chosen)
    apply_theme(app)
    from .item_actions import install_item_actions

    install_item_actions(app)  # Ctrl+C and the row actions on every tree and table
    # Hosted in a running application (tests), a local loop stands in for exec() so the host's
    # application state (quit flags, quit-on-last-window) is left alone.
    loop = None if owns_app else QEventLoop()
    exit_loop = app.exit if loop is None else loop.exit
    if args.view == "order" and args.order_editor is None and args.blocks_editor is None:
        args.order_editor = ""  # --view order: the context-order editor alone, on its sample
    if args.view == "blocks" and args.order_editor is None and args.blocks_editor is None:
        args.blocks_editor = ""
    if args.order_editor is not None or args.blocks_editor is not None:
        return _run_editor(args, app, loop, debug=debug)
    from ui.windows.goto_dialog import install_go_to

    from .app_views import open_selection

    window = MainWindow(remember_layout=not args.screenshot)
    attach_request_view(window, screenshot=bool(args.screenshot))
    install_turn_view(window)
    install_cache_view(window)
    install_go_to(window)
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

        def shown(ok: bool, problem: str) -> None:
            if not ok:
                sys.stderr.write(f"prompt-inspector: {problem}\n")
                status["code"] = 1
            settle()

        def opened(ok: bool) -> None:
            if not ok:
                status["code"] = 1
                window.close()
                exit_loop(1)
                return
            open_selection(window, args.select, args.view, shown)

        def timeout() -> None:
            sys.stderr.write("prompt-inspector: timed out waiting for the database to load\n")
            window.close()
            exit_loop(1)

        window.openFinished.connect(opened)
        watchdog = QTimer(window)
        watchdog.setSingleShot(True)
        watchdog.timeout.connect(timeout)
        watchdog.start(SCREENSHOT_TIMEOUT_MS)
    elif args.select or args.view:

        def first_open(ok: bool) -> None:
            window.openFinished.disconnect(first_open)  # a store opened later keeps its own selection
            if ok:
                open_selection(window, args.select, args.view, lambda done, problem: done or window.report_error(
                    _tr("Cannot show the selection"), problem))

        window.openFinished.connect(first_open)

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
        # Qt 6 does not emit lastWindowClosed while quitOnLastWindowClosed is off: the window's
        # own close ends the hosted loop.
        closed = _quit_when_closed(window, loop.quit)
        code = loop.exec()
        window.removeEventFilter(closed)
        app.lastWindowClosed.disconnect(loop.quit)
        app.setQuitOnLastWindowClosed(quit_on_close)
    window.shutdown()
    window.deleteLater()
    if not owns_app:
        # Hosted in another QApplication (tests): leave its translators as they were.
        install_translators(app, "en")
    return status["code"] if args.screenshot else code
