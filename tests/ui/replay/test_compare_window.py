"""File › Compare sessions…'s window on records built with the factories: two record files, and two live
servers' logs (their traffic stores); a tool added and an answer changed; hostile text stays plain."""

from __future__ import annotations

from pathlib import Path

from factories import call_result, request, response, tool, tool_call
from PySide6.QtCore import Qt

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.replay.compare_window import CompareWindow

HOSTILE = "<img src=x>\u202eevil\u2028fake line\x85nel"  # a separator must not start a line of its own


def session(answer: str, tools: list[dict]) -> TrafficStore:
    store = TrafficStore()
    hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}, "capabilities": {}}
    request(store, 1, "initialize", hello)
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}})
    request(store, 2, "tools/list", {})
    response(store, 2, {"tools": tools})
    tool_call(store, 3, "echo", {"text": "hi"})
    response(store, 3, call_result(answer))
    return store


def stores() -> tuple[TrafficStore, TrafficStore]:
    before = session("hi", [tool("echo")])
    after = session(HOSTILE, [tool("echo"), tool("added", HOSTILE)])
    return before, after


def compared(qtbot, window: CompareWindow) -> str:
    window.compare_button.click()
    assert not window.compare_button.isEnabled()  # until both are read
    qtbot.waitUntil(
        lambda: "requests lined up" in window.summary.text() or "Cannot" in window.summary.text(), timeout=30_000
    )
    return window.summary.text()


def check(window: CompareWindow, summary: str) -> None:
    assert summary.startswith("3 requests lined up: 2 answered differently"), summary
    assert "The tool lists differ." in summary
    model = window.table.model()
    verdicts = [model.index(row, 2).data() for row in range(model.rowCount())]
    assert verdicts == ["identical", "different", "different"], verdicts
    assert window.table.currentIndex().row() == 1  # the first difference is the one shown
    lists = window.lists.toPlainText()
    assert "added" in lists and "\u202e" not in lists
    # OT8 11: the report was split at a U+2028 or U+0085 of the server's, so the page began inside an answer's lines
    assert lists.startswith("tools/list: ") and "fake line" not in lists, lists
    window.table.setCurrentIndex(model.index(2, 0))
    shown = window.sides.changes_list.item(0).text()
    assert "<img src=x>" in shown and "\u202e" not in shown and "\\u202e" in shown
    assert window.sides.marked == (1, 1)


def test_two_record_files_are_lined_up_by_request(qtbot, qloop, tmp_path: Path) -> None:
    before, after = stores()
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    jsonl.save(a, before)
    jsonl.save(b, after)
    window = CompareWindow()
    qtbot.addWidget(window)
    window.show()
    window.edits["A"].setText(str(a))
    window.edits["B"].setText(str(b))
    check(window, compared(qtbot, window))


def test_two_live_servers_logs_are_lined_up_and_leave_no_file_behind(qtbot, qloop, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    before, after = stores()
    window = CompareWindow(logs=lambda: {"one": before, "two": after})
    qtbot.addWidget(window)
    window.show()
    for side, name in (("A", "Live: one"), ("B", "Live: two")):
        combo = window.sources[side]
        combo.setCurrentIndex(combo.findText(name, Qt.MatchFlag.MatchExactly))
        assert not window.edits[side].isEnabled()
    check(window, compared(qtbot, window))
    assert list(tmp_path.iterdir()) == []


def test_a_long_comparison_formats_only_the_rows_shown(qtbot, qloop, tmp_path: Path) -> None:
    """5,000 requests a side: every pair listed, the text made only for the rows on screen."""
    paths = []
    for side, answer in (("a", "hi"), ("b", "changed")):
        store = TrafficStore()
        for n in range(1, 5001):
            tool_call(store, n, "echo", {"text": f"call {n}"})
            response(store, n, call_result(answer if n == 4000 else "same"))
        paths.append(jsonl.save(tmp_path / f"{side}.jsonl", store) and tmp_path / f"{side}.jsonl")
    window = CompareWindow()
    qtbot.addWidget(window)
    window.show()
    window.edits["A"].setText(str(paths[0]))
    window.edits["B"].setText(str(paths[1]))
    summary = compared(qtbot, window)
    assert summary.startswith("5000 requests lined up: 1 answered differently"), summary
    assert window.table.currentIndex().row() == 3999
    qtbot.wait(50)
    assert 0 < window.model.formatted < 200, window.model.formatted


def test_a_record_compared_with_itself_says_nothing_differs(qtbot, qloop, tmp_path: Path) -> None:
    """OT7 6: the same file on both sides said "The tool lists differ." (the token line was counted)."""
    a = tmp_path / "a.jsonl"
    jsonl.save(a, session("hi", [tool("echo")]))
    window = CompareWindow()
    qtbot.addWidget(window)
    window.show()
    window.edits["A"].setText(str(a))
    window.edits["B"].setText(str(a))
    summary = compared(qtbot, window)
    assert summary == "3 requests lined up: 0 answered differently, 0 made by one side only.", summary
