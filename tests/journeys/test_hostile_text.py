"""Server text is plain text everywhere in the app (issue 21, point 1).

The app is started on `tests/servers/hostile_text.py`, whose every string carries markup (an image on
a FIFO, bold, a link), terminal escapes, NUL, bidi overrides and zero-width characters, and 1 MB
strings. The journey uses every tab and pane a person would (a tool selected and called after its
problems dialog, an error, an elicitation and a sampling request, a resource read, a prompt got, the
doctor and its tools dialog, the log panes, a traffic row, the server panel, Budget), hovers every cell
and widget that has a tooltip, then walks every widget of every window: no label, tooltip, title, tab,
item, header, message box or text view may hold server markup that Qt would take for rich text, nor a
bidi control, NUL or escape shown raw; and nothing may ever open the FIFO (Qt loading the image reads
it on the UI thread: before the fix the Notifications tooltip did, and the window would have hung).
Editable fields are walked too: what the server suggests (defaults, enum items) is shown visibly.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from drawn_text import drawn_texts
from journey_support import columns
from lens_support import REPO
from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtGui import Qt as QtGui
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QToolTip,
    QWidget,
)

from inspector.ui.client_requests.request_dialog import RequestDialog

SERVER = REPO / "tests/servers/hostile_text.py"
MARKUP = ("<img", "<b>", "<a href")  # server markup (our own escaped tooltips carry &lt;img)
RAW = re.compile("[\x00\x1b\x9b\u202e\u2066\u2069\u200b\ufeff]")  # what the corpus hides, shown raw
ROWS = 200  # rows of each model read (the corpus is in the first few)


class FifoWatch:
    """A FIFO nobody writes to, and a thread that says whether anyone opened it to read.

    The thread's blocking open for writing returns only when a reader opens the FIFO; it then closes
    at once, so the reader sees end of file instead of hanging, and the opening is remembered.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self.opened = threading.Event()
        self._done = False
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._done:
            os.close(os.open(self.path, os.O_WRONLY))
            if not self._done:
                self.opened.set()

    def close(self) -> None:
        self._done = True
        os.close(os.open(self.path, os.O_RDONLY | os.O_NONBLOCK))  # releases the thread's open
        self._thread.join(timeout=10)


def rich_markup(text: str) -> bool:
    """Server markup that Qt would interpret: the text looks rich and carries the markup unescaped."""
    return QtGui.mightBeRichText(text) and any(tag in text for tag in MARKUP)


def count(method: Any, parent: QModelIndex, default: int) -> int:
    try:
        return method(parent)
    except TypeError:  # protected in a list or table model's PySide binding
        return default


def cells(model: Any, parent: QModelIndex | None = None, depth: int = 0) -> Iterator[QModelIndex]:
    parent = parent or QModelIndex()
    for row in range(min(count(model.rowCount, parent, 0), ROWS)):
        for column in range(max(1, count(model.columnCount, parent, 1))):
            index = model.index(row, column, parent)
            yield index
            if column == 0 and depth < 4 and count(model.rowCount, index, 0) > 0:
                yield from cells(model, index, depth + 1)


class Walk:
    """Every text on screen, checked; the problems found, each naming where."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def plain(self, where: str, text: Any, *, rich_ok: bool = False) -> None:
        """`text` shown in a place that is plain text (or, unless `rich_ok`, that Qt may read as rich)."""
        if not isinstance(text, str) or not text:
            return
        if not rich_ok and rich_markup(text):
            self.problems.append(f"{where}: server markup read as rich text: {text[:120]!r}")
        if RAW.search(text):
            found = RAW.search(text)
            assert found is not None
            self.problems.append(f"{where}: {found.group()!r} shown raw: {text[:120]!r}")

    def opened(self, fifo: FifoWatch, where: str) -> None:
        """Note (once) that showing `where` opened the FIFO."""
        if fifo.opened.is_set() and not any("FIFO" in problem for problem in self.problems):
            self.problems.append(f"{where}: Qt opened the FIFO (server markup rendered as rich text)")

    def widget(self, widget: QWidget) -> None:
        name = f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r}"
        self.plain(f"{name} tooltip", widget.toolTip())
        self.plain(f"{name} accessible name", widget.accessibleName(), rich_ok=True)
        if widget.isWindow():
            self.plain(f"{name} window title", widget.windowTitle(), rich_ok=True)
        if isinstance(widget, QLabel):
            self.plain(f"{name} text", widget.text(), rich_ok=widget.textFormat() == Qt.TextFormat.PlainText)
        elif isinstance(widget, QMessageBox):
            plain = widget.textFormat() == Qt.TextFormat.PlainText
            self.plain(f"{name} text", widget.text(), rich_ok=plain)
            self.plain(f"{name} informative text", widget.informativeText(), rich_ok=plain)
        elif isinstance(widget, QAbstractButton | QLineEdit):
            self.plain(f"{name} text", widget.text(), rich_ok=True)
        elif isinstance(widget, QPlainTextEdit | QTextEdit):
            self.plain(f"{name} text", widget.toPlainText(), rich_ok=True)
        elif isinstance(widget, QTabBar):
            for i in range(widget.count()):
                self.plain(f"{name} tab {i}", widget.tabText(i), rich_ok=True)
                self.plain(f"{name} tab {i} tooltip", widget.tabToolTip(i))
        elif isinstance(widget, QMenu):
            for action in widget.actions():
                self.plain(f"{name} action", action.text(), rich_ok=True)
                self.plain(f"{name} action tooltip", action.toolTip())
        views = isinstance(widget, QAbstractItemView | QComboBox) and not isinstance(widget, QHeaderView)
        if views and widget.model() is not None:  # (a header's model is its view's: read through headerData)
            self.model(name, widget.model())

    def model(self, name: str, model: Any) -> None:
        for section in range(columns(model)):
            for role, rich_ok in ((Qt.ItemDataRole.DisplayRole, True), (Qt.ItemDataRole.ToolTipRole, False)):
                self.plain(
                    f"{name} header {section}",
                    model.headerData(section, Qt.Orientation.Horizontal, role),
                    rich_ok=rich_ok,
                )
        for index in cells(model):
            where = f"{name} cell ({index.row()}, {index.column()})"
            self.plain(where, index.data(Qt.ItemDataRole.DisplayRole), rich_ok=True)
            self.plain(f"{where} tooltip", index.data(Qt.ItemDataRole.ToolTipRole))

    def drawn(self, window: QWidget) -> str:
        """What `window` paints with QPainter (charts, delegates, elided labels), checked; all of it, joined."""
        text = "".join(drawn_texts(window))
        self.plain(f"{type(window).__name__} {window.windowTitle()!r} drawn text", text, rich_ok=True)
        return text


def windows(qapp: QApplication) -> list[QWidget]:
    return [w for w in qapp.topLevelWidgets() if w.isVisible() or isinstance(w, QMainWindow)]


def every_widget(qapp: QApplication) -> Iterator[QWidget]:
    for window in windows(qapp):
        yield window
        yield from window.findChildren(QWidget)


def hover(widget: QWidget, point: QPoint) -> None:
    """What resting the mouse on `point` does: Qt asks for the tooltip there and shows it."""
    event = QHelpEvent(QEvent.Type.ToolTip, point, widget.mapToGlobal(point))
    QApplication.sendEvent(widget, event)
    QToolTip.hideText()


def hover_everything(lens, fifo: FifoWatch, walk: Walk) -> int:
    """Hover every visible widget and item-view cell that has a tooltip; how many were hovered."""
    hovered = 0
    for widget in list(every_widget(lens.qapp)):
        if not widget.isVisible():
            continue
        name = f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r}"
        if widget.toolTip():
            hover(widget, widget.rect().center())
            hovered += 1
            walk.opened(fifo, f"{name} tooltip")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            for index in cells(widget.model()):
                if index.data(Qt.ItemDataRole.ToolTipRole) and widget.visualRect(index).isValid():
                    widget.scrollTo(index)
                    hover(widget.viewport(), widget.visualRect(index).center())
                    hovered += 1
                    walk.opened(fifo, f"{name} cell ({index.row()}, {index.column()}) tooltip")
    return hovered


def request_dialogs(lens) -> list[QWidget]:
    """The open dialogs of requests the server sent us."""
    return [w for w in lens.qapp.topLevelWidgets() if isinstance(w, RequestDialog) and w.isVisible()]


def suggestions(lens) -> QAbstractItemView:
    """The completion pop-up once it lists the server's suggestions."""

    def shown() -> list[QAbstractItemView]:
        return [
            view
            for view in lens.widgets(QAbstractItemView)
            if view.window().windowType() == Qt.WindowType.Popup and view.model().rowCount() >= 2
        ]

    lens.wait(lambda: bool(shown()), 30_000, "the server's suggestions")
    return shown()[0]


def question(lens) -> QMessageBox:
    """The message box open now (waits for it)."""

    def shown() -> list[QWidget]:
        return [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]

    lens.wait(lambda: bool(shown()), 30_000, "a message box")
    return shown()[0]


def visit_every_tab(lens, fifo: FifoWatch, walk: Walk) -> int:
    """Click every tab of every shown tab bar in the main window (twice: tabs inside tabs appear),
    hovering everything each shows; how many tooltips were hovered."""
    hovered = 0
    for _round in range(2):
        for bar in lens.window.findChildren(QTabBar):
            for index in range(bar.count()):
                if bar.isVisible() and bar.isTabEnabled(index) and bar.isTabVisible(index):
                    QTest.mouseClick(
                        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(index).center()
                    )
                    lens.qtbot.wait(30)
                    hovered += hover_everything(lens, fifo, walk)
                    walk.drawn(lens.window)
    return hovered


def test_hostile_text_is_plain_everywhere_and_no_file_is_read(lens, tmp_path: Path) -> None:
    fifo = FifoWatch(tmp_path / "hang.fifo")
    try:
        walk = Walk()
        lens.start("--", sys.executable, str(SERVER), str(fifo.path))
        lens.wait(lambda: lens.window.notifications.model.rowCount() >= 1, 30_000, "the start-up log message")
        # The server's name whole, its line breaks and invisible characters shown as escapes, in the status bar and
        # the server panel's State row (a name cut at its CR, or a lone surrogate dropped, hides what it says).
        state = lens.find("Connection state", QLabel).text()
        for where, text in (("status bar", lens.status()), ("State row", state)):
            for escape in ("lone\\ud800sur", "cr\\rret", "ls\\u2028sep", "cgj\\u034fend"):
                assert escape in text, f"{where}: {escape} not shown in {text[-200:]!r}"

        lens.tab("Tools")
        lens.click_item("Tool list", "tool title")
        lens.click("Call  (Ctrl+Enter)")
        box = question(lens)  # a required field (with a hostile name) is empty: the app asks
        walk.widget(box)
        for child in box.findChildren(QWidget):
            walk.widget(child)
        lens.click(lens.find("Send anyway", top=box))
        lens.wait(lambda: lens.window.notifications.model.rowCount() >= 3, 30_000, "the call's log messages")
        lens.wait(lambda: "structured value" in lens.texts(), 30_000, "the call's result")

        assert "(rtl\\u202eloot)" in lens.texts(), "the tool's name reads as sent, its override shown"
        lens.click_item("Tool list", "fails")
        lens.click("Call  (Ctrl+Enter)")
        lens.wait(lambda: "error fails" in lens.texts(), 30_000, "the call's error")

        lens.tab("Resources")
        lens.click_item("Resource list", "resource title")
        lens.click("Read  (Ctrl+Enter)")
        lens.wait(lambda: "resource text" in lens.texts(), 30_000, "the resource's text")

        lens.tab("Prompts")
        lens.click_item("Prompt list", "prompt title")
        lens.click("Get prompt  (Ctrl+Enter)")
        lens.wait(lambda: "prompt message" in lens.texts(), 30_000, "the prompt's messages")
        lens.window.activateWindow()  # back from the message box: the window has the keyboard again
        lens.wait(lambda: lens.qapp.activeWindow() is lens.window, 10_000, "the window is active")
        lens.type("topic", "o")  # the server's completions pop up under the field (both hold an "o")
        walk.widget(suggestions(lens))
        lens.key("Escape")

        lens.tab("Tools")
        lens.click_item("Tool list", "asks")
        lens.click("Call  (Ctrl+Enter)")  # the server asks back: an elicitation and a sampling dialog stay open
        lens.wait(lambda: len(request_dialogs(lens)) == 2, 30_000, "the elicitation and sampling dialogs")

        lens.tab("Doctor")
        lens.click("Run doctor")  # its dialog lists the server's tools: walked while it is open
        dialog = lens.find("Start", QAbstractButton).window()
        for widget in (dialog, *dialog.findChildren(QWidget)):
            walk.widget(widget)
        lens.click("Start")
        lens.wait(lambda: "Score " in lens.texts(), 60_000, "the doctor's report")
        lens.click_item("Doctor findings", "stderr")

        lens.tab("Budget")  # the chart of the biggest tools paints their names

        def charted() -> str:
            charts = [c for c in lens.window.findChildren(QWidget, "budgetChart") if c.isVisible()]
            return "".join(drawn_texts(charts[0])) if charts else ""

        lens.wait(lambda: "rtl" in charted(), 60_000, "the Budget chart's tool names")
        walk.plain("Budget chart drawn text", charted(), rich_ok=True)
        walk.drawn(lens.window)

        lens.tab("Traffic")
        lens.click_item(lens.find("Traffic log", QAbstractItemView), "tools/call")
        walk.opened(fifo, "the journey so far")
        assert visit_every_tab(lens, fifo, walk) > 10
        for widget in every_widget(lens.qapp):
            walk.widget(widget)
        walk.plain("status bar", lens.window.statusBar().currentMessage(), rich_ok=True)
        assert not walk.problems, f"{len(walk.problems)} problems:\n" + "\n".join(sorted(set(walk.problems))[:80])
        assert not fifo.opened.is_set(), "Qt opened the FIFO: server markup was rendered as rich text"
    finally:
        fifo.close()
