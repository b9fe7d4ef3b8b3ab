"""Traffic log journeys: the filter bar, failures flagged, the dock's layout, the output panes, export and reopen."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from journey_support import accessible_name, shown_text
from lens_support import HOSTILE
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QWidget,
)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


# -- what the traffic log shows ------------------------------------------------------------------
def log(lens: Any) -> QTableView:
    return lens.find("Traffic log", QAbstractItemView)


def header_names(view: QTableView) -> list[str]:
    model = view.model()
    return [str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())]


def shown_rows(view: QTableView) -> list[dict[str, str]]:
    """Every row the log's model holds (what scrolling would show), as {column title: text}."""
    model, names = view.model(), header_names(view)
    return [
        {name: str(model.index(row, column).data() or "") for column, name in enumerate(names)}
        for row in range(model.rowCount())
    ]


def choose(lens: Any, combo_name: str, item: str) -> None:
    """Open a combo box by a click and click one of its items, as a person does."""
    combo = lens.find(combo_name, QComboBox)
    lens.click(combo)
    popup = combo.view()
    lens.qtbot.waitUntil(popup.isVisible, timeout=5_000)
    lens.qtbot.wait(lens.qapp.doubleClickInterval() + 50)  # Qt ignores a release this soon after opening
    lens.click_item(popup, item)
    lens.qtbot.waitUntil(lambda: combo.currentText() == item, timeout=5_000)


def click_row(lens: Any, view: QAbstractItemView, row: int) -> None:
    """Scroll a row into view and click it."""
    index = view.model().index(row, 0)
    view.scrollTo(index)
    QTest.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view.visualRect(index).center()
    )
    lens.qtbot.waitUntil(lambda: view.currentIndex().row() == row, timeout=2_000)


def call(lens: Any, tool: str, **fields: str) -> None:
    """Pick a tool, fill its fields and press its Call button."""
    lens.click_item("Tool list", tool)
    for name, value in fields.items():
        lens.type(name, value)
    button = next(b for b in lens.widgets(QPushButton) if shown_text(b).startswith("Call"))
    lens.click(button)


def hostile(mode: str) -> tuple[str, ...]:
    return ("--", sys.executable, str(HOSTILE), mode)


# -- point 2: the filter bar -------------------------------------------------------------------
def test_filter_text_direction_kind_and_errors_only(lens) -> None:
    lens.start()
    call(lens, "Echo (echo)", message="needle-4711")
    lens.qtbot.waitUntil(lambda: any(e.direction == "in" and b"needle-4711" in e.raw for e in lens.wire()))
    view = log(lens)
    everything = len(lens.wire())
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()), timeout=5_000)

    # Ctrl+F from the log puts the cursor in the filter; typing narrows the rows to the call's pair.
    lens.click(view)
    lens.key("Ctrl+F")
    field = lens.qapp.focusWidget()
    assert accessible_name(field) == "Traffic filter", f"Ctrl+F focused {accessible_name(field)!r}"
    lens.type(field, "NEEDLE-4711")  # case-insensitive
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == 2, timeout=5_000)
    rows = shown_rows(view)
    assert [(r[""], r["Kind"], r["Method"]) for r in rows] == [
        ("→", "request", "tools/call"),
        ("←", "response", "tools/call"),
    ]
    assert lens.shows(f"2 / {len(lens.wire()):,}")

    # Escape clears it: every entry again.
    lens.key("Escape", field)
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()) >= everything, timeout=5_000)
    assert shown_text(field) == ""

    # Direction, then kind, through their combo boxes.
    choose(lens, "Direction", "→ to server")
    lens.qtbot.waitUntil(lambda: 0 < view.model().rowCount() < len(lens.wire()), timeout=5_000)
    assert {r[""] for r in shown_rows(view)} == {"→"}
    assert view.model().rowCount() == sum(1 for e in lens.wire() if e.direction == "out")
    choose(lens, "Kind", "request")
    # (auto's server/discover is MCP Lens's own era probe: its Kind cell says so, "era probe")
    lens.qtbot.waitUntil(lambda: {r["Kind"] for r in shown_rows(view)} == {"request", "era probe"}, timeout=5_000)
    assert {r["Method"] for r in shown_rows(view)} >= {"server/discover", "tools/list", "tools/call"}  # modern demo
    assert {r["Kind"] for r in shown_rows(view) if r["Method"] == "server/discover"} == {"era probe"}
    choose(lens, "Direction", "All directions")
    choose(lens, "Kind", "All kinds")
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()), timeout=5_000)

    # Errors only: nothing failed on the demo, so no row is left; unticked, all are back.
    lens.click("Errors only")
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == sum(1 for e in lens.wire() if e.flagged), timeout=5_000)
    lens.click("Errors only")
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()), timeout=5_000)
    assert lens.quit() == 0


# -- point 9: failures are never "ok" ----------------------------------------------------------
def row_with(view: QTableView, text: str) -> dict[str, str]:
    rows = [r for r in shown_rows(view) if text in r["Method"]]
    assert rows, f"no row with {text!r}: {[r['Method'] for r in shown_rows(view)]}"
    return rows[0]


def test_a_crash_is_flagged_and_errors_only_shows_it(lens) -> None:
    lens.start(*hostile("exit-mid-call"))
    call(lens, "work")
    view = log(lens)
    lens.qtbot.waitUntil(lambda: any("exited with code 3" in r["Method"] for r in shown_rows(view)), timeout=10_000)
    crash = row_with(view, "process exited with code 3")
    assert crash["Status"] != "ok" and "3" in crash["Status"], crash
    lens.click("Errors only")
    lens.qtbot.waitUntil(lambda: view.model().rowCount() < len(lens.wire()), timeout=5_000)
    assert row_with(view, "process exited with code 3")
    assert all(r["Status"] != "ok" for r in shown_rows(view))


def call_response(view: QTableView) -> dict[str, str] | None:
    return next((r for r in shown_rows(view) if r["Kind"] == "response" and r["Method"] == "tools/call"), None)


def test_a_result_with_error_findings_is_not_ok(lens) -> None:
    lens.start(*hostile("bad-tools"))
    call(lens, "odd_content")  # answers with a content block of type "hologram"
    view = log(lens)
    lens.qtbot.waitUntil(lambda: (call_response(view) or {}).get("Status", "ok") != "ok", timeout=10_000)
    assert "finding" in call_response(view)["Status"]
    lens.click("Errors only")
    lens.qtbot.waitUntil(lambda: view.model().rowCount() < len(lens.wire()), timeout=5_000)
    assert call_response(view) is not None


def test_a_transport_error_is_flagged(lens, tmp_path: Path) -> None:
    from lens_support import free_port

    config = tmp_path / "mcp.json"
    url = f"http://127.0.0.1:{free_port()}/mcp"  # nothing listens there
    config.write_text(json.dumps({"mcpServers": {"gone": {"type": "http", "url": url}}}))
    lens.start("--config", str(config), "--server", "gone", connected=False)
    view = log(lens)
    lens.qtbot.waitUntil(lambda: any("failed" in r["Method"] for r in shown_rows(view)), timeout=15_000)
    for row in shown_rows(view):
        if "failed" in row["Method"]:
            assert row["Status"] != "ok", row


# -- point 10: the dock at the default size ----------------------------------------------------
def whole_rows(view: QTableView) -> tuple[int, bool]:
    """How many rows the log's viewport shows whole, and whether its top row is whole."""
    height = view.viewport().height()
    rects = [view.visualRect(view.model().index(row, 0)) for row in range(view.model().rowCount())]
    shown = [r for r in rects if r.bottom() >= 0 and r.top() < height]
    whole = [r for r in shown if r.top() >= 0 and r.bottom() < height]
    return len(whole), bool(shown) and shown[0].top() >= 0


def test_the_log_shows_whole_rows_and_a_useful_detail_pane_at_the_default_size(lens) -> None:
    window = lens.start()
    assert (window.width(), window.height()) == (1280, 860)
    lens.tab("Resources")  # listing and refreshing resources fills the log (and leaves the Tools tab as it is)
    refresh = lens.find("Refresh (F5)")
    for _ in range(3):
        lens.qtbot.waitUntil(refresh.isEnabled, timeout=10_000)  # the previous listing is done
        count = len(lens.wire())
        lens.click(refresh)
        lens.qtbot.waitUntil(lambda c=count: len(lens.wire()) >= c + 4, timeout=10_000)
    view = log(lens)
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()) >= 20, timeout=10_000)
    assert view.verticalScrollBar().maximum() > 0, "more rows than the log shows"
    last_response = max(row for row, r in enumerate(shown_rows(view)) if r["Kind"] == "response")
    click_row(lens, view, last_response)
    lens.wait_text('"result": {')
    assert "paired with request" in shown_text(lens.find("Selected entry"))
    lens.qtbot.wait(200)
    ARTIFACTS.mkdir(exist_ok=True)
    window.grab().save(str(ARTIFACTS / "journey_traffic_1280x860.png"))
    rows, top_whole = whole_rows(view)
    assert top_whole, "the top row of the log is cut"
    assert rows >= 10, f"the log shows {rows} whole rows"
    detail = lens.find("Message JSON")
    lines = detail.viewport().height() // detail.fontMetrics().lineSpacing()
    assert lines >= 10, f"the detail pane shows {lines} lines"


# -- point 10: the output panes ----------------------------------------------------------------
def last_row_shown(view: QAbstractItemView) -> bool:
    model = view.model()
    if model.rowCount() == 0:
        return False
    rect = view.visualRect(model.index(model.rowCount() - 1, 0))
    return rect.isValid() and rect.top() >= 0 and rect.bottom() <= view.viewport().height()


def notification_count(lens: Any) -> int:
    return sum(1 for e in lens.wire() if e.direction == "in" and e.kind == "notification")


def test_the_notifications_pane_follows_new_entries(lens) -> None:
    # Legacy: the demo logs without being asked (2026-07-28 sends none unless a request asks for a level).
    lens.start("--protocol-era", "legacy", sys.executable, "-m", "inspector.demo")
    # Notifications that arrive before the pane was ever shown: it opens on the newest.
    call(lens, "Emit log messages (emit_logs)")
    call(lens, "Slow task with progress (slow_task)", steps="20", delay="0")
    lens.qtbot.waitUntil(lambda: notification_count(lens) >= 24, timeout=10_000)
    lens.tab("Notifications")
    table = lens.find("Notifications", QAbstractItemView)
    lens.qtbot.waitUntil(lambda: table.model().rowCount() == notification_count(lens), timeout=5_000)
    lens.qtbot.waitUntil(lambda: last_row_shown(table), timeout=2_000)
    # Progress notifications one at a time, more than the pane shows: after each, the newest is in view.
    before = table.model().rowCount()
    call(lens, "Slow task with progress (slow_task)", steps="30", delay="0.05")
    for step in range(1, 31):
        lens.qtbot.waitUntil(lambda s=step: table.model().rowCount() >= before + s, timeout=10_000)
        lens.qtbot.waitUntil(lambda: last_row_shown(table), timeout=1_000)
    assert table.verticalScrollBar().maximum() > 0, "enough rows to scroll"
    # The window made smaller (by the window manager, as a person drags its edge): still on the newest.
    lens.window.resize(1280, 720)
    lens.qtbot.waitUntil(lambda: lens.window.height() < 860, timeout=2_000)
    before = table.model().rowCount()
    call(lens, "Emit log messages (emit_logs)")
    lens.qtbot.waitUntil(lambda: table.model().rowCount() >= before + 4, timeout=10_000)
    lens.qtbot.waitUntil(lambda: last_row_shown(table), timeout=2_000)
    # While another tab is in front, then back: still on the newest.
    lens.tab("Traffic")
    before = notification_count(lens)
    call(lens, "Emit log messages (emit_logs)")
    lens.qtbot.waitUntil(lambda: table.model().rowCount() >= before + 4, timeout=10_000)
    lens.tab("Notifications")
    lens.qtbot.waitUntil(lambda: last_row_shown(table), timeout=2_000)
    # Scrolled up by the user (a click in the pane, Ctrl+Home): it stays where they put it.
    lens.click(table)
    lens.key("Ctrl+Home", table)
    lens.qtbot.waitUntil(lambda: table.verticalScrollBar().value() == 0, timeout=2_000)
    call(lens, "Emit log messages (emit_logs)")
    lens.qtbot.waitUntil(lambda: table.model().rowCount() >= before + 8, timeout=10_000)
    lens.qtbot.wait(100)
    assert table.verticalScrollBar().value() == 0
    # Back at the end (Ctrl+End), it follows again.
    lens.key("Ctrl+End", table)
    before = table.model().rowCount()
    call(lens, "Emit log messages (emit_logs)")
    lens.qtbot.waitUntil(lambda: table.model().rowCount() >= before + 4, timeout=10_000)
    lens.qtbot.waitUntil(lambda: last_row_shown(table), timeout=2_000)


def test_server_output_tells_the_servers_lines_from_ours(lens) -> None:
    lens.start(*hostile("exit-mid-call"))
    call(lens, "work")
    lens.tab("Server output")
    pane = lens.find("Server output", QPlainTextEdit)
    lens.qtbot.waitUntil(lambda: "exited with code 3" in shown_text(pane), timeout=10_000)
    lines = shown_text(pane).splitlines()
    ours = [line for line in lines if "started pid" in line or "exited with code" in line]
    theirs = [line for line in lines if "crashing on purpose" in line]
    assert len(ours) == 2 and len(theirs) == 1, lines
    assert all(line.split()[1] == "lens" for line in ours), ours
    assert theirs[0].split()[1] == "stderr", theirs
    captions = [shown_text(label) for label in lens.widgets(QLabel, top=pane.parentWidget())]
    assert any("stderr" in text and "MCP Lens" in text for text in captions), captions


# -- journey: export a session and reopen it -----------------------------------------------------
def file_dialog(lens: Any) -> QFileDialog:
    """The file dialog that just opened (the app opens it without blocking, as `QFileDialog.open()` does)."""

    def shown() -> list[QWidget]:
        return [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible()]

    lens.qtbot.waitUntil(lambda: bool(shown()), timeout=5_000)
    return shown()[0]


def without_blocking(lens: Any, action: Any) -> None:
    """Run a user action that opens a dialog; fail (instead of hanging) if the dialog blocks in `exec()`."""
    running, blocked = [True], []

    def rescue() -> None:
        if running[0]:  # still inside the action: a nested event loop runs the dialog
            for widget in lens.qapp.topLevelWidgets():
                if isinstance(widget, QDialog) and widget.isVisible():
                    blocked.append(widget.windowTitle())
                    widget.reject()

    QTimer.singleShot(3_000, rescue)
    action()
    running[0] = False
    assert not blocked, f"the dialog {blocked} blocked the app in exec(): it cannot be used while it is open"


def choose_file(lens: Any, path: Path) -> None:
    """Paste a path into the open file dialog's file name field and press Return, as a person does.

    Pasted, not typed key by key: typing an absolute path offscreen lets the dialog's completer select
    each folder on the way (its popup takes the focus there), and Return would then open "/".
    """
    dialog = file_dialog(lens)
    field = lens.find("File name:", QLineEdit, top=dialog)
    lens.click(field)
    QGuiApplication.clipboard().setText(str(path))
    lens.key(QKeySequence.StandardKey.SelectAll, field)
    lens.key(QKeySequence.StandardKey.Paste, field)
    assert field.text().endswith(path.name)  # a file in the folder shown reads as its name
    lens.key("Return", field)
    lens.qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5_000)


def viewer_window(lens: Any) -> QWidget:
    def shown() -> list[QWidget]:
        return [w for w in lens.qapp.topLevelWidgets() if w.isVisible() and "(read-only)" in w.windowTitle()]

    lens.qtbot.waitUntil(lambda: bool(shown()), timeout=5_000)
    return shown()[0]


def test_export_a_session_and_open_it_read_only(lens, tmp_path: Path) -> None:
    lens.start()
    call(lens, "Echo (echo)", message="kept in the record")
    lens.qtbot.waitUntil(lambda: any(e.direction == "in" and b"kept in the record" in e.raw for e in lens.wire()))
    view = log(lens)
    lens.qtbot.waitUntil(lambda: view.model().rowCount() == len(lens.wire()), timeout=5_000)
    exported = shown_rows(view)
    path = tmp_path / "my session.jsonl"

    without_blocking(lens, lambda: lens.key("Ctrl+S"))  # File › Export session…
    choose_file(lens, path)
    lens.wait_status(lambda text: f"Exported {len(exported)} entries" in text)
    assert path.exists()
    assert b"kept in the record" in path.read_bytes()

    without_blocking(lens, lambda: lens.menu("File", "Open session…"))
    choose_file(lens, path)
    viewer = viewer_window(lens)
    assert viewer.windowTitle().startswith("my session.jsonl")
    reopened = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.qtbot.waitUntil(lambda: reopened.model().rowCount() == len(exported), timeout=5_000)
    assert shown_rows(reopened) == exported
    # Read-only: no Re-send, no Clear.
    names = {accessible_name(w) for w in lens.widgets(top=viewer)}
    assert "Re-send…" not in names and "Clear" not in names
    viewer.close()
    assert lens.quit() == 0


def test_ctrl_f_from_anywhere_in_the_window_goes_to_the_traffic_filter(lens) -> None:
    """Typing in a tool's form, then Ctrl+F: the keys go to the traffic filter, not into the form."""
    lens.start()
    lens.tab("Server output")  # the log is not even the visible bottom tab
    lens.click_item("Tool list", "Echo (echo)")
    field = lens.type("message", "hello")
    lens.key("Ctrl+F", field)
    filter_edit = lens.find("Traffic filter")
    lens.wait(filter_edit.hasFocus, what="the filter has the keyboard focus")
    QTest.keyClicks(QApplication.focusWidget(), "tools/list")
    assert shown_text(field) == "hello"
    assert shown_text(filter_edit) == "tools/list"
