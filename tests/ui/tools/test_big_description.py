"""A tool with a 1 MB description: the header shows a short part, the whole text is one click away in a
plain-text view (a word-wrapped QLabel holding 1 MB took seconds per selection or resize; issue 21)."""

from __future__ import annotations

import tracemalloc

from factories import tool
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.content.long_lines import MARK, PIECE_CHARS
from inspector.ui.tools.header import ToolHeader
from inspector.ui.tools.tool_list import ToolListModel, ToolRow

LONG = ("The quick brown fox jumps over the lazy dog. " * 23_000)[:1_000_000]


def row(description: str) -> ToolRow:
    return ToolRow.from_tool(tool("long_description", description, {}), [])


def test_the_header_label_never_holds_a_huge_description(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.resize(900, 300)
    header.show()
    header.show_row(row(LONG))
    assert len(header.description.text()) <= 2_100  # a few lines of words, not 1 MB
    assert header.description.text().startswith("The quick brown fox")
    assert header.full.isVisible() and header.full.text() == "Show full description"


def test_the_full_description_opens_in_a_plain_text_view(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    header.show_row(row(LONG))
    qtbot.mouseClick(header.full, Qt.MouseButton.LeftButton)
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    assert len(dialogs) == 1
    (view,) = dialogs[0].findChildren(QPlainTextEdit)
    assert view.isReadOnly() and view.toPlainText().replace(MARK + "\n", "") == LONG  # in marked pieces
    dialogs[0].close()


def test_a_short_description_has_no_extra_button(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    header.show_row(row("Looks something up."))
    assert header.description.text() == "Looks something up."
    assert not header.full.isVisible()


RUNS = ("A" * 100 + "<b>x</b>\u202e") * 10_000  # no break point in 100 letters: the tester's bigdesc


def test_a_description_without_break_points_never_widens_the_header(qtbot) -> None:
    """Issue 21: the label asked for its longest run's width, the pane grew wider than the window and
    More and Show full description were reachable only by scrolling sideways."""
    box = QWidget()
    layout = QVBoxLayout(box)
    header = ToolHeader()
    layout.addWidget(header)
    qtbot.addWidget(box)
    box.resize(420, 300)
    box.show()
    header.show_row(ToolRow.from_tool(tool("n" * 300, RUNS, {}), []))
    qtbot.waitUntil(lambda: header.full.isVisible())
    assert header.minimumSizeHint().width() <= 420, header.minimumSizeHint()
    assert box.minimumSizeHint().width() <= 420, box.minimumSizeHint()
    for button in (header.more, header.full):
        assert button.isVisible() and header.rect().contains(button.geometry()), (button.text(), button.geometry())


def test_the_full_description_window_closes_with_its_button_escape_and_ctrl_w(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    header.show_row(row(LONG))
    for close in ("Close", "Escape", "Ctrl+W"):
        qtbot.mouseClick(header.full, Qt.MouseButton.LeftButton)
        (dialog,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
        dialog.activateWindow()
        qtbot.waitUntil(lambda d=dialog: QApplication.activeWindow() is d)
        if close == "Close":
            (button,) = [b for b in dialog.findChildren(QAbstractButton) if b.text().replace("&", "") == "Close"]
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        else:  # pressed where the keyboard is: the text view has it (no click into it first)
            QTest.keySequence(QApplication.focusWidget() or dialog, QKeySequence(close))
        qtbot.waitUntil(lambda d=dialog: not d.isVisible(), timeout=5_000)


LINE = "A" * 1_048_576  # the outside tester's `big`: one line, no break point at all (issue 21)


def test_the_header_shows_the_true_count_of_what_it_left_out(qtbot) -> None:
    """The cut text went through the label's own 2,000-character cut, which read "[29 more characters]"
    (the length of the header's own note); the count is on a line of its own, never wrapped or cut."""
    header = ToolHeader()
    qtbot.addWidget(header)
    header.resize(420, 300)
    header.show()
    header.show_row(row(LINE))
    qtbot.waitUntil(lambda: header.full.isVisible())
    texts = [label.text() for label in header.findChildren(QLabel) if label.isVisible()]
    assert not any("[29 more characters]" in text for text in texts), texts
    (note,) = [label for label in header.findChildren(QLabel) if label.isVisible() and "1,046,576" in label.text()]
    assert not note.wordWrap() and note.fontMetrics().horizontalAdvance(note.text()) <= note.width(), note.text()
    assert "1,048,576" in note.text()


def test_the_full_description_hands_qt_no_huge_paragraph_and_copy_gives_the_exact_text(qtbot) -> None:
    """Qt lays out a 1 MB paragraph with no break point for minutes (the window froze ~2 minutes): the
    view shows it in pieces of at most PIECE_CHARS; Copy gives the server's text as sent."""
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    description = LINE + "\x1b[2J\u202e" + "B" * 10
    header.show_row(row(description))
    qtbot.mouseClick(header.full, Qt.MouseButton.LeftButton)
    (dialog,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    (view,) = dialog.findChildren(QPlainTextEdit)
    document = view.document()
    longest = max(len(document.findBlockByNumber(n).text()) for n in range(document.blockCount()))
    assert longest <= PIECE_CHARS + len(MARK), longest
    assert "\\x1b[2J\\u202e" in view.toPlainText()  # shown visibly, never obeyed
    (copy,) = [b for b in dialog.findChildren(QAbstractButton) if b.text().replace("&", "") == "Copy"]
    QApplication.clipboard().clear()
    qtbot.mouseClick(copy, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == description
    dialog.close()


def test_the_tool_list_finds_words_of_a_long_description_without_keeping_it_lower_cased(qtbot) -> None:
    """Each row kept its name, title and description lower-cased for the search: a second megabyte held for
    a 1 MB description (issue 21 point 4). A long one is lower-cased when a search needs it."""
    text = LONG[:500_000] + " Zebra-Crossing " + LONG[:500_000]
    tracemalloc.start()
    try:
        rows = [row(text), ToolRow.from_tool(tool("short_one", "Finds the Zebra.", {}), [])]
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < len(text) / 10, f"the rows keep {held / 2**20:.1f} MB for a {len(text) / 2**20:.1f} MB description"
    model = ToolListModel()
    model.all = rows
    for query, found in (
        ("zebra-crossing", ["long_description"]),
        ("ZEBRA", ["long_description", "short_one"]),
        ("long_desc quick", ["long_description"]),
        ("short zebra", ["short_one"]),
        ("zebra nowhere", []),
    ):
        model.set_query(query)
        assert [r.name for r in model.visible] == found, query
