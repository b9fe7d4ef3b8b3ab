"""The Prompts tab and the log-level control in the real window, against the demo and server-everything."""

from __future__ import annotations

import dataclasses

from lens_support import EVERYTHING
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from ui_support import DEMO_PROFILE, connect, dark_palette, screenshot

from inspector.config.profile import ServerProfile
from inspector.traffic.entry import Kind
from inspector.ui.listings.prompts_tab import PromptsTab
from inspector.ui.main_window import MainWindow
from inspector.ui.results import (
    AudioBlockWidget,
    EmbeddedResourceWidget,
    ImageBlockWidget,
    ResourceLinkWidget,
    TextBlockWidget,
)

EVERYTHING_PROFILE = ServerProfile(name="everything", transport="stdio", command="node", args=[str(EVERYTHING)])


def open_tab(qtbot, window: MainWindow, profile=None) -> PromptsTab:
    connect(qtbot, window, *([profile] if profile else []))
    tab = window.prompts_tab
    assert window.tabs.indexOf(tab) == 2
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.listings >= 1, timeout=10000)
    return tab


def get(qtbot, tab: PromptsTab, arguments: dict | None = None) -> None:
    if arguments is not None:
        tab.form.set_arguments(arguments)
    tab.get_current()
    qtbot.waitUntil(lambda: tab.view.state in ("ok", "tool_error", "protocol_error"), timeout=10000)


def test_get_a_prompt_with_arguments_and_completion(qtbot, qapp, window: MainWindow) -> None:
    saved = qapp.palette()
    qapp.setPalette(dark_palette())
    try:
        tab = open_tab(qtbot, window)
        assert tab.prompts.select("name", "summarize_note")
        assert tab.prompts.current_text(1) == "note_id*, style"
        assert "1 required" in tab.args_note.text()
        tab.form.set_arguments({"note_id": "welcome"})
        edit = tab.completers["style"].edit
        edit.setFocus()
        qtbot.keyClicks(edit, "h")
        qtbot.waitUntil(lambda: tab.completers["style"].suggestions() == ["haiku"], timeout=5000)
        popup = tab.completers["style"].completer.popup()
        qtbot.keyClick(popup, Qt.Key.Key_Down)
        qtbot.keyClick(popup, Qt.Key.Key_Return)  # the picked value is the field's value
        assert edit.text() == "haiku" and tab.form.arguments() == {"note_id": "welcome", "style": "haiku"}
        qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Get
        qtbot.waitUntil(lambda: tab.view.state == "ok", timeout=10000)
        assert tab.view.roles == ["user", "user"]
        text, resource = tab.view.blocks
        assert isinstance(text, TextBlockWidget) and "haiku" in text.pane.text()
        assert isinstance(resource, EmbeddedResourceWidget) and "Welcome" in resource.pane.text()
        command = tab.cli_command()
        assert command is not None
        assert "--prompt-name summarize_note --prompt-args note_id=welcome --prompt-args style=haiku --" in command
        get_request = next(e.parsed() for e in window.store if e.method == "prompts/get")
        assert get_request["params"]["arguments"] == {"note_id": "welcome", "style": "haiku"}

        window.setPalette(dark_palette())
        qtbot.wait(200)
        screenshot(tab, "prompts_tab.png")

        assert tab.prompts.select("name", "describe_image")
        get(qtbot, tab)
        assert isinstance(tab.view.blocks[1], ImageBlockWidget)

        asked: list[list[str]] = []
        tab.confirm_missing = lambda missing: asked.append(missing) or False
        assert tab.prompts.select("name", "summarize_note")
        sent = sum(1 for e in window.store if e.method == "prompts/get")
        tab.get_current()
        qtbot.wait(200)
        assert asked == [["note_id"]] and sum(1 for e in window.store if e.method == "prompts/get") == sent
    finally:
        qapp.setPalette(saved)


def test_everything_prompt_args_and_context_completion(qtbot, window: MainWindow, everything: str) -> None:
    tab = open_tab(qtbot, window, EVERYTHING_PROFILE)
    assert tab.prompts.select("name", "args-prompt")
    get(qtbot, tab, {"city": "Lyon"})
    assert tab.view.blocks[0].pane.text() == "What's weather in Lyon?"
    assert tab.prompts.select("name", "completable-prompt")
    tab.form.set_arguments({"department": "Sales"})
    member = tab.completers["name"]
    member.fetch_now()
    qtbot.waitUntil(lambda: member.suggestions() == ["David", "Eve", "Frank"], timeout=5000)
    sent = [e.parsed() for e in window.store if e.method == "completion/complete"]
    request = [message for message in sent if "params" in message][-1]["params"]
    assert request["context"] == {"arguments": {"department": "Sales"}}


def test_log_level_changes_the_messages(qtbot, window: MainWindow) -> None:
    """Legacy era: choosing a level sends logging/setLevel."""
    connect(qtbot, window, dataclasses.replace(DEMO_PROFILE, protocol_era="legacy"))
    control = window.log_level
    assert control.combo.isEnabled()
    assert control.deprecated.text() == ""

    def levels_after(level: str) -> list[str]:
        control.set_level(level)
        qtbot.waitUntil(lambda: control.applied == level, timeout=5000)
        model = window.notifications.model
        start = len(model.rows)
        record = window.session.call_tool("emit_logs", {"message": f"at {level}"}, timeout=10, max_total=None)
        qtbot.waitUntil(lambda: record.done, timeout=10000)
        qtbot.wait(100)
        return [row[2] for row in model.rows[start:] if row[1] == "notifications/message"]

    got = levels_after("error")
    assert got == ["error"], [e.text()[:150] for e in window.store if e.kind.value != "stderr"]
    assert levels_after("debug") == ["debug", "info", "warning", "error"]
    assert levels_after("warning") == ["warning", "error"]
    window.setPalette(dark_palette())
    window.bottom.setCurrentWidget(window.notifications)
    qtbot.wait(100)
    screenshot(window.notifications, "notifications_log_level.png")
    requests = [e.parsed() for e in window.store if e.method == "logging/setLevel"]
    assert [m["params"]["level"] for m in requests if "params" in m] == ["error", "debug", "warning"]


def test_modern_log_level_travels_in_each_request(qtbot, window: MainWindow) -> None:
    """2026-07-28: no logging/setLevel; the chosen level rides every later request's _meta, and logging is
    marked deprecated."""
    connect(qtbot, window)
    control = window.log_level
    assert control.combo.isEnabled()
    qtbot.waitUntil(lambda: control.deprecated.text() == "logging: deprecated in 2026-07-28", timeout=5000)
    assert "logging/setLevel is removed in 2026-07-28" in control.combo.toolTip()

    def levels_after(level: str | None) -> list[str]:
        if level is not None:
            control.set_level(level)
        model = window.notifications.model
        start = len(model.rows)
        record = window.session.call_tool("emit_logs", {"message": f"at {level}"}, timeout=10, max_total=None)
        qtbot.waitUntil(lambda: record.done, timeout=10000)
        qtbot.wait(100)
        return [row[2] for row in model.rows[start:] if row[1] == "notifications/message"]

    assert levels_after(None) == []  # a fresh connection asks for no level: a modern server sends none
    assert levels_after("error") == ["error"]
    assert levels_after("debug") == ["debug", "info", "warning", "error"]
    assert control.status.text() == "✓" and "_meta" in control.status.toolTip()
    calls = [e.parsed()["params"]["_meta"] for e in window.store if e.kind is Kind.REQUEST and e.method == "tools/call"]
    assert [meta.get("io.modelcontextprotocol/logLevel") for meta in calls[-3:]] == [None, "error", "debug"]
    assert not [e for e in window.store if e.method == "logging/setLevel"]


def test_paginated_lists_findings_and_no_logging_capability(qtbot, window: MainWindow) -> None:
    import sys

    from lens_support import REPO

    paged = ServerProfile(
        name="paged", transport="stdio", command=sys.executable, args=[str(REPO / "tests/core/paged_server.py")]
    )
    window.connect_profile(paged)
    qtbot.waitUntil(lambda: window.session.state == "connected", timeout=20000)
    assert not window.log_level.combo.isEnabled(), "the server declares no logging capability"
    tab = window.prompts_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.listings >= 1, timeout=10000)
    assert len(tab.prompts.items) == 5 and "2 pages" in tab.list_status.text()
    assert "$.prompts[1].arguments" in tab.prompts.status.text()
    resources_tab = window.resources_tab
    window.tabs.setCurrentWidget(resources_tab)
    qtbot.waitUntil(lambda: resources_tab.listings >= 1, timeout=10000)
    assert len(resources_tab.resources.items) == 7 and "3 pages" in resources_tab.resources.heading.text()
    assert "$.resources[4].name" in resources_tab.resources.status.text()
    assert "$.resourceTemplates[2].uriTemplate" in resources_tab.templates.status.text()
    assert resources_tab.templates.select("uriTemplate", "paged://t/{broken")
    assert resources_tab.expanded.text().startswith("✖ not a valid RFC 6570 URI template")
    assert not resources_tab.read_button.isEnabled()
    assert resources_tab.templates.select("uriTemplate", "paged://t/{+path}{?q,lang}")
    resources_tab.form.set_arguments({"path": "a/b c", "lang": "fr"})
    assert resources_tab.expanded.text() == "URI: paged://t/a/b%20c?lang=fr"
    assert not resources_tab.subscribe_button.isEnabled(), "the server declares no resources.subscribe"


def test_non_conforming_reads_and_prompts_are_shown_and_flagged(qtbot, window: MainWindow) -> None:
    import sys

    from lens_support import REPO

    paged = ServerProfile(
        name="paged", transport="stdio", command=sys.executable, args=[str(REPO / "tests/core/paged_server.py")]
    )
    window.connect_profile(paged)
    qtbot.waitUntil(lambda: window.session.state == "connected", timeout=20000)
    resources_tab = window.resources_tab
    window.tabs.setCurrentWidget(resources_tab)
    for uri, expected in (
        ("paged://bad/shape", "$.contents"),
        ("paged://bad/blob", "$.content[0].data"),
        ("paged://bad/both", "$.contents[0]"),
    ):
        resources_tab.read(uri)

        def shown() -> list[str]:
            return [label.text() for label in resources_tab.view.findChildren(QLabel) if label.isVisibleTo(window)]

        # The finding appears with the rendered blocks (an image blob decodes after the header shows).
        qtbot.waitUntil(
            lambda uri=uri, expected=expected: (
                resources_tab.view.uri == uri and any(expected in text for text in shown())
            ),
            timeout=5000,
        )
    assert resources_tab.view.state == "tool_error"  # "Read, with findings"
    assert "<b>a</b>" in resources_tab.view.blocks[0].pane.text(), "markup is shown as text"

    tab = window.prompts_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.listings >= 1, timeout=10000)
    assert tab.prompts.select("name", "p0")
    get(qtbot, tab, {"a": "x"})
    assert tab.view.roles == ["system", "assistant", "(no role)", "user"]
    assert "finding" in tab.view.detail_label.text()
    assert tab.view.blocks[1].pane.text() == "<b>not bold</b>"

    assert tab.prompts.select("name", "p2")
    get(qtbot, tab, {"a": "x"})
    audio, link = tab.view.blocks
    assert isinstance(audio, AudioBlockWidget) and isinstance(link, ResourceLinkWidget)
    assert tab.view.roles == ["user", "assistant"] and tab.view.state == "ok"
    link.read_button.click()  # opens the Resources tab and reads the linked resource there
    assert window.tabs.currentWidget() is resources_tab
    qtbot.waitUntil(lambda: resources_tab.view.uri == "paged://r/2" and resources_tab.view.state == "ok")
