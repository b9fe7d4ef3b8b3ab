"""The App view against real servers over the lean stdio client: hostile apps (tests/servers/hostile_app.py)
are contained and flagged, in the view and in the traffic log; an outside app, the extension's own
`@modelcontextprotocol/server-basic-vanillajs`, initialises and talks to us through the bridge."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

from lens_support import REPO
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from inspector.config.profile import ServerProfile
from inspector.core.lite import LiteConnection
from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.stdio_pipes import StdioCommand, StdioPipes
from inspector.ui.apps.app_view import AppView

HOSTILE_APP = [sys.executable, str(REPO / "tests/servers/hostile_app.py")]
VANILLA = REPO / "tests/servers/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js"


def run(qtbot, coro: Any, timeout: int = 20_000) -> Any:
    """Run `coro` on the test's qasync loop while Qt keeps processing events."""
    task = asyncio.ensure_future(coro)
    qtbot.waitUntil(task.done, timeout=timeout)
    return task.result()


def connect(qtbot, argv: list[str]) -> LiteConnection:
    profile = ServerProfile(name="apps", transport="stdio", command=argv[0], args=argv[1:])
    connection = LiteConnection(StdioPipes(StdioCommand.from_profile(profile), TrafficStore("apps")))
    return run(qtbot, connection.__aenter__())


def open_app(qtbot, connection: LiteConnection, tool: dict[str, Any], tools: list[dict[str, Any]]) -> AppView:
    result = run(qtbot, connection.request("tools/call", {"name": tool["name"], "arguments": {}}))
    view = AppView(connection, tool, {}, result, tools)
    view.resize(640, 420)
    view.show()
    return view


def close(views: list[AppView]) -> None:
    """Stop the apps and delete them now (a profile released after the test would warn)."""
    for view in views:
        view.close_app()
        view.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def asked(qtbot) -> QMessageBox:
    """The question that is open now."""

    def shown() -> list[QMessageBox]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]

    qtbot.waitUntil(lambda: bool(shown()))
    return shown()[0]


def in_app(qtbot, view: AppView, script: str) -> Any:
    frames = view.web.page().mainFrame().children()
    box: list[Any] = []
    frames[0].runJavaScript(f"JSON.stringify({script})", 0, box.append)
    qtbot.waitUntil(lambda: bool(box), timeout=5_000)
    return json.loads(box[0]) if isinstance(box[0], str) and box[0] else None


def test_hostile_apps_are_contained_and_flagged(qtbot, qloop) -> None:
    connection = connect(qtbot, HOSTILE_APP)
    try:
        tools = run(qtbot, connection.request("tools/list", {}))["tools"]
        views = {tool["name"]: open_app(qtbot, connection, tool, tools) for tool in tools}
        assert set(views) == {"navigate_away", "open_popup", "fetch_outside", "flood_bridge"}

        def contained(name: str, *parts: str) -> bool:
            return any(all(part in line for part in parts) for line in views[name].contained)

        qtbot.waitUntil(lambda: contained("navigate_away", "https://example.com/away"), timeout=15_000)
        qtbot.waitUntil(lambda: contained("navigate_away", "navigation of the whole view"))
        qtbot.waitUntil(lambda: contained("open_popup", "pop-up"))
        qtbot.waitUntil(lambda: contained("fetch_outside", "http://127.0.0.1:1/steal?secret=1", "connectDomains"))
        qtbot.waitUntil(lambda: contained("fetch_outside", "http://127.0.0.1:1/pixel.png", "resourceDomains"))
        flood = views["flood_bridge"]
        qtbot.waitUntil(lambda: flood.bridge is not None and flood.bridge.cut_off, timeout=15_000)

        for name, view in views.items():  # still our host page, each app still in its iframe
            assert view.web.url() == view.web.own, name
            assert view.policy.text().startswith("Policy: Network: none"), name
        assert "initialized: yes" in in_app(qtbot, views["fetch_outside"], "document.getElementById('log').textContent")
        assert "fetch blocked" in in_app(qtbot, views["fetch_outside"], "document.getElementById('log').textContent")
        assert "more than 200 messages in one second" in flood.notices.toPlainText()
        assert "after the flood" not in flood.notices.toPlainText()  # cut off: nothing more is answered

        flagged = [e for e in connection.store if e.transport == "app" and e.kind is Kind.LIFECYCLE]
        texts = [e.raw.decode() for e in flagged]
        assert any("https://example.com/away" in t for t in texts)
        assert any("http://127.0.0.1:1/steal?secret=1" in t for t in texts)
        assert all(e.notes for e in flagged)  # each says why, so "Errors only" keeps it
        assert any(e.notes and "messages in one second" in " ".join(e.notes) for e in connection.store)
    finally:
        close(list(locals().get("views", {}).values()))
        run(qtbot, connection.aclose())


def test_an_outside_app_initialises_calls_its_tool_and_a_crash_falls_back(qtbot, qloop) -> None:
    connection = connect(qtbot, ["node", str(VANILLA), "--stdio"])
    view = None
    try:
        tools = run(qtbot, connection.request("tools/list", {}))["tools"]
        tool = next(t for t in tools if t["name"] == "get-time")
        view = open_app(qtbot, connection, tool, tools)
        qtbot.waitUntil(lambda: view.bridge is not None and view.bridge.initialized, timeout=15_000)
        assert view.state.text().startswith("App running")
        assert not view.contained
        methods = [(e.direction, e.method) for e in connection.store if e.transport == "app" and e.method]
        assert ("out", "ui/initialize") in methods
        assert ("in", "ui/notifications/tool-result") in methods

        def server_calls() -> int:
            return sum(
                1
                for e in connection.store
                if e.transport != "app" and e.direction == "out" and e.method == "tools/call"
            )

        in_app(qtbot, view, "document.getElementById('get-time-btn').click()")  # its own button: a bridge call
        question = asked(qtbot)  # get-time is not marked read-only: we ask first, naming it and its arguments
        assert "The app asks to call the tool get-time" in question.text()
        assert question.textFormat() == Qt.TextFormat.PlainText
        QTest.mouseClick(next(b for b in question.buttons() if b.text() == "Call"), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: server_calls() == 2, timeout=10_000)
        in_app(qtbot, view, "document.getElementById('send-message-btn').click()")
        qtbot.waitUntil(lambda: "Message from the app (user)" in view.notices.toPlainText())

        os.kill(view.web.page().renderProcessPid(), signal.SIGKILL)  # a real crash of its render process
        qtbot.waitUntil(lambda: view.source_text.isVisible())
        assert view.state.text().startswith("The app is not running: the app's render process ended")
        assert "<html" in view.source_text.toPlainText().lower()
    finally:
        close([view] if view is not None else [])
        run(qtbot, connection.aclose())
