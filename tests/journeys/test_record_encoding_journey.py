"""A traffic record an editor re-saved as UTF-16 (with its byte-order mark), opened with Ctrl+O (File › Open
session…) in the app as launched: every entry is shown, the status line says once that the record is UTF-16
and read as such, and the file is left as it is."""

from __future__ import annotations

from pathlib import Path

from factories import request, response
from PySide6.QtWidgets import QAbstractItemView, QStatusBar
from test_traffic import choose_file, viewer_window, without_blocking

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def test_a_utf16_record_opens_whole_and_says_its_encoding(lens, tmp_path: Path) -> None:
    store = TrafficStore()
    for n in range(10):
        request(store, n, "ping")
        response(store, n)
    path = tmp_path / "wide.jsonl"
    jsonl.save(path, store)
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    wide = path.read_bytes()
    lens.start()
    without_blocking(lens, lambda: lens.key("Ctrl+O"))
    choose_file(lens, path)
    viewer = viewer_window(lens)
    log = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.qtbot.waitUntil(lambda: log.model().rowCount() == 20, timeout=30_000)
    status = viewer.findChild(QStatusBar)
    lens.qtbot.waitUntil(lambda: "this record is UTF-16 LE" in status.currentMessage(), timeout=30_000)
    text = status.currentMessage()
    assert "20 entries" in text and "read as UTF-16 LE" in text and "damaged" not in text, text
    assert path.read_bytes() == wide
    viewer.close()
    assert lens.quit() == 0
