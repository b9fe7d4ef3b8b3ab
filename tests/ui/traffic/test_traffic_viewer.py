"""Export a live log to JSONL and re-open it read-only in a ViewerWindow: the same rows come back."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from factories import call_result, request, response
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.view import TrafficView
from inspector.ui.traffic.viewer_window import ViewerWindow

OUT, IN = Direction.OUT, Direction.IN


def rows(view: TrafficView) -> list[list[str]]:
    model = view.model
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_export_then_open_shows_the_same_rows(qtbot, tmp_path: Path) -> None:
    store = TrafficStore()
    view = TrafficView(store)
    qtbot.addWidget(view)
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"started pid 1: server")
    request(store, 1, "tools/call", {"name": "a"})
    store.record(IN, "stdio", Kind.STDERR, b"log \xff line")
    response(store, 1, call_result(is_error=True))
    store.record_message(IN, "stdio", b"{not json")
    http = {"method": "POST", "url": "http://h/mcp", "headers": [["authorization", "Bearer <redacted>"]]}
    store.record_message(OUT, "http", b'{\n "jsonrpc": "2.0", "id": 2, "method": "ping"\n}', http=http)
    path = tmp_path / "session.jsonl"
    assert view.export_jsonl(path) == 6

    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    assert window.windowTitle() == "session.jsonl — MCP Lens (read-only)"
    assert rows(window.view) == rows(view)
    assert [e.raw for e in window.store] == [e.raw for e in store]
    viewer = window.view
    assert viewer.read_only and not viewer.clear_action.isEnabled()
    viewer.select_seq(2)
    assert not viewer.resend_action.isEnabled() and viewer.resend_selected() is None
    viewer.clear_log()
    assert len(window.store) == 6, "a saved session cannot be cleared"
    assert viewer.jump_to_pair() and viewer.selected_entry().seq == 4


def test_a_bad_entry_line_opens_and_is_said(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(json.dumps({"format": "mcp-lens-traffic", "version": 1}).encode() + b"\n<b>not json</b>\n")
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    assert len(window.store) == 0 and "line 2 damaged" in window.statusBar().currentMessage()
    window.close()


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"format": "something-else"}\n', "not an MCP Lens traffic record"),
        (b"<b>not json</b>\n", "first line"),
    ],
)
def test_bad_file_shows_the_reason_as_plain_text(qtbot, tmp_path: Path, content, expected) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)

    def boxes() -> list[QMessageBox]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]

    owner = QWidget()
    qtbot.addWidget(owner)
    owner.show()
    assert ViewerWindow.open(path, owner) is None, "returns at once: the reason shows in a box that does not block"
    (box,) = boxes()
    assert expected in box.text() and box.textFormat() == Qt.TextFormat.PlainText
    box.close()
    qtbot.waitUntil(lambda: not boxes(), timeout=2000)
    assert ViewerWindow.open(tmp_path / "missing.jsonl", owner) is None
    (box,) = boxes()
    assert "missing.jsonl" in box.text()
    box.close()


def test_suggested_export_name_is_file_safe() -> None:
    from inspector.ui.widgets.session_files import suggested_name

    when = time.mktime((2026, 11, 24, 9, 5, 7, 0, 0, -1))
    assert suggested_name("Demo server", when) == "Demo-server-20261124-090507.jsonl"
    assert suggested_name("../../etc/<passwd>", when) == "etc-passwd-20261124-090507.jsonl"
    assert suggested_name(None, when) == "session-20261124-090507.jsonl"
