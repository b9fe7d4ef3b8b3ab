"""The per-server "Load remote icons" permission in the real window: asked with the hosts named, off by
default, remembered in the saved profile, and not asked again once given."""

from __future__ import annotations

import json
import sys

from lens_support import REPO
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from ui_support import connect

from inspector.config.profile import ServerProfile
from inspector.ui.widgets.icon_images import IconSource

ICON_SERVER = ServerProfile(name="Icons", command=sys.executable, args=[str(REPO / "tests/servers/icon_server.py")])


def test_allowing_remote_icons_is_remembered_for_a_saved_server(qtbot, window, isolated_config) -> None:
    window.servers.store.add(ICON_SERVER.clone())
    window.servers.store.save()
    saved = window.servers.store.get("Icons")
    assert saved.load_remote_icons is False
    connect(qtbot, window, saved)
    panel = window.status_panel
    qtbot.waitUntil(lambda: panel.load_remote.isVisible(), timeout=10_000)
    assert panel.remote_note.text() == "This server's icons are on the web (1 host: icons.invalid). Load them?"
    source = IconSource.of(window.session)
    assert source.remote.fetched == []

    QTest.mouseClick(panel.load_remote, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: source.remote.fetched == ["https://icons.invalid/remote.png"], timeout=10_000)
    assert not panel.load_remote.isVisible()
    written = json.loads((isolated_config / "servers.json").read_text())
    assert written["x-mcp-lens"]["servers"]["Icons"]["loadRemoteIcons"] is True

    window.session.reconnect()
    qtbot.waitUntil(lambda: window.session.state == "connected", timeout=30_000)
    qtbot.wait(300)
    assert not panel.load_remote.isVisible()  # allowed already: not asked again


PRIVATE = ServerProfile(name="Private", command=sys.executable, args=[str(REPO / "tests/servers/private_icons.py")])


def test_private_hosts_are_never_offered_and_a_refused_fetch_says_why(qtbot, window) -> None:
    """Issue 21: loopback and private hosts were offered ("11 hosts: 0.0.0.0, 0x7f000001, 10.0.0.1, …"),
    and after Load nothing was fetched from them, and nothing said why."""
    connect(qtbot, window, PRIVATE)
    panel = window.status_panel
    qtbot.waitUntil(lambda: panel.load_remote.isVisible(), timeout=10_000)
    note = panel.remote_note.text()
    assert "(1 host: icons.invalid)" in note, note
    assert "4 icons are on addresses MCP Lens never fetches from (loopback, private): not loaded" in note, note
    for host in ("127.0.0.1", "0x7f000001", "localhost", "10.0.0.1"):
        assert host not in note.split("never fetches")[0], note

    source = IconSource.of(window.session)
    QTest.mouseClick(panel.load_remote, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "1 icon not loaded: " in panel.remote_note.text(), timeout=30_000)
    assert panel.remote_note.isVisible() and not panel.load_remote.isVisible()
    assert source.remote.fetched == ["https://icons.invalid/icon4.png"]
    assert "https://icons.invalid/icon4.png" in panel.remote_note.toolTip()
