"""Composition root: the QApplication, the qasync loop, the main window and the first connection.

``mcp-lens`` opens connected to the embedded demo server (or to the last server used);
``mcp-lens --config FILE --server NAME``, ``mcp-lens <command…>`` and ``mcp-lens <URL>`` open on that
server, listed as an unsaved entry the user can save.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.cli.commands import help_epilog
from inspector.config.eras import ERAS, KNOWN_VERSIONS
from inspector.config.files import open_private_append
from inspector.config.profile import ServerProfile
from inspector.demo.launch import demo_profile
from inspector.transports.kinds import URL_KINDS

ORGANIZATION = "mcp-lens"
APPLICATION = "MCP Lens"


@dataclass
class AppArgs:
    config: str | None = None
    server: str | None = None
    command: list[str] = field(default_factory=list)
    transport: str | None = None
    protocol_era: str | None = None  # --protocol-version or --protocol-era, for the server given here
    self_test: bool = False
    self_test_timeout: float = 60.0


def parse_args(argv: list[str]) -> AppArgs:
    parser = argparse.ArgumentParser(
        prog="mcp-lens",
        description="Inspect and debug MCP servers. With no arguments, opens on the embedded demo server.",
        epilog=help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", metavar="FILE", help="an mcp.json-style file to open a server from")
    parser.add_argument("--server", metavar="NAME", help="the server's name in --config")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="start offscreen, connect to the demo server, call tools, render the results, exit 0 or 1",
    )
    parser.add_argument("--self-test-timeout", type=float, default=60.0, metavar="SECONDS", help=argparse.SUPPRESS)
    parser.add_argument("--transport", choices=URL_KINDS, help="for a URL: Streamable HTTP (the default) or legacy SSE")
    parser.add_argument(
        "--protocol-era",
        choices=ERAS,
        help="for the server given here: auto (the default: probe server/discover, else initialize), "
        "legacy (initialize) or modern (2026-07-28)",
    )
    parser.add_argument(
        "--protocol-version",
        choices=KNOWN_VERSIONS,
        metavar="VERSION",
        help=f"for the server given here: pin one protocol version ({', '.join(KNOWN_VERSIONS)})",
    )
    parser.add_argument(
        "command", nargs=argparse.REMAINDER, help="a stdio server command, or a server's http(s):// URL, to open"
    )
    ns = parser.parse_args(argv)
    command = ns.command[1:] if ns.command[:1] == ["--"] else ns.command
    if (ns.protocol_era or ns.protocol_version) and not (command or ns.config):
        parser.error("--protocol-era and --protocol-version apply to a server given on the command line")
    return AppArgs(
        config=ns.config,
        server=ns.server,
        command=command,
        transport=ns.transport,
        protocol_era=ns.protocol_version or ns.protocol_era,
        self_test=ns.self_test,
        self_test_timeout=ns.self_test_timeout,
    )


def command_line_profile(command: list[str], transport: str | None = None) -> ServerProfile:
    """The server `mcp-lens CMD…` or `mcp-lens URL` names, as the CLI reads its target (a URL is HTTP/SSE)."""
    from inspector.config.naming import command_name, url_name

    if command[0].startswith(("http://", "https://")):
        if len(command) > 1:
            raise ValueError(f"a server URL takes no further words: {' '.join(command[1:])!r}")
        url = command[0]
        return ServerProfile(name=url_name(url), transport=transport or "http", url=url)  # type: ignore[arg-type]
    if transport:
        raise ValueError("--transport applies to a server URL, not to a command")
    return ServerProfile(name=command_name(command[0], command[1:]), command=command[0], args=command[1:])


def initial_profile(
    args: AppArgs,
    profiles: object,
    last: str | None,
    demo: ServerProfile | None = None,
    notes: list[str] | None = None,
) -> ServerProfile:
    """What to connect to first: the command line, else the last server used, else the demo (`demo`, the
    server list's own entry, when given). `notes` gets what a damaged `--config` file lost."""
    if args.config:
        from inspector.config.formats import choose_server

        return _with_era(choose_server(args.config, args.server, notes), args.protocol_era)
    if args.command:
        return _with_era(command_line_profile(args.command, args.transport), args.protocol_era)
    names = getattr(profiles, "names", lambda: [])()
    if last and last in names:
        return profiles.get(last)  # type: ignore[attr-defined]
    return demo if demo is not None else demo_profile()


def _with_era(profile: ServerProfile, era: str | None) -> ServerProfile:
    """The profile with the era the command line asked for (its own setting when none was asked)."""
    return profile if era is None else profile.clone(protocol_era=era, learned_era=None)


def main(argv: list[str] | None = None) -> int:
    from inspector.platform.allocator import one_malloc_arena

    one_malloc_arena()  # before any thread: what one worker frees, the next can use (issue 21)
    freeze_start_up_heap()
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.self_test:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from inspector.display import NO_DISPLAY_EXIT, missing_display

    if (advice := missing_display(os.environ)) is not None:  # before Qt: it would abort with a plugin list
        sys.stderr.write(advice + "\n")
        return NO_DISPLAY_EXIT
    from inspector import startup
    from inspector.core import prestart

    try:
        if not args.self_test:
            start_first_server(args)  # its start-up overlaps Qt's and the window's
            startup.mark("server-started")
        return _run_app(args)
    finally:
        prestart.drop()  # never claimed (the first connect went elsewhere): not left running


def _run_app(args: AppArgs) -> int:
    from inspector.ui.pyside_features import skip_feature_scan

    skip_feature_scan()  # first: every module imported after PySide6 was read from disk for its __feature__ scan
    from inspector.ui.qt_noise import quiet_start

    quiet = quiet_start()  # before the QApplication: Qt reads the logging rules once
    from inspector.ui.apps.engine import prepare_webengine

    prepare_webengine()  # MCP Apps: WebEngine (optional, ImportError handled) is set up before the QApplication
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    configure_app(app)
    import qasync

    from inspector import startup

    startup.mark("qt-ready")

    from inspector.ui.webengine_exit import hearing_quit_once  # WebEngine, once used, crashes a second quit

    try:
        if args.self_test:
            from inspector.ui.self_test import run_self_test

            return qasync.run(hearing_quit_once(app, run_self_test(app, timeout=args.self_test_timeout)))
        return qasync.run(hearing_quit_once(app, run(app, args)))
    finally:
        if quiet is not None:
            quiet.uninstall()


def start_first_server(args: AppArgs) -> None:
    """Start the server the window will connect to first, now, when it is a stdio one: the same choice
    `run()` makes (`initial_profile`, from the same settings and servers file), before Qt's widgets load,
    so the server's start-up overlaps the app's. The connect adopts the process (`core/prestart.py`).
    Nothing starts when the choice cannot be made here: a damaged servers file, `${…}` references."""
    from PySide6.QtCore import QSettings

    from inspector.config.references import has_references
    from inspector.config.store import ProfileStore
    from inspector.core import prestart
    from inspector.transports.process import StdioCommand

    try:
        profiles = ProfileStore()
        profiles.load()
        last = QSettings(ORGANIZATION, "mcp-lens").value("session/lastServer")
        profile = initial_profile(args, profiles, last if isinstance(last, str) else None)
    except Exception:  # the window says what is wrong with the file or the command line, as it always has
        return
    if profile.transport == "stdio" and profile.command and not has_references(profile):
        prestart.offer(StdioCommand.from_profile(profile))


def configure_app(app: Any) -> None:
    """Names, desktop file and quit policy of the QApplication `run()` drives (journey tests call it too)."""
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setDesktopFileName("mcp-lens")
    # `run()` ends the app itself once the server is shut down; Qt quitting first would stop the
    # loop under it ("Event loop stopped before Future completed").
    app.setQuitOnLastWindowClosed(False)


def install_startup_markers(window: Any) -> None:
    """With MCP_LENS_STARTUP_MARKERS=1, print `window-exposed <s>` the first time (`connected <s>`: below)."""
    from inspector import startup

    if not startup.enabled():
        return
    from PySide6.QtCore import QEvent, QObject

    class ExposeWatcher(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Expose and obj.isExposed():  # type: ignore[attr-defined]
                startup.mark("window-exposed")
                obj.removeEventFilter(self)
            return False

    handle = window.windowHandle()
    if handle is not None and handle.isExposed():
        startup.mark("window-exposed")
    elif handle is not None:
        window._expose_watcher = ExposeWatcher(window)
        handle.installEventFilter(window._expose_watcher)


def mark_first_connect(session: Any) -> None:
    """With MCP_LENS_STARTUP_MARKERS=1, print `connected <s>` when `session` (the first server's) connects."""
    from inspector import startup

    if not startup.enabled():
        return

    def on_state(state: str, _detail: str) -> None:
        if state == "connected":
            startup.mark("connected")
            session.stateChanged.disconnect(on_state)

    session.stateChanged.connect(on_state)


# How long a worker thread running Python may keep the GIL while the window's thread waits for it. Every call
# from Qt into Python (a model's data(), an event handler, a timer) takes the GIL; behind a busy worker (a
# tokenizer built, a long list checked, a module imported) each waited up to CPython's default 5 ms, and a
# repaint that calls into Python a few dozen times froze the window for 100-300 ms (the 5,000-tool connect).
UI_SWITCH_INTERVAL = 0.0005
# Whether `run` freezes the heap the start-up built once the window shows (`freeze_start_up_heap`): set by
# `main`, the app's own process. Not where tests open and close windows in one process: a frozen object is
# never collected, so their windows' reference cycles would outlive them.
_freeze_heap = False


def freeze_start_up_heap() -> None:
    """Ask `run` to move what start-up built (modules, the SDK's models, the window) out of the garbage
    collector's reach once the window shows: a full collection walked all of it (~60-80 ms on the window's
    thread) at the first connect, whatever the server's size (gc.freeze)."""
    global _freeze_heap
    _freeze_heap = True


async def run(app: object, args: AppArgs) -> int:
    from PySide6.QtCore import QSettings, QTimer

    sys.setswitchinterval(UI_SWITCH_INTERVAL)

    from inspector import startup
    from inspector.config.profile import ProfileError
    from inspector.config.store import ProfileStore
    from inspector.core import prestart
    from inspector.ui.main_window import MainWindow
    from inspector.ui.widgets.app_icon import set_app_icon

    startup.mark("window-imported")

    from inspector.config.settings_check import repair_settings

    # before Qt reads it: a settings file that is not UTF-8 is kept aside and made UTF-8 (said in the status bar)
    repaired = repair_settings(QSettings(ORGANIZATION, "mcp-lens").fileName())
    settings = QSettings(ORGANIZATION, "mcp-lens")
    user_only_settings(settings.fileName())
    # Qt's file dialogs (every QFileDialog, static or not) remember the folders visited in QtProject.conf
    user_only_settings(QSettings(QSettings.Scope.UserScope, "QtProject").fileName())
    profiles = ProfileStore()
    window = MainWindow(profiles, demo_profile(), settings)
    startup.mark("window-built")
    set_app_icon(app)
    window.show()
    startup.mark("window-shown")
    window.servers.load()  # the saved servers; a damaged file is explained (and offered for backup) in the window
    if repaired:
        window.statusBar().showMessage(repaired, 60_000)
    install_startup_markers(window)
    if _freeze_heap:
        gc.freeze()
    notes: list[str] = []
    try:
        profile = initial_profile(args, profiles, settings.value("session/lastServer"), window.servers.demo, notes)
        if args.config or args.command:  # listed as the current server, unsaved until the user saves it
            profile = window.servers.show_unsaved(profile)
    except (ProfileError, ValueError, OSError) as exc:
        window.servers.io.error("Cannot Open That Server", str(exc))  # does not block the loop
        profile = window.servers.demo
    if notes:  # a damaged --config file, read for what is intact
        lines = "\n".join(f"• {note}" for note in notes[:10])
        window.servers.io.error("Config File Was Damaged", f"MCP Lens read what is intact in {args.config}:\n{lines}")
    reopen_servers(window, profile)
    mark_first_connect(window.session)  # the first server's session: the one shown
    loop = asyncio.get_running_loop()
    loop.call_soon(prestart.drop)  # after the first connect's start: it has claimed its server, if it was it
    # Ctrl+C or a kill closes the window cleanly. Python runs signal handlers only when it gets
    # control from Qt's C++ loop, so a quarter-second timer gives it that chance while idle.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: loop.call_soon_threadsafe(window.close_without_asking))
    wake = QTimer(window)
    wake.timeout.connect(lambda: None)
    wake.start(250)
    closed = loop.create_future()
    window.closed.connect(lambda: closed.done() or closed.set_result(None))
    await closed
    await window.shutdown()
    return 0


def user_only_settings(file_name: str) -> None:
    """Make the settings file user-only (0600) before Qt writes it: Qt keeps a file's mode when it saves
    it again. Only a file path (POSIX); a missing folder is created 0700, an existing one left alone."""
    path = Path(file_name)
    if os.name != "posix" or not path.is_absolute():
        return
    with contextlib.suppress(OSError):  # settings that cannot be made private still work
        if path.exists():
            os.chmod(path, 0o600)
        else:
            os.close(open_private_append(path))


def reopen_servers(window: Any, first: Any) -> None:
    """Connect `first`; with "reopen connected servers at start" on, also the servers connected at the last
    quit (saved ones that still exist), `first` shown."""
    from inspector.ui.workspace.reopen import servers_to_reopen

    profiles = {p.name: p for p in window.servers.profiles()}
    for name in servers_to_reopen(window.settings):
        if name in profiles and name != first.name:
            window.connect_profile(profiles[name])
    window.connect_profile(first)
