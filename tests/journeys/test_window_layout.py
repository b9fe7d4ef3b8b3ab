"""Layout as a test (issue 22, point 5): the window and its dialogs at the sizes people use.

Three servers in the workspace (so the traffic log shows its Server column), at 1024×700 and 1280×860:
nothing off-screen, no clipped text in any visible label or header section, the window's minimum
size bounded by what the README claims (fits 800×700), and Tab from the tool list to the form to Call.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from journey_support import strip_mnemonic
from lens_support import REPO
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QEvent, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QKeySequence, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QStyle,
    QTableView,
    QTableWidget,
    QTabWidget,
    QToolButton,
    QWidget,
)
from test_workspace import announced, open_server, save_servers

SIZES = ((1024, 700), (1280, 860))
FITS = (800, 700)  # the README: "fits 800×700"
APP_HEIGHT = {(800, 700): 200, (1024, 700): 200, (1280, 860): 310}  # the least an MCP App gets (150/257 before)
OTHERS = ("second demo", "third demo")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def three_servers(lens: Any) -> None:
    """The demo plus two more demo servers, all connected: the traffic log shows its Server column."""
    demo = {"command": sys.executable, "args": ["-m", "inspector.demo"], "env": {"PYTHONPATH": str(REPO)}}
    save_servers(lens, {name: demo for name in OTHERS})
    lens.start()
    for name in OTHERS:
        open_server(lens, name)
        lens.wait(lambda n=name: announced(lens, n).startswith(f"{n}, connected"), 30_000, f"{name} connected")
    lens.click_item("Servers", "Demo server")
    lens.wait(lambda: "Demo server: connected" in lens.status(), what="the demo shown")


def call_button(lens: Any) -> QPushButton:
    """The shown server's Call button."""
    return next(w for w in lens.widgets(QPushButton) if w.objectName() == "callButton")


def inside_a_scrolled_viewport(widget: QWidget, top: QWidget) -> bool:
    """In a scroll area's viewport: it may lie outside the window until scrolled to (the area is checked)."""
    parent = widget.parentWidget()
    while parent is not None and parent is not top:
        grand = parent.parentWidget()
        if isinstance(grand, QAbstractScrollArea) and parent is grand.viewport():
            return True
        parent = grand
    return False


def off_screen(top: QWidget) -> list[str]:
    """Every visible widget that its window or one of its parents cuts off (a widget in a scroll area's
    viewport is left to the scroll area: it may lie outside until scrolled to)."""
    found = []
    for widget in top.findChildren(QWidget):
        if not widget.isVisible() or widget.isWindow() or inside_a_scrolled_viewport(widget, top):
            continue
        rect = QRect(widget.mapTo(top, QPoint(0, 0)), widget.size())
        bounds, parent = top.rect(), widget.parentWidget()
        while parent is not None and parent is not top:
            bounds = bounds.intersected(QRect(parent.mapTo(top, QPoint(0, 0)), parent.size()))
            parent = parent.parentWidget()
        if not bounds.contains(rect):
            found.append(f"{describe(widget)} at {rect.getRect()} cut to {bounds.getRect()}")
    return found


def describe(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QLabel | QPushButton) else ""
    return f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r} {text[:60]!r}"


def elides_itself(label: QLabel) -> bool:
    """A label that paints its own (elided) text: clipping is its purpose."""
    return type(label).paintEvent is not QLabel.paintEvent


def label_text_width(label: QLabel) -> int:
    text = strip_mnemonic(label.text()) if label.buddy() is not None else label.text()  # "Files of &type:"
    rich = label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)
    )
    if rich:
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        document.setHtml(text)
        return round(document.idealWidth())
    metrics = label.fontMetrics()
    return max(metrics.horizontalAdvance(line) for line in text.split("\n"))


def clipped(top: QWidget) -> list[str]:
    """Visible labels and header sections whose text is wider than the room they have."""
    found = []
    for label in top.findChildren(QLabel):
        if not label.isVisible() or not label.text() or label.wordWrap() or elides_itself(label):
            continue
        if not label.pixmap().isNull():
            continue
        room = label.contentsRect().width() - 2 * label.margin()
        if label.indent() > 0:
            room -= label.indent()
        if label_text_width(label) > room + 1:
            found.append(f"{describe(label)}: {label_text_width(label)} px of text in {room} px")
    for header in top.findChildren(QHeaderView):
        if not header.isVisible() or header.orientation() != Qt.Orientation.Horizontal:
            continue
        model = header.model()
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        view = header.parentWidget()
        for section in range(header.count()):
            if header.isSectionHidden(section):
                continue
            text = str(model.headerData(section, Qt.Orientation.Horizontal) or "")
            need = header.fontMetrics().horizontalAdvance(text) + 2 * margin
            if text and header.sectionSize(section) < need:
                found.append(f"header {text!r} of {describe(view)}: {header.sectionSize(section)} px < {need}")
            right = header.sectionViewportPosition(section) + header.sectionSize(section)
            if text and right > header.width() + 1:
                found.append(f"column {text!r} of {describe(view)} ends at {right} px, past {header.width()}")
    return found


def visit(lens: Any, check: Any) -> dict[str, list[str]]:
    """Show every page of every tab area of the main window in turn; what `check` finds on each."""
    window = lens.window
    found: dict[str, list[str]] = {}
    for area in (window.sidebar, window.tabs, window.bottom):
        shown = area.currentIndex()
        for index in range(area.count()):
            area.setCurrentIndex(index)
            lens.qtbot.wait(50)
            if problems := check(window):
                found[area.tabText(index)] = problems
        area.setCurrentIndex(shown)
    return found


def report(problems: dict[str, dict[str, list[str]]]) -> str:
    """One line per problem, each seen once (the same one shows on every page)."""
    lines: dict[str, list[str]] = {}
    for kind, pages in problems.items():
        for page, found in pages.items():
            for line in found:
                lines.setdefault(f"{kind}: {line}", []).append(page)
    return "\n".join(f"{line} (on {', '.join(pages)})" for line, pages in lines.items())


def at_size(lens: Any, width: int, height: int) -> None:
    window = lens.window
    window.resize(width, height)
    lens.wait(lambda: (window.width(), window.height()) == (width, height), what=f"the window at {width}×{height}")
    lens.qtbot.wait(100)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_window_at_the_sizes_people_use(lens, size: tuple[int, int]) -> None:
    three_servers(lens)
    lens.click_item("Tool list", "Echo (echo)")
    lens.tab("Resources")  # a resource chosen: its URI, the list's counter
    lens.click_item("Resource list", "demo://data/settings.json")
    lens.tab("Tools")
    lens.click_item("Traffic log", "tools/list")  # an entry selected: the detail's header
    at_size(lens, *size)
    name = f"layout-{size[0]}x{size[1]}"
    ARTIFACTS.mkdir(exist_ok=True)
    lens.window.grab().save(str(ARTIFACTS / f"{name}.png"))

    def stays(window: QWidget) -> list[str]:
        return (
            []
            if (window.width(), window.height()) == size
            else [f"the window grew to {window.width()}×{window.height()}"]
        )

    problems = {"off-screen": visit(lens, off_screen), "clipped": visit(lens, clipped), "size": visit(lens, stays)}
    assert not any(problems.values()), report(problems)


def test_the_minimum_size_fits_800_by_700(lens) -> None:
    three_servers(lens)
    window = lens.window
    for tool in ("Echo (echo)", "(book_table)", "Research a topic"):
        lens.click_item("Tool list", tool)
        window.resize(*FITS)
        lens.qtbot.wait(100)
        visit(lens, lambda _w: [])
        hint = window.minimumSizeHint().expandedTo(window.minimumSize())
        assert hint.width() <= FITS[0] and hint.height() <= FITS[1], (tool, hint)
        assert (window.width(), window.height()) == FITS, (tool, window.size())


def check_dialog(lens: Any, opened: dict[str, list[str]], what: str, open_it: Any, keep: bool = False) -> QWidget:
    """Open a dialog with `open_it` (a user action); what is off-screen or clipped in it goes into `opened`
    under `what`; then it is closed, unless `keep` (a caller that opens another from it). One that blocks
    in exec() (Budget's Snapshot…) is checked from inside its loop and closed there."""
    before = {w for w in QApplication.topLevelWidgets() if w.isVisible()}
    seen: list[QWidget] = []

    def new_dialog() -> QWidget | None:  # a dialog, or a window of its own (Tapped sessions)
        kinds = (Qt.WindowType.Dialog, Qt.WindowType.Window, Qt.WindowType.Sheet)
        shown = [w for w in QApplication.topLevelWidgets() if w.windowType() in kinds and w.isVisible()]
        return next((w for w in shown if w not in before), None)

    def look() -> None:
        if (dialog := new_dialog()) is None:
            QTimer.singleShot(50, look)
        else:
            QTimer.singleShot(100, lambda: inspect(dialog))

    def inspect(dialog: QWidget) -> None:
        problems = off_screen(dialog) + clipped(dialog)
        window = lens.window.geometry()
        if dialog.width() > 1024 or dialog.height() > 700:
            problems.append(f"{dialog.width()}×{dialog.height()} is larger than the window's screen")
        elif not window.adjusted(-40, -40, 40, 40).contains(dialog.frameGeometry()):
            problems.append(f"at {dialog.frameGeometry().getRect()}, away from the window at {window.getRect()}")
        if problems:
            opened[what] = problems
        seen.append(dialog)
        if not returned:  # the action is still running: the dialog blocks in exec()
            dialog.close()

    returned: list[bool] = []
    QTimer.singleShot(0, look)
    open_it()
    returned.append(True)
    lens.wait(lambda: bool(seen), 30_000, f"the {what} dialog")
    if not keep:
        shut(seen[0])
    return seen[0]


def shut(dialog: QWidget) -> None:
    """Close `dialog` if it is still there (a file chosen, or a static dialog's end, may have deleted it)."""
    if shiboken6.isValid(dialog) and dialog.isVisible():
        dialog.close()


def test_dialogs_fit_and_show_their_text_whole(lens) -> None:
    three_servers(lens)
    at_size(lens, 1024, 700)
    opened: dict[str, list[str]] = {}
    check_dialog(lens, opened, "About", lambda: lens.menu("Help", "About MCP Lens"))
    check_dialog(lens, opened, "Keyboard shortcuts", lambda: lens.menu("Help", "Keyboard shortcuts"))
    check_dialog(lens, opened, "Add server", lambda: lens.click("Add server"))
    lens.click_item("Traffic log", "tools/list")
    check_dialog(lens, opened, "Re-send", lambda: lens.click("Re-send"))
    order_coffee(lens)
    check_dialog(lens, opened, "elicitation", lambda: lens.click(call_button(lens)))
    assert not opened, "\n".join(f"{what}: {line}" for what, lines in opened.items() for line in lines)


def test_every_other_dialog_fits_at_1024_by_700(lens) -> None:
    """The dialogs of the menus, the server list's buttons and the tabs, each opened as a person does in a
    1024×700 window: nothing cut off, no clipped label or header, not larger than the screen."""
    from test_multi_round_trips import answer_form, order, request_dialog
    from test_tap_install import right_click_and_choose
    from test_traffic import without_blocking

    config = lens.home / ".config" / "Claude" / "claude_desktop_config.json"  # Import offers it
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}))
    three_servers(lens)
    at_size(lens, 1024, 700)
    opened: dict[str, list[str]] = {}
    sources = check_dialog(lens, opened, "Import", lambda: lens.click("Import servers"), keep=True)
    check_dialog(
        lens,
        opened,
        "Import Servers",
        lambda: lens.click(
            lens.find("Import from Claude Desktop: ~/.config/Claude/claude_desktop_config.json", top=sources)
        ),
    )
    shut(sources)
    items = ("Open session…", "Export session…", "Tapped sessions…", "Compare sessions…")
    for menu, item in (("File", item) for item in items):
        check_dialog(
            lens, opened, f"{menu} › {item}", lambda m=menu, i=item: without_blocking(lens, lambda: lens.menu(m, i))
        )
    check_dialog(
        lens, opened, "Tap this server", lambda: right_click_and_choose(lens, "second demo", "Tap this server…")
    )
    lens.click_item("Servers", "second demo")
    check_dialog(lens, opened, "Edit server", lambda: lens.click("Edit server"))
    check_dialog(lens, opened, "Export server", lambda: right_click_and_choose(lens, "second demo", "Export…"))
    check_dialog(lens, opened, "Delete server", lambda: lens.click("Delete server"))
    lens.click_item("Servers", "Demo server")
    lens.wait(lambda: "Demo server: connected" in lens.status(), what="the demo shown")
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "hello")
    lens.click(call_button(lens))
    lens.wait(lambda: lens.shows("✓ OK"), 30_000, "the result")
    check_dialog(lens, opened, "Save to collection", lambda: lens.click("Save the shown call to a collection"))
    order(lens, pastry=True)  # an elicitation form, then a sampling request (2026-07-28 input requests)
    request_dialog(lens, "Elicitation request")
    check_dialog(lens, opened, "Sampling request", lambda: answer_form(lens, "Ada"))
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    check_dialog(lens, opened, "Snapshot", lambda: lens.click("Snapshot…"))
    check_dialog(lens, opened, "Diff", lambda: lens.click("Diff…"))
    lens.tab("Doctor")
    check_dialog(lens, opened, "Run doctor", lambda: lens.click("Run doctor"))
    assert not opened, "\n".join(f"{what}: {line}" for what, lines in opened.items() for line in lines)


def test_a_records_run_against_window_fits_at_1024_by_700(lens, tmp_path: Path) -> None:
    """File › Open session…, then the record window's Run against…: the regression run window fits."""
    from lens_support import DEMO, run_lens
    from test_traffic import choose_file

    record = tmp_path / "demo.jsonl"
    done = run_lens("--cli", "--record", str(record), "--method", "tools/list", "--", *DEMO, timeout=120)
    assert done.returncode == 0, done.stderr
    lens.start()
    at_size(lens, 1024, 700)
    lens.menu("File", "Open session…")
    choose_file(lens, record)
    viewer = next(w for w in QApplication.topLevelWidgets() if w.isVisible() and record.name in w.windowTitle())
    opened: dict[str, list[str]] = {}
    check_dialog(lens, opened, "Run against", lambda: lens.click(lens.find("Run against", top=viewer)))
    viewer.close()
    assert not opened, "\n".join(f"{what}: {line}" for what, lines in opened.items() for line in lines)


def test_tab_goes_from_the_tool_list_to_the_form_then_to_call(lens) -> None:
    three_servers(lens)
    at_size(lens, 1280, 860)
    lens.click_item("Tool list", "Echo (echo)")
    assert QApplication.activeWindow() is lens.window, QApplication.activeWindow()  # no stray window took the keys
    tools = lens.find("Tool list")
    tools.setFocus()
    assert QApplication.focusWidget() is tools, describe(QApplication.focusWidget())
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    field = QApplication.focusWidget()
    assert isinstance(field, QLineEdit) and field.accessibleName() == "message", describe(field)
    QTest.keyClick(field, Qt.Key.Key_Tab)  # echo's form has one field: then Call
    assert QApplication.focusWidget() is call_button(lens), describe(QApplication.focusWidget())
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is field, describe(QApplication.focusWidget())


def test_help_lists_every_shortcut_of_the_menus_and_the_tabs(lens) -> None:
    three_servers(lens)
    lens.menu("Help", "Keyboard shortcuts")
    table = lens.find("Keyboard shortcuts", QTableWidget)
    rows = {tuple(table.item(r, c).text() for c in range(3)) for r in range(table.rowCount())}
    listed = {(keys, what) for keys, what, _where in rows}
    for menu in lens.window.menuBar().findChildren(QMenu):
        for action in menu.actions():
            for key in action.shortcuts():
                keys = key.toString(QKeySequence.SequenceFormat.NativeText)
                assert any(keys in k and strip_mnemonic(action.text()).rstrip("…") in w for k, w in listed), (
                    keys,
                    action.text(),
                )
    assert ("Ctrl+Return", "Call the selected tool", "Tools tab") in rows
    assert ("F5", "List resources and templates again", "Resources tab") in rows
    assert any(what == "Copy message" and where == "Traffic" for _k, what, where in rows), rows


def test_the_keyboard_shortcuts_tables_columns_fill_its_dialog(lens) -> None:
    """F1 as the user presses it: the table's columns span its width (the outside tester saw them fill the
    left half of the dialog, 34-f1.png), at the dialog's size and when it is made wider."""
    lens.start()
    lens.key("F1", lens.window)
    table = lens.find("Keyboard shortcuts", QTableWidget)
    header = table.horizontalHeader()
    for width in (None, 1000):
        if width is not None:
            table.window().resize(width, table.window().height())
        lens.wait(lambda: header.length() >= table.viewport().width() - 2, what=f"columns filling the table ({width})")
    table.window().close()


def order_coffee(lens: Any) -> None:
    """The demo's order_coffee with a drink typed: a call asks for input (an elicitation form) mid-call."""
    lens.click_item("Tool list", "order_coffee")
    lens.type("drink", "latte")


def test_the_elicitation_dialog_opens_with_its_first_field_focused(lens) -> None:
    three_servers(lens)
    order_coffee(lens)
    lens.click(call_button(lens))
    lens.wait(
        lambda: any(isinstance(w, QDialog) and w.isVisible() for w in QApplication.topLevelWidgets()),
        30_000,
        "the elicitation dialog",
    )
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible())
    lens.wait(
        lambda: isinstance(QApplication.focusWidget(), QLineEdit) and dialog.isAncestorOf(QApplication.focusWidget()),
        what=f"a field of the dialog focused (focus on {QApplication.focusWidget()!r})",
    )
    assert QApplication.focusWidget().accessibleName() == "name"


@pytest.mark.parametrize("size", [FITS, *SIZES], ids=[f"{w}x{h}" for w, h in [FITS, *SIZES]])
def test_the_app_view_gets_a_useful_height(lens, size: tuple[int, int]) -> None:
    from inspector.ui.apps.web_view import SandboxedAppView

    lens.start()
    at_size(lens, *size)
    lens.click_item("Tool list", "show_dice")
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait_text("App running (mcp-lens-demo-dice): initialised", timeout=30_000)
    lens.find("App", SandboxedAppView)
    lens.qtbot.wait(200)
    tabs = next(w for w in lens.widgets(QTabWidget) if w.objectName() == "resultTabs")
    shown = tabs.currentWidget().height()  # the App tab's page: what the app is given on screen
    least = APP_HEIGHT[size]
    assert tabs.tabText(tabs.currentIndex()) == "App" and shown >= least, f"{shown} px at {size} (< {least})"


def shown_width(widget: QWidget) -> int:
    """How many pixels of `widget` are on screen: its parents (a scroll area's viewport) may cut it."""
    return widget.visibleRegion().boundingRect().width()


def test_a_read_resource_gets_room_at_1024_by_700(lens) -> None:
    """Resources › Dice app › Ctrl+Enter in a 1024×700 window: the result is readable (issue 22, point 5;
    the outside tester saw a strip with the meta text one word per line and the Copy button cut to 'C')."""
    from inspector.ui.results.resource_view import ResourceContentsView

    lens.start()
    at_size(lens, 1024, 700)
    lens.tab("Resources")
    lens.click_item("Resource list", "Dice app")
    lens.key("Ctrl+Return", lens.find("Resource list"))
    view = next(w for w in lens.widgets(ResourceContentsView) if w.isVisible())
    lens.wait(lambda: view.state == "ok" and view.blocks, 30_000, "the dice app read")
    lens.qtbot.wait(200)
    tab = view.window().findChild(QWidget, "resourcesTab")
    shown = view.scroll.viewport()
    assert shown.width() >= 200 and shown.height() >= 120, f"the result shows {shown.width()}×{shown.height()} px"
    assert view.height() >= tab.height() // 2 - 40, f"the result has {view.height()} of the tab's {tab.height()} px"
    pane = view.blocks[0].pane
    assert pane is not None
    text = pane.edit.viewport().visibleRegion().boundingRect()
    lines = pane.edit.fontMetrics().lineSpacing()
    assert text.width() >= 200 and text.height() >= 3 * lines, (
        f"the resource's text shows {text.width()}×{text.height()}"
    )
    detail = view.detail_label
    assert detail.width() >= detail.fontMetrics().horizontalAdvance("ui://demo/dice.html · 1 item"), detail.width()
    card = [b for b in view.blocks[0].findChildren(QPushButton) if b.isVisible()]
    assert {b.text() for b in card} >= {"Copy", "Save…"}
    # Every button partly in sight shows its text whole (one scrolled wholly out of a scroll area's view is
    # not cut: the detail pane scrolls); the card's buttons, at the top of the result, must be in sight.
    cut = [
        f"{button.text()!r}: {shown_width(button)} px shown of {button.fontMetrics().horizontalAdvance(button.text())}"
        for button in tab.findChildren(QPushButton)
        if button.isVisible()
        and button.text()
        and (shown_width(button) > 0 or button in card)
        and shown_width(button) < button.fontMetrics().horizontalAdvance(strip_mnemonic(button.text())) + 8
    ]
    assert not cut, cut


NUMBERS = ("#", "Time", "Δ ms", "ID", "Size", "Latency")  # never elided: a cut number is a wrong number


def test_the_traffic_logs_numbers_are_whole_at_1024(lens) -> None:
    """Three servers (the Server column shown) at 1024×700: every Time, Δ ms, ID, Size and Latency cell
    has the width its text needs (the tester saw '07:56:…', '143…'); the text columns give way instead."""
    three_servers(lens)
    at_size(lens, 1024, 700)
    lens.qtbot.wait(1100)  # a pause: the next request's Δ ms has four digits before the point
    lens.tab("Resources")
    lens.click_item("Resource list", "Dice app")
    lens.key("Ctrl+Return", lens.find("Resource list"))
    lens.wait(
        lambda: any(
            e is not None and e.method == "resources/read" and e.kind.value == "response" for e in model_entries(lens)
        ),
        30_000,
    )
    lens.qtbot.wait(200)
    table = lens.find("Traffic log")
    cut = elided_numbers(table)
    assert not cut, "\n".join(cut[:12])
    header = table.horizontalHeader()
    last = header.logicalIndex(header.count() - 1)
    assert header.sectionViewportPosition(last) + header.sectionSize(last) <= header.width() + 1, "Status out of sight"


def elided_numbers(table: Any) -> list[str]:
    """The cells of the number and time columns whose text is wider than their column."""
    from inspector.ui.traffic.model import COLUMNS

    model, header = table.model(), table.horizontalHeader()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    metrics = table.fontMetrics()
    cut = []
    for name in NUMBERS:
        column = COLUMNS.index(name)
        assert not header.isSectionHidden(column), name
        for row in range(model.rowCount()):
            text = str(model.data(model.index(row, column)) or "")
            need = metrics.horizontalAdvance(text) + margin
            if header.sectionSize(column) < need:
                cut.append(f"{name} row {row}: {text!r} needs {need} px, has {header.sectionSize(column)}")
    return cut


def test_an_hour_between_two_messages_shows_whole_in_a_record(lens, tmp_path: Path) -> None:
    """A record whose answer came an hour after its request (Δ ms 3600000.0, wider than the column was
    made for), opened with File › Open session… in a 1024 px window: the number column widens to it."""
    from factories import request, response
    from test_traffic import choose_file, without_blocking

    from inspector.traffic import jsonl
    from inspector.traffic.store import TrafficStore
    from inspector.ui.traffic.viewer_window import ViewerWindow

    store = TrafficStore()
    request(store, 7, "ping")
    response(store, 7)
    path = tmp_path / "slow.jsonl"
    jsonl.save(path, store)
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    entries = [line for line in lines if "mono" in line]
    entries[-1]["mono"] = entries[0]["mono"] + 3600.0
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    lens.start()
    without_blocking(lens, lambda: lens.menu("File", "Open session…"))
    choose_file(lens, path)
    lens.wait(lambda: any(isinstance(w, ViewerWindow) for w in lens.widgets()), what="the record's window")
    viewer = next(w for w in lens.widgets() if isinstance(w, ViewerWindow))
    viewer.resize(1024, 700)
    table = lens.find("Traffic log", QTableView, top=viewer)
    lens.wait(lambda: table.model().rowCount() >= 2, what="the two entries")
    lens.qtbot.wait(200)
    texts = [str(table.model().data(table.model().index(r, 3)) or "") for r in range(table.model().rowCount())]
    assert "3600000.0" in texts, texts
    cut = elided_numbers(table)
    assert not cut, "\n".join(cut)


def model_entries(lens: Any) -> list[Any]:
    model = lens.find("Traffic log").model()
    return [model.entry_at(row) for row in range(model.rowCount())]


def overlapping(top: QWidget) -> list[str]:
    """Visible siblings laid out by the same layout that are drawn over each other (a legend over a table)."""
    found = []
    for parent in [top, *top.findChildren(QWidget)]:
        layout = parent.layout()
        if not parent.isVisible() or layout is None:
            continue
        laid = [
            w
            for w in parent.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if nested_in(layout, w) and w.isVisible() and not w.isWindow() and w.width() > 0 and w.height() > 0
        ]
        for i, one in enumerate(laid):
            for other in laid[i + 1 :]:
                if one.geometry().intersects(other.geometry()):
                    shared = one.geometry().intersected(other.geometry())
                    found.append(f"{describe(one)} and {describe(other)} overlap by {shared.width()}×{shared.height()}")
    return found


def nested_in(layout: Any, widget: QWidget) -> bool:
    """`widget` is placed by `layout` or by a layout nested in it (not by a child widget's own layout)."""
    for index in range(layout.count()):
        item = layout.itemAt(index)
        if item.widget() is widget:
            return True
        if item.layout() is not None and nested_in(item.layout(), widget):
            return True
    return False


def cut_combos(top: QWidget) -> list[str]:
    """Visible combo boxes narrower than the least they ask for (their text and arrow), or cut by a parent."""
    found = []
    for box in top.findChildren(QComboBox):
        if box.isVisible() and box.width() < box.minimumSizeHint().width():
            found.append(f"{describe(box)} is {box.width()} px, needs {box.minimumSizeHint().width()}")
    return found


def choose_by_keys(lens: Any, name: str, text: str) -> None:
    """Pick the item of the combo box `name` that starts with `text`, with the Down key as a person would."""
    box = lens.find(name, QComboBox)
    box.setFocus()
    for _ in range(box.count()):
        if box.currentText().startswith(text):
            return
        lens.key("Down", box)
    assert box.currentText().startswith(text), [box.itemText(i) for i in range(box.count())]


@pytest.mark.parametrize("host", ["Claude Code", "Claude Desktop"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_budget_tab_with_a_claude_host_lays_out(lens, size: tuple[int, int], host: str) -> None:
    """Budget tab, host Claude Code or Claude Desktop (the Claude counter's row shown): the legend below the
    table takes its own height, the summary is not drawn over "counted in …", no combo box is cut, and the
    tools table still shows several rows (the walkthrough at 1024×700 saw one row under the legend)."""
    lens.start()
    at_size(lens, *size)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    choose_by_keys(lens, "Host", host)
    lens.wait(lambda: f"as {host} sends them" in lens.find("Budget totals", QLabel).text(), 30_000, "the host's view")
    lens.wait(lambda: lens.find("Claude model", QComboBox).isVisible(), what="the Claude row")
    lens.qtbot.wait(200)
    pane = lens.window.findChild(QWidget, "budgetPane")
    ARTIFACTS.mkdir(exist_ok=True)
    lens.window.grab().save(str(ARTIFACTS / f"budget-{host.split()[1].lower()}-{size[0]}x{size[1]}.png"))
    problems = overlapping(pane) + clipped(pane) + cut_combos(pane) + off_screen(lens.window)
    table = lens.find("Tool costs", QTableView)
    rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    if rows < 4:
        problems.append(f"the tools table shows {rows} rows ({table.viewport().height()} px)")
    problems += cut_tool_names(table)
    if (lens.window.width(), lens.window.height()) != size:
        problems.append(f"the window grew to {lens.window.width()}×{lens.window.height()}")
    assert not problems, "\n".join(problems)


def test_the_budget_charts_names_keep_their_start_and_say_all_in_a_tooltip(lens) -> None:
    """Host Claude Code at 1280×860: the Biggest tools chart cut its names from the left ("…riber-updates");
    the start of a name is what identifies it, so a cut name keeps its start, and hovering a bar shows it
    whole."""
    from drawn_text import drawn_texts

    lens.start()
    at_size(lens, 1280, 860)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    choose_by_keys(lens, "Host", "Claude Code")
    lens.wait(lambda: "as Claude Code sends them" in lens.find("Budget totals", QLabel).text(), 30_000, "the host")
    chart = lens.window.findChild(QWidget, "budgetChart")
    lens.qtbot.wait(200)
    drawn = drawn_texts(chart)
    assert not [text for text in drawn if text.startswith("…")], drawn
    # the host's prefix, alike on every name, is said once: each bar shows the start of its tool's own name
    bars = [text for text in drawn if text.rstrip("…") and any(n.endswith(text.rstrip("…")) for n in chart.names)]
    assert not [text for text in bars if text.startswith("mcp__")], drawn
    first = chart.names[0]
    row_y = [y for y in range(chart.height()) if chart.name_at(QPoint(20, y)) == first]
    assert row_y, "no row of the chart names its first tool"
    point = QPoint(20, row_y[len(row_y) // 2])
    QTest.mouseMove(chart, point)
    QApplication.sendEvent(chart, QtGui.QHelpEvent(QEvent.Type.ToolTip, point, chart.mapToGlobal(point)))
    lens.wait(lambda: first in QtWidgets.QToolTip.text(), what=f"the tooltip naming {first!r}")


def test_the_budget_summary_marks_the_previous_count_while_counting_again(lens) -> None:
    """A host change recounts: until the new count is in, the summary's figures are the old tokenizer's
    (the outside tester saw "exact (o200k_base tokenizer)" beside "counting…" with the pickers on Claude),
    so they say they are the previous count; the new count replaces them."""
    lens.start()
    at_size(lens, 1280, 860)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    totals = lens.find("Budget totals", QLabel)
    lens.wait(lambda: "tools/list" in totals.text(), 30_000, "the first count")
    before = totals.text()
    choose_by_keys(lens, "Host", "Claude Code")  # the count runs in a thread: its answer waits for the event loop
    assert totals.text() != before and totals.text().startswith("Previous count"), totals.text()
    lens.wait(lambda: "as Claude Code sends them" in totals.text(), 30_000, "the new count")
    assert "Previous count" not in totals.text(), totals.text()


def test_the_budget_summary_reads_whole_at_1280(lens) -> None:
    """Host Claude Code: the summary line is long ("… tokens as Claude Code sends them · … of a … window ·
    how it was counted"); at 1280×860 it wraps onto two lines rather than being cut mid-figure (the outside
    tester: "(1,203,50…"); at 1024 its second line may elide (the tooltip has it whole)."""
    from drawn_text import drawn_texts

    lens.start()
    at_size(lens, 1280, 860)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    choose_by_keys(lens, "Host", "Claude Code")
    totals = lens.find("Budget totals", QLabel)
    lens.wait(lambda: "as Claude Code sends them" in totals.text(), 30_000, "the host's count")
    lens.qtbot.wait(200)
    drawn = drawn_texts(totals)
    assert "".join(drawn).replace(" ", "") == totals.text().replace(" ", ""), f"{drawn!r} of {totals.text()!r}"
    assert totals.height() >= len(drawn) * totals.fontMetrics().height(), f"{len(drawn)} lines in {totals.height()} px"


TYPICAL_TOOL_NAME = 20  # characters: "schedule_meeting", "get_weather_forecast"; longer names may elide


def cut_tool_names(table: QTableView) -> list[str]:
    """The Tool column's names of a typical length that it does not show whole (the numbers took the room:
    the walkthrough at 1024 px saw "s…g")."""
    model, header = table.model(), table.horizontalHeader()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    names = [str(model.data(model.index(row, 0)) or "") for row in range(model.rowCount())]
    return [
        f"tool {name!r} needs {table.fontMetrics().horizontalAdvance(name) + margin} px, has {header.sectionSize(0)}"
        for name in names
        if len(name) <= TYPICAL_TOOL_NAME
        and header.sectionSize(0) < table.fontMetrics().horizontalAdvance(name) + margin
    ]


# The longest typical method, in characters (tools/list, server/discover, resources/read): longer ones may elide.
TYPICAL_METHOD = 16


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_traffic_logs_kind_and_method_read_at_1024(lens, size: tuple[int, int]) -> None:
    """Three servers (the Server column shown) at 1024×700 and 1280×860: the Kind and Status columns show
    every label they can hold whole (the outside tester saw "era probe r…", "notifications/subscripti…",
    "unkn…", "exit c…"), and the Method column a typical method whole. The actions stay reachable."""
    from inspector.traffic.labels import KIND_LABELS, STATUS_LABELS
    from inspector.ui.traffic.model import COL_KIND, COL_METHOD, COL_STATUS

    three_servers(lens)
    at_size(lens, *size)
    lens.click_item("Traffic log", "tools/list")
    lens.qtbot.wait(200)
    table = lens.find("Traffic log")
    model, header = table.model(), table.horizontalHeader()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    metrics = table.fontMetrics()
    cut = []
    for column, labels in ((COL_KIND, KIND_LABELS), (COL_STATUS, STATUS_LABELS)):
        assert not header.isSectionHidden(column)
        shown = {str(model.data(model.index(row, column)) or "") for row in range(model.rowCount())}
        unknown = {text for text in shown if shape(text) not in {shape(label) for label in labels}}
        assert not unknown, f"not in the table of labels: {unknown}"
        for text in (*labels, *shown):
            if header.sectionSize(column) < (need := metrics.horizontalAdvance(text) + margin):
                cut.append(f"{COLUMNS_NAMES[column]} {text!r}: {need} px needed, has {header.sectionSize(column)}")
    for row in range(model.rowCount()):
        text = str(model.data(model.index(row, COL_METHOD)) or "")
        need = metrics.horizontalAdvance(text) + margin
        if len(text) <= TYPICAL_METHOD and header.sectionSize(COL_METHOD) < need:
            cut.append(f"Method {text!r}: {need} px needed, has {header.sectionSize(COL_METHOD)}")
    widths = {model.headerData(c, Qt.Orientation.Horizontal): header.sectionSize(c) for c in range(header.count())}
    assert not cut, "\n".join(sorted(set(cut))) + f"\n{widths} in {header.width()} px"
    assert not clipped(lens.window.dock), clipped(lens.window.dock)
    for name in ("Copy message", "Re-send", "Save to collection", "Jump to pair"):
        assert any(b.isVisible() and strip_mnemonic(b.text()) == name for b in lens.widgets(QToolButton)), name


COLUMNS_NAMES = {5: "Kind", 10: "Status"}


def shape(label: str) -> str:
    """A label with its numbers as 0: "exit 3" and "exit 255" are one label ("error -32601" another)."""
    return re.sub(r"\d+", "0", label)


SMALL_SCREEN = (1024, 700)


def test_the_first_window_fits_the_screen(lens, tmp_path: Path) -> None:
    """A first run on a screen smaller than 1280×860: the window fits the screen's available area instead of
    leaving its bottom off-screen. The journeys' screen is 1920×1080 (tests/offscreen_screen.json), where the
    first window is 1280×860; this test then runs itself again in a process whose screen is 1024×700."""
    window = lens.start()
    screen = window.screen().availableGeometry()
    if screen.width() >= 1280 and screen.height() >= 860:
        assert (window.width(), window.height()) == (1280, 860), window.size()
        config = tmp_path / "small_screen.json"
        config.write_text(
            json.dumps(
                {
                    "screens": [
                        {
                            "name": "small",
                            "x": 0,
                            "y": 0,
                            "width": SMALL_SCREEN[0],
                            "height": SMALL_SCREEN[1],
                            "logicalDpi": 96,
                            "dpr": 1,
                        }
                    ]
                }
            )
        )
        env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
        test = f"{Path(__file__).relative_to(REPO)}::test_the_first_window_fits_the_screen"
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", test],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
        return
    assert (screen.width(), screen.height()) == SMALL_SCREEN, screen  # the run above chose it
    assert window.width() <= screen.width() and window.height() <= screen.height(), (window.size(), screen)
    assert screen.contains(window.frameGeometry()), (window.frameGeometry(), screen)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_description_lab_fits_the_window(lens, size: tuple[int, int]) -> None:
    """Budget › Description lab at 1024×700 widened the window to 1067 px, past a 1024 px screen (issue 21,
    outside tester): its counts and timing asked for their whole width on one line. Each tool in turn."""
    lens.start()
    at_size(lens, *size)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting", timeout=30_000)
    lens.tab("Description lab")
    lab = lens.window.findChild(QWidget, "budgetPane").lab
    box = lab.findChild(QComboBox, "labTool")
    problems: list[str] = []
    for index in range(box.count()):
        if index:  # the next tool, by keys on the closed box
            lens.click(box)
            lens.key("Escape")
            QTest.keyClick(box, Qt.Key.Key_Down)
        lens.wait(lambda i=index: box.currentIndex() == i, what=f"tool {index} chosen")
        lens.wait(lambda: "tokens" in lab.list_count.text(), 30_000, "the lab counted")
        lens.qtbot.wait(100)
        hint = lens.window.minimumSizeHint().expandedTo(lens.window.minimumSize())
        if hint.width() > size[0] or hint.height() > size[1]:
            problems.append(f"{box.currentText()}: the window asks for {hint.width()}×{hint.height()}")
        if (lens.window.width(), lens.window.height()) != size:
            problems.append(f"{box.currentText()}: the window grew to {lens.window.width()}×{lens.window.height()}")
        problems += off_screen(lens.window) + clipped(lab)
    assert not problems, "\n".join(dict.fromkeys(problems))


def wholly_shown(widget: QWidget) -> bool:
    """On screen whole: no parent (a scroll area's viewport) cuts any of it."""
    return widget.isVisible() and widget.visibleRegion().boundingRect().size() == widget.size()


FIRST_FIELDS = [
    ("tools", "current_time", "timezone"),
    ("demo", "Echo (echo)", "message"),
    ("demo", "Schedule a meeting", "title"),
]


@pytest.mark.parametrize("tool", FIRST_FIELDS, ids=lambda t: t[2])
def test_the_tools_form_shows_its_first_field_whole_at_1024_by_700(lens, tool: tuple[str, str, str]) -> None:
    """Issue 21 (outside tester, mcp-server-time at 1024×700): the Tools form showed a sliver of its first
    input box under its three-line help, the empty result pane below keeping its room. A tool chosen, its
    first field's box is on screen whole without scrolling, and so is Call."""
    server, name, field = tool
    if server == "tools":
        lens.start("--", sys.executable, str(REPO / "tests/servers/tools_server.py"))
    else:
        three_servers(lens)
    at_size(lens, 1024, 700)
    lens.click_item("Tool list", name)
    lens.qtbot.wait(200)
    box = lens.find(field)
    lens.wait(lambda: wholly_shown(box), 5_000, f"{field!r} of {name!r} shown whole ({box.visibleRegion()})")
    assert wholly_shown(lens.find("Call  (Ctrl+Enter)"))


def result_room(lens: Any) -> tuple[int, int]:
    """The shown result's scroll area: its viewport's height and a line's height in it."""
    from inspector.ui.results import ResultView

    view = next(w for w in lens.widgets(ResultView) if w.isVisible())
    return view.scroll.viewport().height(), view.fontMetrics().lineSpacing()


RESULT_LINES = 6  # after a call, the result shows at least this many lines (one before, 09-echo-called.png)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_called_tools_result_gets_a_useful_height(lens, size: tuple[int, int]) -> None:
    """Issue 22 point 5 (outside tester, 09-echo-called.png): after echo's call at 1280×860 the result box
    showed one line and cut "Raw result JSON" below it. After a call the result shows several lines and
    (at 1280×860) its Raw result JSON button whole."""
    from inspector.ui.results import ResultView

    three_servers(lens)
    at_size(lens, *size)
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "hello canary")
    lens.click("Call  (Ctrl+Enter)")
    view = next(w for w in lens.widgets(ResultView) if w.isVisible())
    lens.wait(lambda: view.state == "ok", 30_000, "echo's result")
    lens.qtbot.wait(200)
    shown, line = result_room(lens)
    assert shown >= RESULT_LINES * line, f"the result shows {shown} px ({shown // line} lines) at {size}"
    if size == (1280, 860):  # at 1024×700 the form keeps its field and Raw result JSON scrolls into view
        toggle = view.raw_toggle
        lens.wait(lambda: wholly_shown(toggle), 5_000, f"Raw result JSON whole ({toggle.visibleRegion()})")


def test_a_megabyte_result_gets_a_useful_height_at_1008_by_672(lens) -> None:
    """Issue 22 point 5 (outside tester, 52-big-result.png): a 1,000,000-character result at ~1008×672
    was one line tall, its scroll bar over the text. It shows several lines of its text."""
    lens.start("--", sys.executable, str(REPO / "tests/servers/big.py"), "result", "1000000")
    at_size(lens, 1008, 672)
    lens.click_item("Tool list", "big_result", timeout=30_000)
    lens.click("Call  (Ctrl+Enter)")
    lens.wait_text("Showing the first 200,000 of", timeout=60_000)
    lens.qtbot.wait(200)
    shown, line = result_room(lens)
    assert shown >= RESULT_LINES * line, f"the result shows {shown} px ({shown // line} lines)"


HISTORY_ROWS = 4  # History shows at least this many rows (one before, 41-history-persisted-1024.png)


def test_history_shows_several_rows_at_1024_by_700(lens) -> None:
    """Issue 22 point 5 (outside tester, 41-history-persisted-1024.png): at 1024×700 the History tab
    showed one row of the calls. With five calls made, it shows at least four rows."""
    from inspector.ui.results import ResultView

    three_servers(lens)
    at_size(lens, 1024, 700)
    lens.click_item("Tool list", "Echo (echo)")
    view = next(w for w in lens.widgets(ResultView) if w.isVisible())
    for number in range(5):
        lens.type("message", f"call {number}")
        lens.click("Call  (Ctrl+Enter)")
        lens.wait(lambda n=number: view.state == "ok" and f"call {n}" in view.raw_text, 30_000, f"call {number}")
    lens.tab("History")
    table = lens.find("Call history", QTableWidget)
    lens.wait(lambda: table.rowCount() == 5, 30_000, "five calls in History")
    lens.qtbot.wait(200)
    rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
    assert rows >= HISTORY_ROWS, f"History shows {rows} rows ({table.viewport().height()} px)"


def test_the_tool_list_keeps_its_width_and_elides_names_at_their_end(lens) -> None:
    """Issue 22 point 5 (outside tester, 66-fresh-1024 → 67-tab-1024, 36-history): at 1024×700 the tool
    list narrowed from 275 to 225 px when a tool was selected, and names were cut mid-word with a
    horizontal scroll bar. The list keeps its width when the selection changes, has no horizontal
    scroll bar, cuts a long name at its end, and its tooltip gives the whole name."""
    three_servers(lens)
    at_size(lens, 1024, 700)
    view = lens.find("Tool list")
    lens.qtbot.wait(200)
    before = view.width()
    for name in ("Echo (echo)", "Schedule a meeting", "Echo (echo)"):
        lens.click_item("Tool list", name)
        lens.qtbot.wait(200)
        assert view.width() == before, f"the list went from {before} to {view.width()} px on {name!r}"
    assert not view.horizontalScrollBar().isVisible(), "a horizontal scroll bar under the tool list"
    assert view.textElideMode() == Qt.TextElideMode.ElideRight
    model = view.model()
    for row in range(model.rowCount()):
        head = model.data(model.index(row, 0), Qt.ItemDataRole.UserRole).head()
        tip = str(model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole))
        assert head in tip, f"the tooltip of {head!r} does not name it: {tip[:80]!r}"


DOCTOR_ROWS = {(1024, 700): 6, (1280, 860): 10}  # findings rows the Doctor tab shows (1.8 and 6.4 before)


def test_the_doctor_tab_shows_its_findings_and_what_did_not_run(lens) -> None:
    """Issue 25 (outside tester, defect 8): at 1024×700 the Doctor tab showed ~1.5 finding rows and its
    "Not run" line cut to one line with "…"; at 1280×860 ~4 rows and the list cut at three lines. The
    demo's report at both sizes: several findings rows, the line naming every check that did not run whole,
    and why one click away (the Checks page)."""
    lens.start()
    lens.tab("Doctor")
    lens.click("Run doctor")
    lens.click("Start")
    lens.wait_text("Score 84/100", timeout=120_000)
    table = lens.find("Doctor findings", QTableWidget)
    line = lens.find("Doctor coverage", QLabel)
    for size, least in DOCTOR_ROWS.items():
        at_size(lens, *size)
        lens.qtbot.wait(200)
        rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
        assert table.rowCount() >= DOCTOR_ROWS[(1024, 700)], table.rowCount()  # the demo has enough to fill it
        wanted = min(least, table.rowCount())  # the rows there are, when fewer than the room
        assert rows >= wanted, f"{size}: the findings show {rows} rows ({table.viewport().height()} px)"
        assert not table.horizontalScrollBar().isVisible()
        assert line.text().startswith("Not run: ") and wholly_shown(line) and not line.elided(), line.text()
        tab = next(w for w in lens.widgets() if w.objectName() == "doctorTab")
        assert not clipped(tab), size
    lens.click("Why not…")
    lens.click_item("Doctor checks", "ping")
    assert lens.shows("2026-07-28 removed ping")


def test_the_as_task_box_shows_its_label_whole_at_1024_by_700(lens) -> None:
    """Issue 25 (outside tester, 1024×700): with a tool that can run as a task chosen, the Call row's
    "As task" box was squeezed to its tick, its label cut off. It shows whole, right under Call."""
    lens.start()
    at_size(lens, 1024, 700)
    lens.click_item("Tool list", "Research a topic")
    box = lens.find("Run as task", QAbstractButton)
    lens.wait(box.isVisible, 10_000, "the As task box shown")
    lens.qtbot.wait(200)
    assert box.text() == "As task" and wholly_shown(box)
    assert box.width() >= box.sizeHint().width(), f"As task gets {box.width()} of {box.sizeHint().width()} px"
    assert wholly_shown(lens.find("Call  (Ctrl+Enter)"))


SKILL_LINES = {(1024, 700): 6, (1280, 860): 10}  # SKILL.md lines the Skills tab's content shows (2-3 before)
FILE_ROWS = {(1024, 700): 2, (1280, 860): 4}  # rows of the Files table in sight (reachable only by scrolling before)


def test_the_skills_tab_gives_the_content_and_the_files_room(lens) -> None:
    """Issue 26 (outside tester, layout): at 1280×860 the content showed 2-3 lines of SKILL.md, the Files
    table was reachable only by scrolling, its names clipped ("references/S…"); at 1024×700 the buttons
    scrolled out of view. At both sizes: the buttons and the Files table in sight, the names whole, enough
    lines of content, nothing clipped."""
    lens.start()
    lens.tab("Skills")
    lens.click_item("Skills", "release-notes", timeout=30_000)
    lens.click("Load skill")
    lens.wait(lambda: "verified" in lens.find("Skill verification", QLabel).text(), 30_000, "SKILL.md verified")
    content = lens.find("Skill content", QtWidgets.QPlainTextEdit)
    files = lens.find("Skill files", QTableWidget)
    for size, least in SKILL_LINES.items():
        at_size(lens, *size)
        lens.qtbot.wait(200)
        lines = content.viewport().height() // content.fontMetrics().lineSpacing()
        assert lines >= least, f"{size}: the content shows {lines} lines ({content.viewport().height()} px)"
        for name in ("Load skill", "Read file", "List files"):
            assert wholly_shown(lens.find(name, QPushButton)), f"{size}: {name} out of sight"
        assert wholly_shown(files), f"{size}: the Files table is cut"
        rows = files.viewport().height() // files.verticalHeader().defaultSectionSize()
        assert rows >= FILE_ROWS[size], f"{size}: {rows} file rows in sight"
        names = [files.item(row, 0).text() for row in range(files.rowCount())]
        assert "references/STYLE.md" in names, names
        widest = max(files.fontMetrics().horizontalAdvance(n) for n in names)
        assert files.columnWidth(0) >= widest + 8, f"{size}: file names clipped ({files.columnWidth(0)} px)"
        tab = lens.find("Skill content").parentWidget()
        while tab.parentWidget() is not None and tab.objectName() != "skillsSplitter":
            tab = tab.parentWidget()
        assert not clipped(tab), (size, clipped(tab))


HOSTILE = REPO / "tests/servers/hostile_text.py"


def test_a_servers_long_one_line_texts_never_widen_the_window(lens) -> None:
    """A tool named with a few hundred characters and a 1 MB description, its call's result header and an
    error's message: each one line, cut to the room there is; the window keeps the size the user gave it."""
    lens.start("--", sys.executable, str(HOSTILE), "/nonexistent/fifo")
    lens.wait_connected()
    at_size(lens, 1264, 812)
    window = lens.window
    for tool in ("tool name", "fails", "tool title"):
        lens.click_item("Tool list", tool)
        lens.qtbot.wait(200)
        if tool != "tool title":
            calls = len(lens.sent("tools/call"))
            lens.click("Call  (Ctrl+Enter)")
            lens.wait(lambda calls=calls: len(lens.sent("tools/call")) > calls, what=f"{tool}'s call sent")
            lens.wait(lambda: "Result" in lens.texts() or "Error" in lens.texts(), 30_000, f"{tool}'s result")
            lens.qtbot.wait(300)
        grew = (window.width(), window.height()) != (1264, 812)
        assert not grew, f"{tool}: the window grew to {window.width()}×{window.height()}: {widest(window)}"
        hint = window.minimumSizeHint()
        assert hint.width() <= 1024, f"{tool}: the window now needs {hint.width()} px: {widest(window)}"


def widest(window: QWidget) -> str:
    """The widgets asking the most width (what pushed the window out)."""
    asks = [
        (w.minimumSizeHint().width(), where(w), (w.text() if isinstance(w, QLabel) else "")[:40])
        for w in window.findChildren(QWidget)
        if w.isVisible()
    ]
    return ", ".join(f"{name} {text!r} {width} px" for width, name, text in sorted(asks, reverse=True)[:8])


def where(widget: QWidget) -> str:
    """A widget by its class and name, in its parent's."""
    names = []
    while widget is not None and len(names) < 3:
        names.append(f"{type(widget).__name__}{'#' + widget.objectName() if widget.objectName() else ''}")
        widget = widget.parentWidget()
    return " < ".join(names)


def test_after_a_call_the_form_keeps_its_field_and_another_servers_header_reads(lens, everything: str) -> None:
    """Outside tester of issue 21, finding 8 (server-everything at 1024×700): after echo's call the form side
    was ~50 px, the box typed into hidden under the result's room; then a saved server not connected showed
    "Select a tool" and the line under it cut, in a ~30 px pane with a scroll bar. After the call the box typed
    into is whole (a squeezed form side scrolls to it; the result keeps its lines); the other server's header
    and its "Choose a tool" line read whole, with the Result tab and with History shown."""
    from inspector.ui.results import ResultView
    from inspector.ui.tools.workbench import NO_TOOL

    save_servers(lens, {"everything": {"command": "node", "args": [everything]}, "not connected": {"command": "true"}})
    lens.start()
    at_size(lens, 1024, 700)
    open_server(lens, "everything")
    lens.wait(lambda: announced(lens, "everything").startswith("everything, connected"), 60_000, "connected")
    lens.click_item("Tool list", "echo", timeout=60_000)
    box = lens.type("message", "hello <b>x</b>")
    lens.key("Ctrl+Return", box)
    view = next(w for w in lens.widgets(ResultView) if w.isVisible())
    lens.wait(lambda: view.state == "ok", 60_000, "echo's result")
    lens.qtbot.wait(300)
    assert wholly_shown(box), f"the message box after the call: {box.visibleRegion().boundingRect()} of {box.size()}"
    assert wholly_shown(lens.find("Call  (Ctrl+Enter)"))
    shown, line = result_room(lens)
    assert shown >= RESULT_LINES * line, f"the result shows {shown} px ({shown // line} lines)"

    lens.click_item("Servers", "not connected")
    lens.wait(lambda: any(w.isVisible() and w.text() == NO_TOOL for w in lens.widgets(QLabel)), what="no tool")
    lens.qtbot.wait(300)
    title = next(w for w in lens.widgets(QLabel) if w.isVisible() and w.text() == "Select a tool")
    line = next(w for w in lens.widgets(QLabel) if w.isVisible() and w.text() == NO_TOOL)
    assert wholly_shown(title), f"'Select a tool': {title.visibleRegion().boundingRect()} of {title.size()}"
    assert wholly_shown(line), f"the line under it: {line.visibleRegion().boundingRect()} of {line.size()}"
    lens.tab("History")  # its rows take the room below: the header still reads
    lens.qtbot.wait(300)
    assert wholly_shown(title), f"with History: {title.visibleRegion().boundingRect()} of {title.size()}"
    assert wholly_shown(line), f"with History, the line: {line.visibleRegion().boundingRect()} of {line.size()}"
