"""A record window's Open as mock server in the real main window: a workspace export of two servers asks
for one in the log's Server filter, then serves that one (`mcp-lens replay RECORD --server NAME`), and the
mock connects and answers."""

from __future__ import annotations

import asyncio
from pathlib import Path

from factories import call_result, request, response, tool
from PySide6.QtWidgets import QToolButton

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.main_window import MainWindow

TWO = "two\u202e<b>"  # a server name from the record: a bidi override, a tag


def two_servers(path: Path) -> Path:
    store = TrafficStore()
    for name, answer in (("one", "from one"), (TWO, "from two")):
        hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "lens", "version": "1"}, "capabilities": {}}
        request(store, 1, "initialize", hello, source=name)
        info = {"name": name, "version": "1"}
        result = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": info}
        response(store, 1, result, source=name)
        request(store, 2, "tools/list", source=name)
        response(store, 2, {"tools": [tool("echo")]}, source=name)
        request(store, 3, "tools/call", {"name": "echo", "arguments": {"text": "hi"}}, source=name)
        response(store, 3, call_result(answer), source=name)
    jsonl.save(path, store, {"servers": ["one", TWO]})
    return path


def test_a_two_server_export_asks_for_a_server_then_serves_it(qtbot, window: MainWindow, tmp_path: Path) -> None:
    record = two_servers(tmp_path / "workspace.jsonl")
    viewer = window.open_session_file(record)
    assert viewer is not None
    mock = next(b for b in viewer.findChildren(QToolButton) if b.accessibleName() == "Open as mock server")
    mock.click()
    assert "choose one in the Server filter" in viewer.statusBar().currentMessage()
    assert window.servers.unsaved is None
    combo = viewer.view.filter_bar.server_combo
    combo.setCurrentIndex(combo.findData(TWO))
    mock.click()
    entry = window.servers.unsaved
    assert entry is not None and entry.name == f"{TWO} (mock)"
    assert entry.args[-4:] == ["replay", str(record), "--server", TWO]  # an argument: no shell reads it
    said = viewer.statusBar().currentMessage()
    assert "\u202e" not in said and "\\u202e" in said, said
    qtbot.waitUntil(lambda: window.servers.state(entry.name) == "connected", timeout=60_000)
    viewer.close()
    done = asyncio.ensure_future(window.shutdown())
    qtbot.waitUntil(done.done, timeout=30_000)


def test_two_mocks_are_two_servers_in_the_list(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Each Open as mock server adds a server like any other: the first mock stays listed (and reachable to
    Disconnect) when a second one is opened (OT7 9: the second replaced it while its process ran on)."""
    record = two_servers(tmp_path / "workspace.jsonl")
    first = window.open_as_mock(record, "one", "one")
    second = window.open_as_mock(record, TWO, TWO)
    assert first.name in window.servers.names() and second.name in window.servers.names()
    for entry in (first, second):
        qtbot.waitUntil(lambda e=entry: window.servers.state(e.name) == "connected", timeout=60_000)
    again = window.open_as_mock(record, "one", "one")  # the same record and server again: the same entry
    assert again.name == first.name and window.servers.names().count(first.name) == 1
    done = asyncio.ensure_future(window.shutdown())
    qtbot.waitUntil(done.done, timeout=30_000)
