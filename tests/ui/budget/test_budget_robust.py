"""Malformed tool lists (as a broken server may send) are counted, shown and edited without a crash."""

from __future__ import annotations

import sys

from budget_ui_support import show_budget, wait_report
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from inspector.ui.budget import budget_menu, budget_panel
from inspector.ui.main_window import MainWindow

ODD_TOOLS = [
    {"name": 5, "description": "A number for a name."},
    {"name": "schema_is_a_string", "inputSchema": "not an object"},
    {"name": "description_is_a_number", "description": 12, "inputSchema": {"type": "object"}},
    {"name": "props_not_a_dict", "inputSchema": {"type": "object", "properties": ["a", "b"]}},
    {"name": "nested", "inputSchema": {"type": "object", "properties": {"a": {"properties": {"b": {}}}}}},
    {},
    {"name": "<img src=x onerror=alert(1)>", "description": "<b>markup</b> stays text"},
    {"name": "dup", "description": "same"},
    {"name": "dup", "description": "same"},
]


def test_odd_tools_are_counted_shown_and_editable(qtbot, window: MainWindow, tmp_path) -> None:
    pane = window.budget
    show_budget(window)
    pane.set_tools(ODD_TOOLS, "odd server")
    report = wait_report(qtbot, pane)
    assert len(report.tools) == len(ODD_TOOLS)
    assert pane.overview.model.rowCount() == len(ODD_TOOLS)
    texts = [pane.overview.model.index(r, 0).data() for r in range(pane.overview.model.rowCount())]
    assert "<img src=x onerror=alert(1)>" in texts  # shown as the text it is
    assert pane.overview.lints.model.rowCount() > 0

    lab = pane.lab
    pane.views.setCurrentWidget(lab)
    for index in range(lab.tool_box.count()):
        lab.tool_box.setCurrentIndex(index)
        for field in range(lab.field_box.count()):
            lab.field_box.setCurrentIndex(field)
            lab.editor.setPlainText("edited")
            lab.update_counts()
            assert lab.tool_json()
    assert lab.select("nested", "Property a.b")

    path = pane.snapshots.save_to(tmp_path / "odd.json")
    assert path is not None
    assert pane.diff.diff(path) is not None  # the same list: nothing added or removed
    assert not pane.diff.result.added and not pane.diff.result.removed

    pane.compare.add_current()
    qtbot.waitUntil(lambda: not pane.compare.busy(), timeout=20000)
    assert pane.compare.model.sources[0].state == "ready", pane.compare.model.sources[0].detail


def test_double_click_opens_the_tool_in_the_lab(qtbot, window: MainWindow) -> None:
    pane = window.budget
    show_budget(window)
    pane.set_tools([{"name": "alpha", "description": "First."}, {"name": "beta", "description": "Second."}], "two")
    wait_report(qtbot, pane)
    view = pane.overview
    row = next(r for r in range(view.proxy.rowCount()) if view.proxy.index(r, 0).data() == "beta")
    view.table.doubleClicked.emit(view.proxy.index(row, 1))
    assert pane.views.currentWidget() is pane.lab
    assert pane.lab.tool_box.currentText() == "beta"
    assert pane.lab.editor.toPlainText() == "Second."


def test_a_broken_install_gets_an_explaining_tab(qtbot, window: MainWindow, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "inspector.ui.budget.pane", None)  # makes the import fail
    widget = budget_panel(window.session, window.settings, window.servers.profiles)
    assert budget_menu(widget, window, lambda: None) is None, "no Budget menu for it"
    label = widget.findChildren(QLabel)[0]
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text().startswith("The token budget is unavailable")
