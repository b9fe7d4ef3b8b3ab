"""What File › Tapped sessions… does in the main window: open the list, show a record read-only (followed
while live), and add a record's server to the workspace and connect it.

The window is reached only through its public API: `servers` (the servers sidebar), `connect_profile`
and the `viewers` it closes on quit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from inspector.config.naming import command_name
from inspector.config.profile import ServerProfile
from inspector.traffic.store import TrafficStore
from inspector.ui.taps.follow import RecordFollower
from inspector.ui.taps.records import TapSession
from inspector.ui.taps.window import TappedSessionsWindow
from inspector.ui.traffic.viewer_window import ViewerWindow

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
    sessions.openRequested.connect(lambda session: open_record(window, session))
    sessions.serverRequested.connect(lambda session: open_as_server(window, session))
    sessions.show()
    return sessions


def cli_target(session: TapSession) -> list[str] | None:
    """The `mcp-lens --cli` target of "copy as command": the record's server command (the host's env
    is not in the record), from the host's working folder when it recorded one."""
    if not session.command:
        return None
    return [*(["--cwd", session.cwd] if session.cwd else []), "--", *session.command]


def open_record(window: Any, session: TapSession) -> ViewerWindow:
    """Show the session read-only in a traffic log window; a live one is followed as it grows."""
    store = TrafficStore()
    follower = RecordFollower(session, store)
    meta = dict(session.meta)
    viewer = ViewerWindow(store, session.path, meta, window if isinstance(window, QWidget) else None)
    viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    follower.setParent(viewer)
    viewer.view.set_cli_target(cli_target(session))
    viewer.setWindowTitle(f"{session.path.name} — {session.name} — MCP Lens (read-only)")
    bar = viewer.statusBar()
    follower.failed.connect(lambda text: bar.showMessage(f"Skipped a line that is not an entry: {text}", 10000))
    if session.live:
        follower.follow()
        follower.grew.connect(lambda _added: _say_live(viewer, follower))
        _say_live(viewer, follower)
    else:
        bar.showMessage(f"{len(store):,} entries from {_parts_text(session)} ({session.state})")
    if isinstance(getattr(window, "viewers", None), list):
        window.viewers.append(viewer)
        viewer.destroyed.connect(lambda *_: viewer in window.viewers and window.viewers.remove(viewer))
    viewer.show()
    return viewer


def _parts_text(session: TapSession) -> str:
    path = session.path
    return str(path) if len(session.parts) == 1 else f"{path} and {len(session.parts) - 1} earlier part(s)"


def _say_live(viewer: ViewerWindow, follower: RecordFollower) -> None:
    viewer.statusBar().showMessage(f"Live: following {Path(follower.path).name} — {len(follower.store):,} entries")


def server_profile(session: TapSession) -> ServerProfile:
    """A server profile from the record's command: named after the tap, without the host's env."""
    program, *args = session.command
    name = session.name or command_name(program, args)
    cwd = session.cwd if session.cwd and Path(session.cwd).is_dir() else None
    return ServerProfile(name=name, command=program, args=args, cwd=cwd)


def open_as_server(window: Any, session: TapSession) -> ServerProfile | None:
    """Add the record's server to the servers sidebar (an unsaved entry, like one from the command line)
    and connect it; returns the entry."""
    if not session.command:
        return None
    entry = window.servers.show_unsaved(server_profile(session))
    window.connect_profile(entry)
    return entry
