"""Tasks from the app as launched (issue 13, point 5): the demo's research_topic as a task in the
2026-07-28 extension form (the default `auto` era), its status changing in the Tasks tab, its result,
input answered through the app's dialog, a cancel; server-everything's simulate-research-query (which
requires a task) in the 2025-11-25 form."""

from __future__ import annotations

import json

from lens_support import EVERYTHING
from PySide6.QtWidgets import QCheckBox, QTableView

from inspector.core.tasks import TASKS_EXTENSION


def task_table(lens) -> QTableView:
    return lens.find("Task list", QTableView)


def statuses(lens) -> list[str]:
    model = task_table(lens).model()
    return [str(model.index(row, 2).data()) for row in range(model.rowCount())]


def open_tasks(lens) -> None:
    """Click the Tasks tab once it counts a running task."""
    from PySide6.QtWidgets import QTabBar

    def label() -> str | None:
        for bar in lens.widgets(QTabBar):
            for index in range(bar.count()):
                if bar.tabText(index).startswith("Tasks ("):
                    return bar.tabText(index)
        return None

    lens.wait(lambda: label() is not None, what=f"a running task (status: {lens.status()})")
    lens.tab(label())


def run_as_task(lens, tool: str, *, ticks: tuple[str, ...] = (), **fields: str) -> None:
    lens.click_item("Tool list", tool)
    for name, value in fields.items():
        lens.type(name, value)
    for name in ticks:
        lens.click(lens.find(name, QCheckBox))
    box = lens.find("Run as task", QCheckBox)
    if not box.isChecked():
        lens.click(box)
    lens.click("Call  (Ctrl+Enter)")


def test_research_topic_as_a_task_in_the_modern_form(lens) -> None:
    lens.start()
    run_as_task(lens, "research_topic", steps="3", delay="0.3")
    open_tasks(lens)
    lens.wait(lambda: "working" in statuses(lens), what="the task shows as working")
    lens.wait(lambda: statuses(lens) == ["completed"], timeout=20_000, what="the task completes")
    lens.wait_text("Research on 'MCP tasks' finished: 3 sources read, 3 findings.")
    assert lens.shows("2026-07-28 tasks extension")
    call = lens.sent("tools/call")[-1]
    assert TASKS_EXTENSION in call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
    assert lens.sent("tasks/get"), "the task was polled"
    model = task_table(lens).model()
    assert [model.index(0, c).data() for c in (1, 4, 5)] == ["research_topic", "10 min", "0.5 s"]


def test_a_running_task_is_cancelled_from_the_tasks_tab(lens) -> None:
    lens.start()
    run_as_task(lens, "research_topic", steps="50", delay="0.5")
    open_tasks(lens)
    lens.wait(lambda: statuses(lens) == ["working"], what="the task is working")
    lens.click("Cancel task")
    lens.wait(lambda: statuses(lens) == ["cancelled"], what="the task is cancelled")
    assert lens.sent("tasks/cancel")
    assert not lens.find("Cancel task").isEnabled()


def test_server_everything_research_query_runs_as_a_required_task(lens) -> None:
    lens.start("--", "node", str(EVERYTHING), "stdio")
    lens.click_item("Tool list", "simulate-research-query")
    assert lens.shows("task only")
    box = lens.find("Run as task", QCheckBox)
    assert box.isChecked() and not box.isEnabled(), "a required task is always one"
    assert lens.shows("This tool runs only as a task")
    lens.type("topic", "quantum tasks")
    lens.click("Call  (Ctrl+Enter)")
    open_tasks(lens)
    assert lens.shows("2025-11-25 tasks (experimental core)")
    lens.wait(lambda: statuses(lens) == ["completed"], timeout=30_000, what="the research completes")
    lens.wait_text("Research Report: quantum tasks", timeout=10_000)
    call = lens.sent("tools/call")[-1]["params"]
    assert "task" in call and json.dumps(call["task"])
    assert lens.sent("tasks/result")


def test_a_task_that_needs_input_is_answered_from_the_tasks_tab(lens) -> None:
    """2026-07-28 form: the task waits in input_required; Answer input… opens the app's form dialog;
    the answer travels in tasks/update and the task finishes with it."""
    from test_multi_round_trips import request_dialog

    lens.start()
    run_as_task(lens, "research_topic", ticks=("confirm",), steps="2", delay="0.2")  # one click: not set → true
    lens.wait(lambda: lens.sent("tools/call"), what="the call is sent")
    assert lens.sent("tools/call")[-1]["params"]["arguments"]["confirm"] is True
    open_tasks(lens)
    lens.wait(lambda: statuses(lens) == ["input needed"], timeout=20_000, what="the task asks for input")
    lens.click("Answer input")
    box = request_dialog(lens, "Elicitation request")
    assert "Publish the findings?" in lens.texts()
    assert lens.find("publish", QCheckBox, top=box).isChecked(), "the schema's default (true) is filled in"
    lens.click(lens.find("Accept and send  (Ctrl+Enter)", top=box))
    lens.wait(lambda: statuses(lens) == ["completed"], timeout=20_000, what="the task completes")
    lens.wait_text("Published.")
    update = lens.sent("tasks/update")[-1]["params"]
    assert update["inputResponses"]["confirm"] == {"action": "accept", "content": {"publish": True}}
