"""What File › Tapped sessions… does in the main window: open the list, show a record read-only (followed
while live), and add a record's server to the workspace and connect it.

The window is reached only through its public API: `servers` (the servers sidebar), `connect_profile`
and the `viewers` it closes on quit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QWidget

from inspector.config.naming import command_name
from inspector.config.profile import ServerProfile
from inspector.ui.taps.export import add_export
from inspector.ui.taps.records import TapSession
from inspector.ui.taps.rotation import RotationWatcher
from inspector.ui.taps.window import TappedSessionsWindow
from inspector.ui.traffic.viewer_window import ViewerWindow
from inspector.ui.widgets.plain_text import window_title

_WINDOW = "tapped_sessions_window"  # the one list window of a main window, kept as a Qt child


def show_tapped_sessions(window: Any) -> TappedSessionsWindow:
    """Open (or raise) the Tapped sessions window of `window` (the main window)."""
    existing = window.findChild(TappedSessionsWindow, _WINDOW)
    if existing is not None:
        existing.show()
        existing.raise_()
        existing.activateWindow()
        return existing
    sessions = TappedSessionsWindow(parent=window)
    sessions.setObjectName(_WINDOW)
    sessions.openRequested.connect(lambda session, part: open_record(window, session, part))
    sessions.serverRequested.connect(lambda session: open_as_server(window, session))
    if hasattr(window, "open_as_mock"):  # the main window's: the record served by `mcp-lens replay`
        sessions.mockRequested.connect(lambda session: window.open_as_mock(session.path, None, session.name))
    sessions.show()
    return sessions


def cli_target(session: TapSession) -> list[str] | None:
    """The `mcp-lens --cli` target of "copy as command": the record's server command (the host's env
    is not in the record), from the host's working folder when it recorded one."""
    if not session.command:
        return None
    return [*(["--cwd", session.cwd] if session.cwd else []), "--", *session.command]


def open_record(window: Any, session: TapSession, path: Path | None = None) -> ViewerWindow | None:
    """Show the session's newest part (or `path`, one of its parts) read-only in a traffic log window,
    which follows it as it grows; when the tap rotates it, the next part opens in turn."""
    path = path or session.path
    viewer = ViewerWindow.open(path, window if isinstance(window, QWidget) else None)
    if viewer is None:
        return None
    viewer.view.set_cli_target(cli_target(session))
    if isinstance(settings := getattr(window, "settings", None), QSettings):
        add_export(viewer, session, settings)
    if callable(opened := getattr(window, "record_opened", None)):
        opened(viewer)  # the main window's record actions: Open as mock server, Run against…
    part = f" (part {session.parts.index(path) + 1} of {len(session.parts)})" if len(session.parts) > 1 else ""
    viewer.setWindowTitle(window_title(f"{path.name} — {session.name}{part} — MCP Lens (read-only)"))
    if isinstance(getattr(window, "viewers", None), list):
        viewers = window.viewers
        viewers.append(viewer)
        viewer.destroyed.connect(lambda *_: viewer in viewers and viewers.remove(viewer))
    if session.live and path == session.path:
        rotation = RotationWatcher(path, viewer)
        rotation.continued.connect(lambda newer: _continued(window, viewer, session, newer))
    return viewer


def _continued(window: Any, viewer: ViewerWindow, session: TapSession, newer: Path) -> None:
    """The tap went on in a new part: say so in this window and open the new part in its own."""
    viewer.statusBar().showMessage(f"The tap continued this session in {newer.name} (opened in a new window)")
    later = dataclasses.replace(session, parts=(*session.parts, newer))
    open_record(window, later)


def server_profile(session: TapSession) -> ServerProfile:
    """A server profile from the record's command: named after the tap, without the host's env."""
    program, *args = session.command
    name = session.name or command_name(program, args)
    cwd = session.cwd if session.cwd and Path(session.cwd).is_dir() else None
    return ServerProfile(name=name, command=program, args=args, cwd=cwd)


def open_as_server(window: Any, session: TapSession) -> ServerProfile | None:
    """Add the record's server to the servers sidebar (an unsaved entry, like one from the command line)
    and connect it (a live one is only shown); returns the entry."""
    if not session.command:
        return None
    entry = window.servers.show_unsaved(server_profile(session))
    if window.servers.state(entry.name) in ("connected", "connecting"):
        window.servers.select(entry.name)  # opened before and still live: show it, do not reconnect
        return entry
    window.connect_profile(entry)
    return entry
