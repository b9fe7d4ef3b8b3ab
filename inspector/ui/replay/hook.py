"""What a record's read-only window (File › Open session, a tapped session's record) offers beyond the
log: **Open as mock server** (the record added to the workspace as a server that answers from it) and
**Run against…** (the regression run window). The main window calls `add_record_actions` for each
record window it opens; the record window is reached only through its `path`, `meta`, `view` and
status bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton, QWidget

from inspector.ui.replay.mock_server import open_as_mock
from inspector.ui.replay.run_window import RunAgainstWindow
from inspector.ui.widgets.plain_text import shown


def record_name(meta: dict[str, Any]) -> str | None:
    """The server's name the record's header gives (an export's, a tap's), if any."""
    tap = meta.get("tap") if isinstance(meta.get("tap"), dict) else {}
    for name in (meta.get("name"), tap.get("name")):
        if isinstance(name, str) and name.strip():
            return name
    return None


def record_server(viewer: Any) -> tuple[bool, str | None]:
    """The server of the record to replay: (True, None) for a record of one server, (True, NAME) for the
    one the log's Server filter shows, (False, None) when several are recorded and none is chosen."""
    servers = [s for s in viewer.meta.get("servers") or () if isinstance(s, str)]
    if len(servers) < 2:
        return True, None
    shown = viewer.view.shown_server()
    return (True, shown) if shown in servers else (False, None)


def add_record_actions(viewer: Any, window: Any) -> tuple[QToolButton, QToolButton]:
    """Add "Open as mock server" and "Run against…" at the end of the record window's filter bar."""
    mock = QToolButton(viewer.view)
    mock.setText("Open as mock server")
    mock.setAccessibleName("Open as mock server")
    mock.setToolTip("Add this record to the workspace as a server that answers from it (mcp-lens replay)")
    against = QToolButton(viewer.view)
    against.setText("Run against…")
    against.setAccessibleName("Run against")
    against.setToolTip("Send this record's requests to another server and compare its answers with the recorded")

    def chosen() -> tuple[bool, str | None]:
        ok, server = record_server(viewer)
        if not ok:
            viewer.statusBar().showMessage("This record holds several servers: choose one in the Server filter", 10000)
        return ok, server

    def mock_clicked() -> None:
        ok, server = chosen()
        if ok:
            entry = open_as_mock(window, viewer.path, server, server or record_name(viewer.meta))
            said = shown(f"Added {entry.name} to the servers (it answers from this record)", one_line=True)
            viewer.statusBar().showMessage(said, 10000)  # the name is the record's: one visible line

    def against_clicked() -> None:
        ok, server = chosen()
        if ok:
            show_run_window(window, viewer.path, server)

    mock.clicked.connect(mock_clicked)
    against.clicked.connect(against_clicked)
    viewer.view.filter_bar.add_trailing(mock)
    viewer.view.filter_bar.add_trailing(against)
    return mock, against


def workspace_servers(window: Any) -> dict[str, Any]:
    """Every server the sidebar lists (name → profile, as saved now: the demo, unsaved entries, every saved
    server, opened since the app started or not), then any other opened one, for a run's target."""
    panel = getattr(window, "servers", None)
    listed = {profile.name: profile for profile in panel.profiles()} if panel is not None else {}
    for name, space in getattr(window, "spaces", {}).items():
        listed.setdefault(name, space.profile)
    return listed


def stored_sign_in(window: Any, profile: Any) -> str | None:
    """The access token a workspace server's sign-in stored (what its connect sends as a bearer token); None
    without one, or when the token is bound to a DPoP key (a run has no proof to send with it)."""
    space = getattr(window, "spaces", {}).get(getattr(profile, "name", None))
    panel = getattr(space, "auth_panel", None)
    if panel is None:
        return None
    storage = panel.auth_of(profile).storage
    tokens = storage.tokens()
    binding = storage.dpop_binding()
    if tokens is None or (binding is not None and binding[0] == "dpop"):
        return None
    return tokens.access_token


def show_run_window(window: Any, record: Any, server: str | None = None) -> RunAgainstWindow:
    parent = window if isinstance(window, QWidget) else None
    signed_in = lambda profile: stored_sign_in(window, profile)  # noqa: E731
    run = RunAgainstWindow(record, server, lambda: workspace_servers(window), parent, signed_in=signed_in)
    run.setObjectName("runAgainstWindow")
    run.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    run.show()
    return run
