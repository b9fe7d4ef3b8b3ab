"""A 1,000-tool list counts off the UI thread: the window stays responsive and the recount is incremental."""

from __future__ import annotations

import threading
import time

from budget_ui_support import show_budget, wait_report
from PySide6.QtCore import QElapsedTimer, QTimer

from inspector.budget.breakdown import BudgetCounter
from inspector.ui.main_window import MainWindow


def synthetic_tools(count: int) -> list[dict]:
    return [
        {
            "name": f"tool_{i:04d}",
            "description": f"Tool number {i} reads record {i} from the store and returns its fields as JSON.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": f"Identifier of record {i}."},
                    "fields": {"type": "array", "items": {"type": "string"}, "description": "Fields to return."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                },
                "required": ["id"],
            },
        }
        for i in range(count)
    ]


class StallMeter:
    """Ticks every 5 ms on the UI thread and records the longest gap between ticks."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.longest = 0
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        self.longest = max(self.longest, self.clock.restart())

    def stop(self) -> int:
        self.timer.stop()
        return self.longest


def test_thousand_tools_stay_responsive(qtbot, window: MainWindow, monkeypatch) -> None:
    pane = window.budget
    counted_on: list[threading.Thread] = []
    count = pane.runner._count

    def count_and_note_the_thread(job):
        counted_on.append(threading.current_thread())
        return count(job)

    monkeypatch.setattr(pane.runner, "_count", count_and_note_the_thread)
    show_budget(window)
    pane.pickers.set_tokenizer("o200k_base")
    pane.pickers.set_shape("mcp")
    pane.set_tools(synthetic_tools(3), "warm-up")  # loads the tokenizer
    wait_report(qtbot, pane)

    tools = synthetic_tools(1000)
    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    pane.set_tools(tools, "synthetic")
    report = wait_report(qtbot, pane, {"tool_0999"})
    elapsed = time.perf_counter() - started
    longest = meter.stop()
    assert len(report.tools) == 1000
    assert pane.overview.model.rowCount() == 1000
    print(
        f"1000 tools: count {pane.last_seconds * 1000:.0f} ms, shown after {elapsed * 1000:.0f} ms, "
        f"longest UI stall {longest} ms"
    )
    assert pane.last_seconds < 3.0  # 1 s target on an idle machine; the CI box is shared
    # What keeps the UI responsive: every count runs on a worker thread, never on the UI thread. The
    # stall itself is printed, not asserted: the suite runs on two workers, so it measures the machine.
    assert counted_on and threading.main_thread() not in counted_on

    # One description changes (list_changed): the recount reuses every unchanged tool's cost. Counted, not
    # timed: the suite's two workers and a loaded CI machine made a 0.5 s limit measure the machine.
    costed: list[str] = []
    tool_cost = BudgetCounter.tool_cost

    def cost_and_note(self, tool, shape="mcp"):
        costed.append(tool.get("name"))
        return tool_cost(self, tool, shape)

    monkeypatch.setattr(BudgetCounter, "tool_cost", cost_and_note)
    tools[500] = {**tools[500], "description": "Changed description of tool 500."}
    pane.set_tools(list(tools), "synthetic")
    qtbot.waitUntil(
        lambda: (
            pane.report is not None
            and not pane.runner.busy
            and pane.report.tools[500].parts["description"] != report.tools[500].parts["description"]
        ),
        timeout=20000,
    )
    print(f"recount after one change: {pane.last_seconds * 1000:.1f} ms")
    assert costed == ["tool_0500"]
