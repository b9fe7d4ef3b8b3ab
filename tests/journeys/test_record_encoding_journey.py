"""A UTF-16 traffic record opened with Ctrl+O (File › Open session…), in the app as launched: a message
names the encoding and what to do, instead of a viewer of "damaged lines" that waits for the record to grow."""

from __future__ import annotations

from pathlib import Path

from factories import request, response
from PySide6.QtWidgets import QMessageBox
from test_traffic import choose_file, without_blocking

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def test_a_utf16_record_is_named_as_such(lens, tmp_path: Path) -> None:
    store = TrafficStore()
    for n in range(10):
        request(store, n, "ping")
        response(store, n)
    path = tmp_path / "wide.jsonl"
    jsonl.save(path, store)
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    lens.start()
    without_blocking(lens, lambda: lens.key("Ctrl+O"))
    choose_file(lens, path)

    def said() -> list[QMessageBox]:
        return [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]

    lens.wait(lambda: said(), what="a message about the file")
    text = said()[0].text()
    assert "this record is UTF-16 LE; records are UTF-8: re-save it as UTF-8" in text, text
    assert not [w for w in lens.qapp.topLevelWidgets() if w.isVisible() and "(read-only)" in w.windowTitle()]
    said()[0].accept()
    assert lens.quit() == 0
