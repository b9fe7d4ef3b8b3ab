"""The Tools workbench in the real window, against the demo server and server-everything."""

from __future__ import annotations

import sys

from lens_support import HOSTILE
from PySide6.QtWidgets import QDialog
from ui_support import connect, screenshot

from inspector.config.profile import ServerProfile
from inspector.core.history import CANCELLED, OK, TOOL_ERROR
from inspector.traffic.entry import Direction
from inspector.ui.main_window import MainWindow
from inspector.ui.results import AudioBlockWidget, EmbeddedResourceWidget, ImageBlockWidget, ResourceLinkWidget


def call(qtbot, win: MainWindow, tool: str, arguments: dict | None = None, timeout: int = 20000):
    bench = win.workbench
    assert bench.tools.select(tool)
    if arguments is not None:
        bench.form.set_arguments(arguments)
    record = bench.call_current()
    assert record is not None
    qtbot.waitUntil(lambda: record.done, timeout=timeout)
    return record


def test_nested_form_call_and_media_results(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    meeting = {
        "title": "Design review",
        "day": "2026-11-23",
        "starts_at": "2026-11-23T10:00:00Z",
        "organizer": {"name": "Ada", "email": "ada@example.com"},
        "attendees": [{"name": "Grace", "email": "grace@example.com"}],
        "location": {"kind": "online", "url": "https://meet.example.com/x"},
    }
    assert bench.tools.select("schedule_meeting")
    problems = bench.form.set_arguments(meeting)
    assert not problems, problems
    assert bench.form.validate() == []
    record = call(qtbot, window, "schedule_meeting")
    assert record.outcome == OK, record.error
    assert record.result["structuredContent"]["title"] == "Design review"
    qtbot.wait(300)
    screenshot(window, "workbench_form.png")

    image = call(qtbot, window, "generate_image", {"size": 96, "pattern": "rings"})
    assert image.outcome == OK
    widgets = [b for b in bench.result.blocks if isinstance(b, ImageBlockWidget)]
    assert widgets and widgets[0].viewer.image_size == (96, 96)

    tone = call(qtbot, window, "generate_tone", {"duration": 0.5})
    assert tone.outcome == OK
    audio = [b for b in bench.result.blocks if isinstance(b, AudioBlockWidget)]
    assert audio
    qtbot.waitUntil(lambda: (audio[0].duration_ms or 0) > 0, timeout=10000)
    assert 400 <= audio[0].duration_ms <= 600
    qtbot.wait(300)
    call_entry = next(
        e for e in reversed(list(window.store)) if e.method == "tools/call" and e.kind.value == "response"
    )
    window.traffic.select_seq(call_entry.seq)
    qtbot.wait(100)
    screenshot(window, "workbench_result.png")


def test_destructive_tool_asks_first(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    asked: list[tuple[str, dict]] = []
    bench.confirm = lambda name, arguments: asked.append((name, arguments)) or False
    assert bench.tools.select("delete_note")
    assert bench.ask_first.isVisible() and bench.ask_first.isChecked()
    bench.form.set_arguments({"note_id": "groceries"})
    assert bench.call_current() is None, "declined: nothing is sent"
    assert asked == [("delete_note", {"note_id": "groceries"})]
    assert not any(e.method == "tools/call" for e in window.store)
    bench.confirm = lambda name, arguments: True
    record = call(qtbot, window, "delete_note")
    assert record.outcome == OK and "Deleted" in record.result["content"][0]["text"]


def test_progress_moves_and_cancel_works(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    assert bench.tools.select("slow_task")
    bench.form.set_arguments({"steps": 40, "delay": 0.1})
    record = bench.call_current()
    row = lambda: bench.calls.rows.get(record.id)  # noqa: E731
    qtbot.waitUntil(lambda: row() is not None and len(record.handle.progress) >= 2, timeout=10000)
    row().refresh()
    assert row().bar.value() > 0 and "Step" in row().message.text()
    row().cancel.click()
    qtbot.waitUntil(lambda: record.done, timeout=10000)
    assert record.outcome == CANCELLED
    assert record.id not in bench.calls.rows
    assert any(e.method == "notifications/cancelled" and e.direction is Direction.OUT for e in window.store)


def test_several_calls_in_flight_and_history(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    assert bench.tools.select("slow_task")
    bench.form.set_arguments({"steps": 3, "delay": 0.2})
    first, second = bench.call_current(), bench.call_current()
    qtbot.waitUntil(lambda: len(bench.calls.rows) == 2, timeout=5000)
    qtbot.waitUntil(lambda: first.done and second.done, timeout=15000)
    assert bench.history.records[:2] == [second, first]
    error = call(qtbot, window, "simulate_error", {"mode": "result"})
    assert error.outcome == TOOL_ERROR and bench.result.state == "tool_error"
    protocol = call(qtbot, window, "simulate_error", {"mode": "protocol"})
    assert protocol.outcome == "protocol error" and bench.result.state == "protocol_error"
    bench.history.table.selectRow(bench.history.records.index(first))
    # a History row's right-click menu holds every action, Save to collection… too (not a button: the row fits)
    menu = {a.text(): a for a in bench.history.table.actions() if not a.isSeparator()}
    assert list(menu) == [
        "Re-run",
        "Replay answers",
        "Edit and re-run",
        "Copy as CLI",
        "Save to collection…",
        "Open as mock server",
    ]
    with qtbot.waitSignal(bench.history.saveRequested, timeout=2000) as saved:
        menu["Save to collection…"].trigger()
    assert saved.args == [first]
    for dialog in bench.findChildren(QDialog):  # the workbench answered with its save dialog: close it
        dialog.reject()
    text = bench.history.copy_cli()
    assert text is not None and "--tool-name slow_task" in text and "-- " in text
    rerun = bench.rerun(first)
    qtbot.waitUntil(lambda: rerun.done, timeout=15000)
    assert rerun.arguments == first.arguments and rerun.outcome == OK


def test_output_schema_violation_is_listed(qtbot, window: MainWindow) -> None:
    profile = ServerProfile(name="bad", transport="stdio", command=sys.executable, args=[str(HOSTILE), "bad-output"])
    connect(qtbot, window, profile)
    record = call(qtbot, window, "weather", {})
    assert any(f.path.startswith("$.structuredContent") for f in record.findings)
    issues = window.workbench.result.summary.structured_issues
    assert {i.path for i in issues} >= {"$.structuredContent", "$.structuredContent.temp"}
    assert window.workbench.result.structured_issue_labels


def test_list_changed_keeps_selection(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    assert bench.tools.select("echo")
    bench.form.set_arguments({"message": "typed but not sent"})
    call(qtbot, window, "toggle_extra_tool", {"enabled": True})
    qtbot.waitUntil(lambda: bench.tools.model.row_of("roll_dice") >= 0, timeout=10000)
    assert bench.tools.select("echo")


def test_everything_forms_render(qtbot, window: MainWindow, everything: str) -> None:
    profile = ServerProfile(name="everything", transport="stdio", command="node", args=[everything, "stdio"])
    connect(qtbot, window, profile)
    bench = window.workbench
    fallbacks = {}
    for row in list(bench.tools.model.all):
        assert bench.tools.select(row.name)
        if note := bench.form.fallback_note():
            fallbacks[row.name] = note
    assert fallbacks == {}


def test_resource_link_reads_the_resource(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    record = call(qtbot, window, "show_resources", {})
    assert record.outcome == OK
    links = [b for b in bench.result.blocks if isinstance(b, ResourceLinkWidget)]
    assert links
    links[0].read_button.click()
    qtbot.waitUntil(lambda: any(e.method == "resources/read" and e.kind.value == "response" for e in window.store))
    qtbot.waitUntil(lambda: any(isinstance(b, EmbeddedResourceWidget) for b in bench.resource.blocks), timeout=5000)
    assert bench.lower.currentWidget() is bench.resource and bench.resource.uri == "demo://docs/guide"
    assert "a link in the result of show_resources" in bench.resource.detail_label.text()
    assert bench.result.blocks[1] is links[0], "the tool result it came from is still there"


def test_problems_with_the_arguments_are_asked_about_before_sending(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    assert bench.tools.select("get_weather")
    bench.form.set_arguments({"city": "Lisbon"})
    row = bench.form.view.row_at(("days",))
    qtbot.keyClicks(row.editor, "abc")
    assert bench.call_current() is None and bench.question is not None
    assert '"abc" is not sent' in bench.question.text() and '{"city": "Lisbon"}' in bench.question.text()
    assert bench.call_current() is None, "a second Call while asking raises the same question"
    send = next(b for b in bench.question.buttons() if b.text() == "Send anyway")
    send.click()
    qtbot.waitUntil(lambda: bench.question is None and bool(bench.history.records), timeout=5000)
    qtbot.waitUntil(lambda: bench.history.records[0].done, timeout=10000)
    assert bench.history.records[0].arguments == {"city": "Lisbon"}
