"""A record opened while it is still written (a live tap) grows in the viewer: new rows appear, the view
stays where the user scrolled unless they were at the end, and the finished record stays readable."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.record_store import RecordStore
from inspector.ui.traffic.viewer_window import ViewerWindow


def exchange(seq: int) -> list[bytes]:
    """A tools/call request (seq) and its response (seq + 1), as a streamed record writes them."""
    request = json.dumps({"jsonrpc": "2.0", "id": seq, "method": "tools/call", "params": {"name": f"t{seq}"}})
    response = json.dumps({"jsonrpc": "2.0", "id": seq, "result": {"content": [{"type": "text", "text": "ok"}]}})
    out = Entry(seq, 1000.0 + seq, float(seq), Direction.OUT, "stdio", Kind.REQUEST, request.encode())
    out.rpc_id, out.method = seq, "tools/call"
    back = Entry(seq + 1, 1000.0 + seq, seq + 0.5, Direction.IN, "stdio", Kind.RESPONSE, response.encode())
    back.rpc_id, back.method, back.peer_seq, back.latency_ms = seq, "tools/call", seq, 500.0
    return [jsonl.encode_entry(out) + b"\n", jsonl.encode_entry(back) + b"\n"]


def append(path: Path, first_seq: int, pairs: int) -> None:
    with open(path, "ab") as out:
        for n in range(pairs):
            out.writelines(exchange(first_seq + 2 * n))


def test_viewer_follows_a_growing_record(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "tap.jsonl"
    path.write_bytes(jsonl.header({"server": "everything"}) + b"\n")
    append(path, 1, 100)
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    view = window.view
    assert isinstance(window.store, RecordStore)
    qtbot.waitUntil(lambda: view.model.rowCount() == 200, timeout=3000)
    qtbot.waitUntil(lambda: "new entries appear as the record grows" in window.statusBar().currentMessage())
    bar = view.table.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() > 0, timeout=3000)

    append(path, 201, 50)  # at the end: the view follows the new rows
    qtbot.waitUntil(lambda: view.model.rowCount() == 300, timeout=3000)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=3000)
    assert "300 entries" in window.statusBar().currentMessage()

    bar.setValue(0)  # the user scrolls up to read: new rows must not move the view
    assert not view.follow
    append(path, 301, 50)
    qtbot.waitUntil(lambda: view.model.rowCount() == 400, timeout=3000)
    qtbot.wait(300)
    assert bar.value() == 0 and bar.maximum() > 0

    # Pairing works on it: the response names its request, and the request learned its response later.
    assert view.select_seq(301) and view.jump_to_pair() and view.selected_entry().seq == 302
    assert view.jump_to_pair() and view.selected_entry().seq == 301
    # Filters answer from the index, and rows appended later are filtered too.
    view.model.set_filter(TrafficFilter(kinds=frozenset({Kind.RESPONSE}), text="ok"))
    assert view.model.rowCount() == 200
    append(path, 401, 10)
    qtbot.waitUntil(lambda: view.model.rowCount() == 210, timeout=3000)

    # A partial last line (the writer is mid-message) waits for its newline.
    line = exchange(421)[0]
    with open(path, "ab") as out:
        out.write(line[:30])
    qtbot.wait(600)
    assert len(window.store) == 420
    with open(path, "ab") as out:
        out.write(line[30:])
    qtbot.waitUntil(lambda: len(window.store) == 421, timeout=3000)
    window.close()


def test_a_big_record_shows_its_first_rows_before_it_is_indexed(qtbot, tmp_path: Path, monkeypatch) -> None:
    import inspector.ui.traffic.viewer_window as viewer_window

    monkeypatch.setattr(viewer_window, "FIRST_SLICE_S", 0.0)  # the first slice stops after a few lines
    path = tmp_path / "big.jsonl"
    path.write_bytes(jsonl.header() + b"\n")
    append(path, 1, 5000)
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    assert 0 < len(window.store) < 10_000 and not window.caught_up
    assert "Reading" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.view.model.rowCount() == 10_000, timeout=10_000)
    qtbot.waitUntil(lambda: window.caught_up, timeout=3000)
    window.close()


def test_a_bad_line_later_in_a_growing_record_is_skipped_and_said(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "tap.jsonl"
    path.write_bytes(jsonl.header() + b"\n")
    append(path, 1, 2)
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    with open(path, "ab") as out:
        out.write(b"<b>garbage</b>\n")
    append(path, 5, 1)
    qtbot.waitUntil(lambda: window.view.model.rowCount() == 6, timeout=3000)
    said = "line 6 damaged: left out, kept in the file"
    qtbot.waitUntil(lambda: said in window.statusBar().currentMessage())
    window.close()


def test_a_cut_last_line_is_said(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(jsonl.header() + b"\n")
    append(path, 1, 3)
    with open(path, "ab") as out:
        out.write(b'{"msg":{"jsonrpc":"2.0","id"')  # a writer stopped mid-line
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.view.model.rowCount() == 6, timeout=5000)
    qtbot.waitUntil(lambda: "has no newline" in window.statusBar().currentMessage(), timeout=5000)
    assert "line 8" in window.statusBar().currentMessage()
    window.close()
