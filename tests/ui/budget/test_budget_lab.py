"""Description lab: counts and lints follow typing (debounced, incremental); copy; reset; the server is untouched."""

from __future__ import annotations

import json
import time

from budget_ui_support import LINT_PROFILE, show_budget, wait_report
from PySide6.QtGui import QGuiApplication
from ui_support import connect, dark_palette, screenshot

from inspector.ui.budget.lab import DEBOUNCE_MS
from inspector.ui.main_window import MainWindow


def open_lab(qtbot, window: MainWindow):
    pane = window.budget
    show_budget(window)
    wait_report(qtbot, pane)
    pane.views.setCurrentWidget(pane.lab)
    return pane.lab


def test_count_follows_typing_and_never_touches_the_server(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    lab = open_lab(qtbot, window)
    pane = window.budget
    original_tools = json.dumps(pane.tools, sort_keys=True)
    assert lab.select("echo")
    original = lab.editor.toPlainText()
    assert original and "(unchanged)" in lab.description_count.text()
    base_tool = lab.base.tools[lab.tool_index()].total

    addition = " It also explains, at great and tiresome length, every detail of how echoing works."
    lab.editor.moveCursor(lab.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(lab.editor, addition)
    assert lab.timer.isActive()  # debounced: not recounted on every key
    qtbot.waitUntil(lambda: not lab.timer.isActive() and "was" in lab.description_count.text(), timeout=5000)
    assert lab.editor.toPlainText() == original + addition
    now = lab.current.tools[lab.tool_index()].total
    assert now > base_tool
    assert f"was {base_tool:,}" in lab.tool_count.text()
    assert lab.current.total > lab.base.total
    assert lab.last_ms < 100, lab.last_ms  # incremental recount of one changed description

    QGuiApplication.clipboard().clear()
    lab.copy_description.click()
    assert QGuiApplication.clipboard().text() == original + addition
    lab.copy_tool.click()
    copied = json.loads(QGuiApplication.clipboard().text())
    assert copied["name"] == "echo" and copied["description"] == original + addition

    # The pane's own figures and the server's list are unchanged: edits live only in the lab.
    assert json.dumps(pane.tools, sort_keys=True) == original_tools
    assert "never changes the server" in lab.findChild(type(lab.description_count), "labNotice").text()

    window.setPalette(dark_palette())
    window.resize(1400, 900)
    window.dock.hide()
    qtbot.wait(200)
    screenshot(window.budget, "budget_lab.png")

    lab.reset_field.click()
    assert lab.editor.toPlainText() == original
    qtbot.waitUntil(lambda: "(unchanged)" in lab.tool_count.text(), timeout=5000)


def test_property_description_and_lints_update(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LINT_PROFILE)
    lab = open_lab(qtbot, window)
    assert lab.select("undocumented")
    labels = [lab.field_box.itemText(i) for i in range(lab.field_box.count())]
    assert labels[:3] == ["Tool description", "Property target", "Property count"]
    lab.update_counts()
    codes = {lint.code for lint in lab.current.lints if lint.tool == "undocumented"}
    missing = {lint.code for lint in lab.lints.model.lints}
    assert codes == missing and missing  # the lab lists this tool's lints
    before = len(lab.lints.model.lints)
    qtbot.keyClicks(lab.editor, "Send a greeting to the target and count how often it was sent.")
    qtbot.wait(DEBOUNCE_MS + 50)
    qtbot.waitUntil(lambda: len(lab.lints.model.lints) < before, timeout=5000)  # "no description" is gone
    # A property's description: the tool grows, the count is of that property only.
    assert lab.select("undocumented", "Property count")
    started = time.perf_counter()
    qtbot.keyClicks(lab.editor, "How many times.")
    lab.update_counts()
    assert (time.perf_counter() - started) < 2
    assert lab.edited_tool()["inputSchema"]["properties"]["count"]["description"] == "How many times."
    assert lab.edited_tool()["description"].startswith("Send a greeting")  # both edits kept
    lab.reset_all.click()
    assert lab.edited == {}
    assert lab.editor.toPlainText() == ""
