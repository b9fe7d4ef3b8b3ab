"""File › Open session on a record that another process is still writing: the viewer follows it."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QAbstractItemView
from test_traffic import choose_file, viewer_window, without_blocking

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind


def lines(first_seq: int, count: int) -> bytes:
    out = []
    for seq in range(first_seq, first_seq + count):
        raw = json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": f"line {seq}"}})
        entry = Entry(seq, 1000.0 + seq, float(seq), Direction.IN, "stdio", Kind.NOTIFICATION, raw.encode())
        entry.method = "notifications/message"
        out.append(jsonl.encode_entry(entry) + b"\n")
    return b"".join(out)


def test_open_session_follows_a_record_that_grows(lens, tmp_path: Path) -> None:
    path = tmp_path / "still writing.jsonl"
    path.write_bytes(jsonl.header({"tap": {"name": "host"}}) + b"\n" + lines(1, 30))
    lens.start()
    without_blocking(lens, lambda: lens.menu("File", "Open session…"))
    choose_file(lens, path)
    viewer = viewer_window(lens)
    table = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.qtbot.waitUntil(lambda: table.model().rowCount() == 30, timeout=5_000)
    with open(path, "ab") as out:
        out.write(lines(31, 20))
    lens.qtbot.waitUntil(lambda: table.model().rowCount() == 50, timeout=5_000)
    lens.qtbot.waitUntil(lambda: "50 entries" in viewer.statusBar().currentMessage(), timeout=5_000)
    # The filter works on it (typed as a person types; the filter is debounced).
    lens.type(lens.find("Traffic filter", top=viewer), "LINE 9")
    lens.qtbot.waitUntil(lambda: table.model().rowCount() == 1, timeout=5_000)  # "line 9"
    with open(path, "ab") as out:
        out.write(lines(51, 50))
    lens.qtbot.waitUntil(lambda: table.model().rowCount() == 11, timeout=5_000)  # and "line 90" … "line 99"
    viewer.close()
    assert lens.quit() == 0
