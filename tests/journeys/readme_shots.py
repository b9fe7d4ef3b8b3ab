"""The README's screenshots, taken from the app as launched at 1280×860 (run by `scripts/screenshots`).

Not collected by the test suite (the name does not start with `test_`): the suite never writes into
tracked files. Each shot drives the app as a person would, then saves the window to
`$MCP_LENS_SHOTS_DIR` (default `docs/`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from lens_support import EVERYTHING, REPO

SHOTS = Path(os.environ.get("MCP_LENS_SHOTS_DIR", REPO / "docs"))
SIZE = (1280, 860)


def save(lens, name: str) -> None:
    lens.qtbot.wait(400)  # let the last repaint land
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert lens.window.grab().save(str(SHOTS / name)), name


def test_workbench(lens) -> None:
    lens.start().resize(*SIZE)
    lens.click_item("Tool list", "Generate tone (generate_tone)")
    lens.key("Ctrl+Return", lens.find("Call  (Ctrl+Enter)"))
    lens.wait(lambda: any(e.method == "tools/call" and e.direction == "in" for e in lens.wire()), what="the result")
    lens.click_item("Traffic log", "tools/call")
    save(lens, "workbench.png")


def test_budget(lens) -> None:
    servers = lens.home / ".config/mcp-lens/servers.json"
    servers.parent.mkdir(parents=True, exist_ok=True)
    entry = {"command": "node", "args": [str(EVERYTHING), "stdio"]}
    servers.write_text(json.dumps({"mcpServers": {"server-everything": entry}}))
    lens.start().resize(*SIZE)
    lens.tab("Budget")
    lens.wait(lambda: lens.shows("schedule_meeting"), what="the demo's tools counted")
    save(lens, "budget-tools.png")
    lens.key("Ctrl+Shift+M")
    lens.click("Add connected server")
    menu = lens.find("Add saved server").menu()
    menu.aboutToShow.emit()
    next(a for a in menu.actions() if a.text() == "server-everything").trigger()
    lens.wait(lambda: lens.shows("get-tiny-image"), timeout=60_000, what="server-everything counted")
    save(lens, "budget.png")


def test_eras(lens, demo_http: str) -> None:
    """The demo over Streamable HTTP in the 2026-07-28 era: the server panel and a call's Mcp-* headers."""
    from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit
    from test_traffic import call

    lens.start(demo_http).resize(*SIZE)
    lens.wait(lambda: "modern 2026-07-28" in lens.status(), what="modern over HTTP")
    call(lens, "route_request", region="eu-west")
    lens.wait(lambda: [e for e in lens.wire() if e.method == "tools/call" and e.peer_seq], what="the call's answer")
    lens.tab("Traffic")
    lens.click_item(lens.find("Traffic log", QAbstractItemView), "tools/call")
    lens.tab("Headers")
    view = lens.find("HTTP headers", QPlainTextEdit)
    lens.wait(lambda: "mcp-param-region" in view.toPlainText().lower(), what="the header parameters")
    save(lens, "eras.png")


def test_round_trips(lens) -> None:
    """order_coffee asks for input mid-call (input_required): two rounds, grouped in the traffic log."""
    from PySide6.QtWidgets import QAbstractItemView
    from test_multi_round_trips import TITLE, answer_form, answer_sampling, order

    lens.start().resize(*SIZE)
    order(lens, pastry=True)
    answer_form(lens, "Ada")
    answer_sampling(lens, "Almond croissant")
    lens.wait_text("Almond croissant")
    lens.tab("Traffic")
    lens.wait(lambda: TITLE.format(2) in lens.texts(), what="the rounds in the traffic log")
    lens.click_item(lens.find("Traffic log", QAbstractItemView), TITLE.format(2))
    save(lens, "round-trips.png")


def test_tasks(lens) -> None:
    """research_topic run as a task (the 2026-07-28 tasks extension), followed in the Tasks tab."""
    from test_task_journeys import open_tasks, run_as_task, statuses

    lens.start().resize(*SIZE)
    run_as_task(lens, "research_topic", steps="3", delay="0.3")
    open_tasks(lens)
    lens.wait(lambda: statuses(lens) == ["completed"], timeout=20_000, what="the task completes")
    save(lens, "tasks.png")


def test_workspace(lens) -> None:
    """Three servers live at once: the demo, server-everything and a second demo; the shared traffic log."""
    import sys

    from PySide6.QtWidgets import QAbstractItemView
    from test_traffic import call

    servers = lens.home / ".config/mcp-lens/servers.json"
    servers.parent.mkdir(parents=True, exist_ok=True)
    entries = {
        "server-everything": {"command": "node", "args": [str(EVERYTHING), "stdio"]},
        "weather (dev build)": {"command": sys.executable, "args": ["-m", "inspector.demo"]},
    }
    servers.write_text(json.dumps({"mcpServers": entries}))
    lens.start().resize(*SIZE)
    for name in entries:
        lens.click_item("Servers", name)
        lens.click("Connect to the selected server")
        lens.wait(lambda n=name: "connected" in lens.status() and n in lens.status(), 30_000, what=f"{name}")
    lens.click_item("Servers", "Demo server")
    call(lens, "Echo (echo)", message="hello from the demo")
    lens.wait(lambda: any(e.method == "tools/call" and e.direction == "in" for e in lens.wire()), what="the result")
    lens.click_item(lens.find("Traffic log", QAbstractItemView), "tools/call")
    save(lens, "workspace.png")


def test_taps(lens) -> None:
    """A host's server run through `mcp-lens tap`, listed live in File › Tapped sessions and followed."""
    from PySide6.QtWidgets import QAbstractItemView
    from test_tapped_sessions import INITIALIZE, TapHost, sessions_window, viewer_for

    lens.start().resize(*SIZE)
    host = TapHost("--name", "claude-desktop")
    try:
        host.request(1, "initialize", INITIALIZE)
        host.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        host.request(2, "tools/list", {})
        host.request(3, "tools/call", {"name": "echo", "arguments": {"message": "sent by the host"}})
        window = sessions_window(lens)
        lens.click_item(lens.find("Tapped sessions", QAbstractItemView, top=window), "claude-desktop")
        lens.click(lens.find("Open record", top=window))
        viewer = viewer_for(lens, "claude-desktop")
        viewer.resize(1100, 560)
        lens.click_item(lens.find("Traffic log", QAbstractItemView, top=viewer), "tools/call")
        lens.qtbot.wait(400)
        SHOTS.mkdir(parents=True, exist_ok=True)
        assert window.grab().save(str(SHOTS / "taps.png"))
        assert viewer.grab().save(str(SHOTS / "tap-record.png"))
        host.close()
    finally:
        if host.process.poll() is None:
            host.process.kill()


def test_doctor(lens) -> None:
    """The Doctor tab on the demo: the score, the findings by severity, one selected."""
    lens.start().resize(*SIZE)
    lens.tab("Doctor")
    lens.click("Run doctor")
    lens.click("Start")
    lens.wait_text("Score 84/100", timeout=30_000)
    lens.click_item("Doctor findings", "route_request_bad_headers")
    save(lens, "doctor.png")


def test_collections(lens, tmp_path: Path) -> None:
    """Two calls saved to a collection, run in the Collections tab; one step's outcome and wire shown."""
    from test_collections import save_shown_call
    from test_traffic import call

    path = tmp_path / "demo checks.json"
    lens.start().resize(*SIZE)
    call(lens, "Echo (echo)", message="hello")
    lens.wait(lambda: any(b"hello" in e.raw and e.direction == "in" for e in lens.wire()), what="the echo")
    save_shown_call(lens, path)
    call(lens, "get_weather", city="Lisbon")
    lens.wait(lambda: any(b"Lisbon" in e.raw and e.direction == "in" for e in lens.wire()), what="the weather")
    save_shown_call(lens, None)
    lens.tab("Collections")
    lens.click("Run all steps")
    lens.wait_text("2 of 2 passed", timeout=30_000)
    lens.click_item("Collection steps", "get_weather")
    save(lens, "collections.png")


def test_budget_hosts(lens) -> None:
    """The demo's list as Claude Code sends it (prefixed names, tool search auto in a 200K window, the host's
    findings with their rules), counted with Claude's tokenizer reconstructed offline (ctok)."""
    from test_budget_hosts import choose

    lens.start().resize(*SIZE)
    lens.tab("Budget")
    lens.wait(lambda: lens.shows("schedule_meeting"), what="the demo's tools counted")
    choose(lens, "Tokenizer", "Claude")
    choose(lens, "128K", "200K")  # the Window picker, by the window it shows
    choose(lens, "Host", "Claude Code")
    choose(lens, "Tool search", "Tool search a")
    lens.wait(
        lambda: (
            "as Claude Code sends them" in lens.texts()
            and "reconstructed" in lens.texts()
            and "within the 10% threshold" in lens.texts()
        ),
        what="the Claude Code view counted with ctok",
    )
    save(lens, "budget_hosts.png")


def test_apps(lens) -> None:
    """The demo's dice app beside show_dice's result after a roll through the bridge, the traffic log
    showing only the bridge's messages; then the same app opened in its own window."""
    from test_apps import choose_kind, click_in_app, wait_in_app

    from inspector.ui.apps.web_view import SandboxedAppView

    lens.start().resize(*SIZE)
    lens.click_item("Tool list", "show_dice")
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait_text("App running (mcp-lens-demo-dice): initialised", timeout=20_000)
    view = lens.find("App", SandboxedAppView)
    wait_in_app(lens, view, "!document.getElementById('roll').disabled", bool)
    click_in_app(lens, view, "roll")
    wait_in_app(lens, view, "document.getElementById('bridge').textContent", lambda t: "Rolled" in t)
    choose_kind(lens, "app (MCP Apps bridge)")
    lens.click_item("Traffic log", "tools/call")
    save(lens, "apps.png")
    lens.click("Open the app in its own window")
    window = lens.find("App window")
    lens.qtbot.wait(600)
    assert window.grab().save(str(SHOTS / "apps-window.png"))


def test_host_check(lens) -> None:
    """The Tools tab with OpenAI strict chosen in the Host check: which tools it refuses, and why."""
    import sys

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QComboBox

    lens.start("--", sys.executable, str(REPO / "tests/servers/host_acceptance.py")).resize(*SIZE)
    lens.tab("Tools")
    box = lens.find("Host check", QComboBox)
    lens.click(box)
    lens.key("Escape")
    QTest.keyClicks(box, "OpenAI")
    lens.wait(lambda: box.currentText() == "OpenAI API", what="OpenAI API chosen")
    QTest.keyClick(box, Qt.Key.Key_Down)
    lens.wait(lambda: lens.shows("refused by OpenAI strict"), what="the verdicts")
    lens.click_item("Tool list", "search")
    save(lens, "host-check.png")


def test_skills(lens) -> None:
    """The Skills tab on tests/servers/skills_server.py: a tampered skill loaded, its digest mismatch in red."""
    import sys

    lens.start(sys.executable, str(REPO / "tests/servers/skills_server.py")).resize(*SIZE)
    lens.tab("Skills")
    lens.click_item("Skills", "tampered-digest", timeout=30_000)
    lens.click("Load skill")
    lens.wait(lambda: "failed" in lens.texts(), timeout=30_000, what="the verification fails")
    save(lens, "skills.png")


def test_auth_extensions(lens, tmp_path: Path) -> None:
    """A workload's server (tests/servers/auth_extensions.py, DPoP with both servers' nonces): the workload
    identity grant signs in without a browser; the Auth tab's steps, a DPoP nonce step chosen."""
    import sys
    import time

    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from lens_support import free_port, serve

    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    now = int(time.time())
    (tmp_path / "workload.jwt").write_text(
        jwt.encode({"sub": "ci", "aud": base, "iat": now, "exp": now + 900}, key, "ES256")
    )
    extras = {
        "oauthGrant": "workload",
        "oauthClientId": "ci-workload",
        "oauthAssertionFile": str(tmp_path / "workload.jwt"),
        "oauthDpop": True,
    }
    servers = lens.home / ".config/mcp-lens/servers.json"
    servers.parent.mkdir(parents=True, exist_ok=True)
    mine = {"version": 1, "servers": {"workload": extras}}
    servers.write_text(
        json.dumps({"mcpServers": {"workload": {"type": "http", "url": f"{base}/mcp"}}, "x-mcp-lens": mine})
    )
    server = REPO / "tests/servers/auth_extensions.py"
    for _ in serve([sys.executable, str(server), str(port), str(public), "--dpop", "--nonce"], port):
        lens.start().resize(*SIZE)
        lens.click_item("Servers", "workload", double=True)
        lens.wait(lambda: "connected to" in lens.status() and "workload" in lens.status(), 60_000, "signed in")
        lens.tab("Auth")
        box = lens.find("OAuth client…")
        if box.isChecked():  # the grant's fields were shown: fold them, the steps get the room
            lens.click(box)
        lens.click_item("Sign-in steps", "use_dpop_nonce", timeout=30_000)
        save(lens, "auth-extensions.png")
        assert lens.quit() == 0


def test_replay(lens) -> None:
    """A tapped session of the demo run against a changed build (Run against…): the one changed answer, the
    recorded and the new side by side with the changed line marked."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QAbstractItemView, QComboBox
    from test_replay_app import CHANGED_DEMO, tap_a_client_session
    from test_tapped_sessions import sessions_window, viewer_for

    tap_a_client_session(lens.home)
    lens.start().resize(*SIZE)
    window = sessions_window(lens)
    lens.click_item(lens.find("Tapped sessions", QAbstractItemView, top=window), "demo", timeout=30_000)
    lens.click(lens.find("Open record", top=window))
    viewer = viewer_for(lens, "demo")
    lens.click(lens.find("Run against", top=viewer))
    run = lens.find("Requests and verdicts", QAbstractItemView).window()
    combo = lens.find("Run against", QComboBox, top=run)
    lens.click(combo)
    QTest.keyClick(combo, Qt.Key.Key_End)
    QTest.keyClick(combo, Qt.Key.Key_Return)
    lens.type(lens.find("Command or URL", top=run), " ".join(["env", "DEMO_CHANGED_ECHO=1", *CHANGED_DEMO]))
    lens.click(lens.find("Run the record", top=run))
    summary = lens.find("Run summary", top=run)
    lens.wait(lambda: "requests replayed" in summary.text(), timeout=120_000, what="the run's end")
    run.resize(1100, 700)
    lens.qtbot.wait(400)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert run.grab().save(str(SHOTS / "replay-run.png"))
    for widget in (run, viewer, window):
        widget.close()


def test_replay_history_mock(lens) -> None:
    """History → Open as mock server: the echo call answered by 'Demo server History (mock)' as recorded."""
    from PySide6.QtWidgets import QAbstractItemView
    from test_replay_app import right_click_menu
    from test_tapped_sessions import sidebar_entries

    lens.start().resize(*SIZE)
    name = lens.window.session.profile.name
    lens.click_item("Tool list", "Echo (echo)", timeout=30_000)
    lens.type("message", "hello from History")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(lambda: lens.shows("✓ OK"), timeout=30_000, what="the call's result")
    lens.tab("History")
    history = lens.find("Call history", QAbstractItemView)
    lens.wait(lambda: history.model().rowCount() == 1, what="the call in History")
    right_click_menu(lens, history, 0, "Open as mock server")
    servers = lens.find("Servers", QAbstractItemView)
    mock = f"{name} History (mock)"
    lens.wait(lambda: f"{mock}, connected" in sidebar_entries(servers), timeout=60_000, what="the mock connected")
    lens.click_item(servers, mock)
    lens.tab("Tools")
    lens.click_item("Tool list", "Echo (echo)", timeout=30_000)
    lens.type("message", "hello from History")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(lambda: lens.shows("✓ OK"), timeout=30_000, what="the recorded result")
    save(lens, "replay-history-mock.png")
    assert lens.quit() == 0


def test_compare_sessions(lens) -> None:
    """File › Compare sessions…: two tapped sessions of the demo, before and after a changed build."""
    from PySide6.QtWidgets import QAbstractItemView
    from test_replay_app import CHANGED_DEMO, tap_a_client_session

    before = tap_a_client_session(lens.home, "before")
    after = tap_a_client_session(lens.home, "after", ["env", "DEMO_CHANGED_ECHO=1", *CHANGED_DEMO])
    lens.start().resize(*SIZE)
    lens.menu("File", "Compare sessions…")
    compare = lens.find("Requests of both records", QAbstractItemView).window()
    lens.type(lens.find("Record A", top=compare), str(before))
    lens.type(lens.find("Record B", top=compare), str(after))
    lens.click(lens.find("Compare the records", top=compare))
    summary = lens.find("Comparison summary", top=compare)
    lens.wait(lambda: "requests lined up" in summary.text(), timeout=60_000, what="the comparison")
    compare.resize(1100, 700)
    lens.qtbot.wait(400)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert compare.grab().save(str(SHOTS / "replay-compare.png"))
    compare.close()
    assert lens.quit() == 0


def test_damaged_servers(lens) -> None:
    from test_damaged_files import three_servers
    from test_servers import _box

    path = three_servers(lens)
    path.write_bytes(path.read_bytes().replace(b'"memory"', b'"me\xffmory"', 1))
    lens.start(connected=False).resize(*SIZE)
    lens.wait(lambda: _box(lens, "Saved Servers Were Damaged") is not None, what="the damaged-file message")
    lens.qtbot.wait(400)
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert _box(lens, "Saved Servers Were Damaged").grab().save(str(SHOTS / "damaged-servers.png"))
