"""A huge text result: the view shows the beginning as it came, plain, and keeps the whole text for Copy
and Save; the rest is appended on demand, a slice at a time (issue 21: a 30–50 MB result stalled the
window 1.6–2.8 s; the JSON was re-formatted in Python and 2 MB of it laid out at once)."""

from __future__ import annotations

import json

from factories import call_result
from PySide6.QtGui import QGuiApplication

from inspector.ui.results.result_view import ResultView
from inspector.ui.results.text_block import TextBlockWidget

ROWS = [{"id": n, "name": f"row {n}", "tags": ["alpha", "beta"]} for n in range(160_000)]
BIG = json.dumps(ROWS)  # ~9 MB of JSON on one line
LINES = "[\n" + ",\n".join(map(json.dumps, ROWS)) + "\n]"  # the same, a row a line


def shown(qtbot, text: str = BIG) -> tuple[ResultView, TextBlockWidget]:
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    view.show_result(call_result(text))
    (block,) = view.blocks
    assert isinstance(block, TextBlockWidget)
    return view, block


def test_a_big_result_shows_its_beginning_plain_and_keeps_it_all(qtbot) -> None:
    _view, block = shown(qtbot)
    pane = block.pane
    assert pane.edit.document().characterCount() <= 250_000, "only the beginning is laid out"
    assert pane.text() == BIG[: len(pane.text())], "as it came, not re-formatted"
    assert pane.highlighter is None
    assert pane.full_text == BIG
    block.copy_button.click()
    assert QGuiApplication.clipboard().text() == BIG


def test_show_all_appends_the_rest_a_slice_at_a_time(qtbot) -> None:
    _view, block = shown(qtbot, LINES)
    pane = block.pane
    assert pane.text() == LINES[: len(pane.text())] and len(pane.text()) < len(LINES)
    pane.all_button.click()
    assert pane.loading, "the rest arrives over several event-loop turns"
    qtbot.waitUntil(lambda: not pane.loading, timeout=120_000)
    assert pane.text() == LINES and not pane.truncated


def test_show_all_is_not_offered_for_one_huge_line(qtbot) -> None:
    _view, block = shown(qtbot)
    assert block.pane.all_button.isHidden()
    assert "Copy has it all" in block.pane.info.text()


def test_format_and_highlight_is_bounded(qtbot) -> None:
    _view, block = shown(qtbot)
    pane = block.pane
    assert pane.highlight_button.text() == "Format and highlight"
    pane.highlight_button.click()
    assert pane.text().startswith('[\n  {\n    "id": 0,')
    assert len(pane.text()) <= 2_000_100
