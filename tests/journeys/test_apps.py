"""MCP Apps as a person sees them (issue 16): the demo's dice app runs in a real WebEngine view beside
the result of `show_dice`, is handed the call's input and result, rolls again through the bridge when its
button is clicked, and every bridge message is in the traffic log as transport "app". When WebEngine
cannot run, the App view says why and shows the HTML as text."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QMessageBox

from inspector.ui.apps import engine
from inspector.ui.apps.context import MIN_HEIGHT
from inspector.ui.apps.web_view import SandboxedAppView


def in_app(lens, view: SandboxedAppView, script: str) -> Any:
    """Evaluate `script` in the app's own frame (its iframe) and return the value (JSON-able)."""
    frames = view.page().mainFrame().children()
    assert frames, "the app's iframe is missing"
    box: list[Any] = []
    frames[0].runJavaScript(f"JSON.stringify({script})", 0, box.append)
    lens.qtbot.waitUntil(lambda: bool(box), timeout=5_000)
    return json.loads(box[0]) if isinstance(box[0], str) and box[0] else None  # "": the frame is not there yet


def wait_in_app(lens, view: SandboxedAppView, script: str, check) -> Any:
    seen: list[Any] = [None]

    def ok() -> bool:
        seen[0] = in_app(lens, view, script)
        return bool(check(seen[0]))

    lens.qtbot.waitUntil(ok, timeout=10_000)
    return seen[0]


def click_in_app(lens, view: SandboxedAppView, element_id: str) -> None:
    """A real mouse click on an element of the app, where it is on screen."""
    rect = in_app(lens, view, f"document.getElementById({element_id!r}).getBoundingClientRect()")
    point = QPoint(int(rect["x"] + rect["width"] / 2), int(rect["y"] + rect["height"] / 2))
    target = view.focusProxy() or view
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def choose_kind(lens, text: str) -> None:
    """Pick `text` in the traffic log's Kind filter by typing its first letters, as a keyboard user does."""
    combo = lens.find("Kind", QComboBox)
    lens.click(combo)  # opens the list; Escape closes it, focus stays on the box
    lens.key("Escape")
    QTest.keyClicks(combo, text[:3])
    lens.qtbot.waitUntil(lambda: combo.currentText() == text)


def open_questions(lens) -> list[QMessageBox]:
    return [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def to_server(lens, method: str) -> list[dict[str, Any]]:
    """What we sent the server (not the app) with this method."""
    return [e.parsed() for e in lens.wire() if e.transport != "app" and e.direction == "out" and e.method == method]


def app_entries(lens) -> list[Any]:
    return [entry for entry in lens.wire() if entry.transport == "app"]


def test_the_demo_app_runs_rolls_again_through_the_bridge_and_falls_back_without_webengine(lens, monkeypatch) -> None:
    lens.start()
    lens.wait_text("Show dice (show_dice)\n    read-only · has an app")  # the tool list says which tools have an app
    assert lens.shows("Roll again (reroll_dice)\n    read-only · has an app · for apps only")
    lens.click_item("Tool list", "show_dice")
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait_text("App running (mcp-lens-demo-dice): initialised", timeout=20_000)
    assert lens.shows("Policy: Network: none")
    view = lens.find("App", SandboxedAppView)
    assert view.isVisible()
    form_side, result_side = lens.window.workbench.right.sizes()
    assert result_side > form_side, (form_side, result_side)  # the app below takes the height the form can spare
    shown = wait_in_app(lens, view, "document.getElementById('result').textContent", lambda t: "Rolled" in t)
    assert "with 2d6" in shown
    sent_arguments = to_server(lens, "tools/call")[0]["params"].get("arguments", {})
    assert json.loads(in_app(lens, view, "document.getElementById('input').textContent")) == sent_arguments
    wait_in_app(lens, view, "!document.getElementById('roll').disabled", bool)

    click_in_app(lens, view, "roll")  # the person's click inside the app: the app calls reroll_dice
    again = wait_in_app(lens, view, "document.getElementById('bridge').textContent", lambda t: "Rolled" in t)
    assert "with 2d6" in again

    assert view.minimumHeight() >= MIN_HEIGHT  # the app said its size (ui/notifications/size-changed)

    # The app in a window of its own keeps running (the same view moves; nothing reloads), and comes back.
    lens.click("Open the app in its own window")
    window = lens.find("App window")
    assert window.isWindow() and view.window() is window and "show_dice" in window.windowTitle()
    lens.wait_text("The app is open in its own window.")
    click_in_app(lens, view, "roll")
    lens.wait(lambda: len(to_server(lens, "tools/call")) == 3, what="a third roll from the app's own window")
    lens.wait(
        lambda: any(
            p["params"].get("containerDimensions", {}).get("width", 0) > 800
            for p in (e.parsed() for e in app_entries(lens) if e.method == "ui/notifications/host-context-changed")
        ),
        what="the app told its new, wider container (ui/notifications/host-context-changed)",
    )
    lens.click("Bring the app back into this tab")
    lens.wait(lambda: view.window() is lens.window, what="the app back in the main window")
    assert not lens.has("App window") and in_app(lens, view, "1 + 1") == 2
    # Its window closes from inside too: Ctrl+W, as every window of ours (Escape stays the app's own key).
    lens.click("Open the app in its own window")
    lens.wait(lambda: view.window() is not lens.window and view.window().isActiveWindow(), what="the app's window")
    lens.key("Ctrl+W", lens.qapp.focusWidget() or view)
    lens.wait(lambda: view.window() is lens.window, what="Ctrl+W closed the app's window")

    click_in_app(lens, view, "docs")  # ui/open-link: the link is shown and asked about; declined here
    lens.qtbot.waitUntil(lambda: bool(open_questions(lens)))
    question = open_questions(lens)[0]
    assert question.textFormat() == Qt.TextFormat.PlainText
    assert "https://modelcontextprotocol.io/extensions/apps/overview" in question.text()
    lens.click(lens.find("Don't open", top=question))
    wait_in_app(lens, view, "document.getElementById('bridge').textContent", lambda t: "did not open" in t)

    calls = to_server(lens, "tools/call")
    assert [m["params"]["name"] for m in calls] == ["show_dice", "reroll_dice", "reroll_dice"]
    read = to_server(lens, "resources/read")
    assert read and read[0]["params"]["uri"] == "ui://demo/dice.html"  # read through the session: logged
    methods = [(e.direction, e.method) for e in app_entries(lens) if e.kind.value in ("request", "notification")]
    choose_kind(lens, "app (MCP Apps bridge)")  # the log tells the bridge's messages from the server's
    log = lens.find("Traffic log")
    shown = [log.model().index(row, 5).data() for row in range(log.model().rowCount())]
    assert shown and all(kind.startswith("app ") for kind in shown) and "app request" in shown, shown
    lens.click_item("Traffic log", "app request")  # the app asked MCP Lens, not the server: nothing to re-send
    assert not lens.find("Re-send").isEnabled() and lens.find("Copy message").isEnabled()
    QTest.keyClick(lens.find("Kind", QComboBox), Qt.Key.Key_Home)  # back to the first entry, "All kinds"
    lens.wait(lambda: lens.find("Kind", QComboBox).currentText() == "All kinds", what="every kind shown again")
    for expected in [
        ("out", "ui/initialize"),
        ("out", "ui/notifications/initialized"),
        ("in", "ui/notifications/tool-input"),
        ("in", "ui/notifications/tool-result"),
        ("out", "tools/call"),
    ]:
        assert expected in methods, (expected, methods)
    answers = [e for e in app_entries(lens) if e.direction == "in" and e.kind.value == "response"]
    context = next(e.parsed()["result"]["hostContext"] for e in answers if "hostContext" in e.parsed()["result"])
    assert context["theme"] in ("light", "dark") and context["locale"] == QLocale().bcp47Name()
    assert context["toolInfo"]["tool"]["name"] == "show_dice" and context["containerDimensions"]["width"] > 0
    assert len(answers) >= 2  # ui/initialize's and tools/call's answers, paired like the rest
    assert all(e.latency_ms is not None for e in answers)

    # Without WebEngine (simulated: the one place a test may), the same App view says why, HTML as text.
    monkeypatch.setattr(engine, "unavailable_reason", lambda: "Qt WebEngine is not installed (simulated)")
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait_text("The app is not running: Qt WebEngine is not installed (simulated). Its HTML is shown as text.")
    assert "<h1>Dice</h1>" in lens.find("App HTML").toPlainText()

    def torn_down() -> bool:  # the replaced app was asked to clean up (ui/resource-teardown), and answered
        entries = [(e.direction, e.kind.value) for e in app_entries(lens) if e.method == "ui/resource-teardown"]
        return ("in", "request") in entries and ("out", "response") in entries

    lens.wait(torn_down, what="the replaced app answered ui/resource-teardown")
    lens.tab("Result")  # the result is one tab away, as it was
    assert lens.shows("Result of show_dice")


def test_an_apps_tool_call_is_answered_round_after_round(lens) -> None:
    """A 2026-07-28 server answers the app's tools/call with input_required (state only): MCP Lens
    answers the rounds as for the user's own calls, and the app gets the final result."""
    server = Path(__file__).resolve().parents[1] / "servers" / "mrtr_server.py"
    lens.start("--", sys.executable, str(server))
    lens.click_item("Tool list", "later_app")
    lens.key("Ctrl+Return", lens.find("Tool list"))
    view = lens.find("App", SandboxedAppView, timeout=20_000)
    lens.qtbot.waitUntil(lambda: bool(open_questions(lens)), timeout=10_000)  # state_only is not read-only
    question = open_questions(lens)[0]
    assert "state_only" in question.text()
    lens.click(lens.find("Call", top=question))
    shown = wait_in_app(lens, view, "document.getElementById('log').textContent", lambda t: "state_only:" in (t or ""))
    assert "state_only: done with later" in shown, shown
    rounds = [e for e in lens.wire() if e.transport != "app" and e.method == "tools/call" and e.direction == "out"]
    assert [m.parsed()["params"]["name"] for m in rounds][-2:] == ["state_only", "state_only"]  # two rounds
