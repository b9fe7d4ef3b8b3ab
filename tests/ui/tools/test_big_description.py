"""A tool with a 1 MB description: the header shows a short part, the whole text is one click away in a
plain-text view (a word-wrapped QLabel holding 1 MB took seconds per selection or resize; issue 21)."""

from __future__ import annotations

from factories import tool
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.ui.tools.header import ToolHeader
from inspector.ui.tools.tool_list import ToolRow

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
    assert view.isReadOnly() and view.toPlainText() == LONG
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
