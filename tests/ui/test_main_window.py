"""The real window against real servers: connect, traffic, filter, pairing, export/re-open, re-send."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from lens_support import HOSTILE
from PySide6.QtCore import Qt
from ui_support import DEMO_PROFILE, connect, screenshot

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.traffic.entry import Direction, Kind
from inspector.ui.main_window import MainWindow

MARKUP = '<img src="file:///etc/passwd"> <a href="https://x">x</a> <b>bold</b>'


def rows(win: MainWindow) -> list:
    model = win.traffic.model
    return [model.entry_at(row) for row in range(model.rowCount())]


def test_connect_and_see_traffic(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    methods = [e.method for e in rows(window) if e.direction is Direction.OUT]
    # The default era is auto: the demo answers server/discover, so there is no handshake (2026-07-28).
    assert methods[0] == "server/discover" and "tools/list" in methods
    if "initialize" in methods:  # a loaded machine: the demo's start outlasted the probe; the panel says so
        assert "slow start" in window.status_panel.negotiation.text(), methods
    assert window.status_panel.protocol.text() == f"modern {window.session.protocol_version}"
    assert "mcp-lens-demo" in window.status_panel.server.text()
    assert window.servers.state("Demo server") == "connected"
    qtbot.wait(300)
    response = next(e for e in rows(window) if e.method == "tools/list" and e.kind is Kind.RESPONSE)
    window.traffic.select_seq(response.seq)
    qtbot.wait(100)
    screenshot(window, "main_window.png")


def test_filter_select_and_jump_to_response(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    view = window.traffic
    view.filter_edit.setText("tools/list")
    view.apply_filter()
    shown = rows(window)
    assert shown and all(b"tools/list" in e.raw or e.method == "tools/list" for e in shown)
    request = next(e for e in shown if e.kind is Kind.REQUEST)
    assert view.select_seq(request.seq)
    assert view.jump_to_pair()
    assert view.selected_entry().seq == request.peer_seq
    assert view.selected_entry().kind is Kind.RESPONSE
    view.clear_filter()
    assert len(rows(window)) > len(shown)


def test_export_and_reopen_session(qtbot, window: MainWindow, tmp_path: Path) -> None:
    connect(qtbot, window)
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    path = tmp_path / "session.jsonl"
    window.save_session(path)
    viewer = window.open_session_file(path)
    assert viewer is not None
    qtbot.addWidget(viewer)
    original = [(e.seq, e.raw) for e in window.store]
    qtbot.waitUntil(lambda: viewer.view.model.rowCount() == len(original))
    reopened = [(viewer.view.model.entry_at(r).seq, viewer.view.model.entry_at(r).raw) for r in range(len(original))]
    assert reopened == original


def test_resend_an_edited_request(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    before = len(window.store)
    window.traffic.resendRequested.emit("tools/call", {"name": "echo", "arguments": {"message": "resent!"}})
    qtbot.waitUntil(lambda: any(b"resent!" in e.raw and e.kind is Kind.RESPONSE for e in list(window.store)[before:]))
    sent = next(e for e in list(window.store)[before:] if e.direction is Direction.OUT and e.method == "tools/call")
    assert sent.peer_seq is not None


def test_hostile_markup_stays_literal(qtbot, window: MainWindow) -> None:
    profile = ServerProfile(name="hostile", transport="stdio", command=sys.executable, args=[str(HOSTILE), "html"])
    connect(qtbot, window, profile)
    window.session.call_tool("markup<b>", {}, timeout=10, max_total=None)
    qtbot.waitUntil(lambda: window.notifications.model.rowCount() > 0, timeout=10000)
    qtbot.waitUntil(lambda: MARKUP in window.output.text.toPlainText(), timeout=10000)
    assert window.status_panel.instructions.toPlainText() == MARKUP
    assert MARKUP in window.status_panel.server.text()
    assert window.status_panel.server.textFormat() == Qt.TextFormat.PlainText
    details = window.notifications.model.rows[0][4]
    assert MARKUP in details
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    response = next(e for e in rows(window) if e.method == "tools/list" and e.kind is Kind.RESPONSE)
    window.traffic.select_seq(response.seq)
    assert '"description": "<img src=\\"file:///etc/passwd\\">' in window.traffic.detail.json_view.text()


def test_exported_session_holds_no_token(qtbot, window: MainWindow, demo_http: str, tmp_path: Path) -> None:
    token = "tok-" + os.urandom(8).hex()
    profile = ServerProfile(name="remote", transport="http", url=demo_http, bearer_token=token)
    connect(qtbot, window, profile)
    qtbot.waitUntil(lambda: any(e.method == "tools/list" and e.kind is Kind.RESPONSE for e in rows(window)))
    path = tmp_path / "session.jsonl"
    window.save_session(path)
    text = path.read_text()
    assert token not in text
    assert "Bearer <redacted>" in text
    header = json.loads(text.splitlines()[0])
    assert header["meta"]["name"] == "remote"


def test_window_state_is_remembered(qtbot, window: MainWindow) -> None:
    window.resize(795, 701)  # the offscreen screen is 800×800: restoreGeometry clamps to it
    qtbot.wait(50)
    window.main_split.setSizes([260, 535])
    sizes = window.main_split.sizes()
    size = (window.size().width(), window.size().height())
    assert size[0] == 795
    window.save_window_state()
    again = MainWindow(ProfileStore(Path(window.servers.store.path)), DEMO_PROFILE, window.settings)
    qtbot.addWidget(again)
    # Checked before show(): the offscreen platform re-lays out shown windows wider than its screen.
    assert (again.size().width(), again.size().height()) == size
    again.show()  # the splitters take their saved sizes once the window is laid out at its size
    qtbot.waitUntil(lambda: again.main_split.sizes()[0] == sizes[0], timeout=2000)  # the sidebar keeps its width
