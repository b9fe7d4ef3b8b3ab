"""The description lab on a big list: its first (cold) count of the list runs on a worker thread, the
window keeps answering, and counts follow edits once it is back (issue 21: counting big lists in the
app never on the UI thread)."""

from __future__ import annotations

import threading

import pytest
from budget_ui_support import show_budget, wait_report

from inspector.budget.breakdown import BudgetCounter
from inspector.ui.main_window import MainWindow

TOOLS = [
    {
        "name": f"tool_{i:04d}",
        "description": f"Tool number {i} reads record {i} from the store and returns its fields.",
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": f"Record {i}."}}},
    }
    for i in range(2000)
]


def test_the_lab_counts_a_big_list_off_the_ui_thread(qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch):
    pane = window.budget
    show_budget(window)
    pane.set_tools(TOOLS, "synthetic")
    wait_report(qtbot, pane, {"tool_1999"})
    cold: list[threading.Thread] = []  # where each counter first counted the whole list (a cold count)
    counters: set[int] = set()
    report = BudgetCounter.report

    def noting_the_first_count(self, tools, *args, **kwargs):
        if len(tools) == len(TOOLS) and id(self) not in counters:
            counters.add(id(self))
            cold.append(threading.current_thread())
        return report(self, tools, *args, **kwargs)

    monkeypatch.setattr(BudgetCounter, "report", noting_the_first_count)
    pane.views.setCurrentWidget(pane.lab)
    lab = pane.lab
    qtbot.waitUntil(lambda: "(unchanged)" in lab.description_count.text(), timeout=60_000)
    assert cold and threading.main_thread() not in cold, cold
    assert lab.base is not None and len(lab.base.tools) == len(TOOLS)
