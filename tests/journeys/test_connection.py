"""Server crash and recovery, and failures on our side said as ours: driven as a user drives the app.

A server the test runs is killed while the app is connected: the app must read "not connected" with
the reason, disable Call, and come back with Server › Reconnect (Ctrl+R) once the server is back.
Cancel, timeout, a lost connection and a crash are told apart from a JSON-RPC error the server sent.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lens_support import EVERYTHING, HOSTILE, free_port, wait_for_port
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QLabel

MADE_UP = "JSON-RPC error 0"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


class NodeServer:
    """server-everything over HTTP on one fixed port: killed and started again by the test."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/" + ("sse" if self.mode == "sse" else "mcp")

    def start(self) -> None:
        env = {**os.environ, "PORT": str(self.port)}
        argv = ["node", str(EVERYTHING), self.mode]
        self.process = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


@pytest.fixture
def node_server(request: pytest.FixtureRequest) -> Iterator[NodeServer]:
    if not EVERYTHING.exists():
        pytest.fail(f"{EVERYTHING} is missing: run scripts/test, which installs the npm test servers")
    server = NodeServer(request.param)
    server.start()
    yield server
    if server.process is not None and server.process.poll() is None:
        server.kill()


def config_file(tmp_path: Path, name: str, entry: dict[str, object]) -> str:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {name: entry}}), encoding="utf-8")
    return str(path)


def call_button(lens) -> QAbstractButton:
    """The Tools tab's Call button (its label names its shortcut too)."""
    buttons = [b for b in lens.widgets(QAbstractButton) if b.text().startswith("Call")]
    assert buttons, "no visible Call button"
    return buttons[0]


def call_echo(lens, text: str) -> None:
    lens.click_item("Tool list", "echo")
    lens.type("message", text)
    lens.click(call_button(lens))


def assert_not_connected(lens, *reasons: str) -> None:
    """The status bar, the server panel and the Call button all say the connection is gone."""
    lens.wait_status(lambda text: "connected to" not in text and any(r in text for r in reasons), timeout=15_000)
    status = lens.status()
    assert not call_button(lens).isEnabled(), f"Call is still enabled; status bar: {status!r}"
    assert "Reconnect" in status or "Ctrl+R" in status, f"the status bar does not say how to recover: {status!r}"


def demo_pid(lens) -> int:
    """The server's pid, as the traffic log's lifecycle line "started pid N: …" shows it."""
    for entry in lens.wire():
        if match := re.match(rb"started pid (\d+):", entry.raw):
            return int(match.group(1))
    raise AssertionError("no 'started pid' line in the traffic record")


# -- point 4: a dead server reads "not connected" -------------------------------------------------
@pytest.mark.parametrize("node_server", ["streamableHttp", "sse"], indirect=True)
def test_killed_http_server_reads_not_connected_and_ctrl_r_recovers(lens, node_server, tmp_path: Path) -> None:
    kind = "sse" if node_server.mode == "sse" else "http"
    config = config_file(tmp_path, "everything", {"type": kind, "url": node_server.url})
    lens.start("--config", config, "--server", "everything")
    call_echo(lens, "before the crash")
    lens.wait_text("Echo: before the crash")

    node_server.kill()
    call_echo(lens, "into the void")
    lens.find("Connection lost", QLabel, timeout=15_000)  # the call's outcome, not only the state
    assert not lens.shows(MADE_UP)
    # the status bar says what the app saw: the server refusing connections now (or, first, the lost stream)
    assert_not_connected(lens, f"the server at {node_server.url} stopped answering (connection refused)", "lost")
    ARTIFACTS.mkdir(exist_ok=True)
    lens.window.grab().save(str(ARTIFACTS / f"journey_connection_lost_{kind}.png"))

    node_server.start()
    lens.key("Ctrl+R")
    lens.wait_connected()
    assert call_button(lens).isEnabled()
    call_echo(lens, "after the restart")
    lens.wait_text("Echo: after the restart")


@pytest.mark.parametrize("node_server", ["streamableHttp"], indirect=True)
def test_an_idle_killed_http_server_gets_no_delete_and_errors_only_shows_only_the_loss(lens, node_server, tmp_path):
    """Outside tester 31/32 (issue 22): after an HTTP server died, MCP Lens sent it the session DELETE and
    Errors only showed two red rows of it ("DELETE … no response: transport error", "… failed:
    ConnectError") before "connection lost". A server known gone gets no DELETE; the loss is the error."""
    from test_traffic import log, shown_rows

    config = config_file(tmp_path, "everything", {"type": "http", "url": node_server.url})
    lens.start("--config", config, "--server", "everything")
    node_server.kill()
    assert_not_connected(lens, "stopped answering")
    lens.click("Errors only")
    view = log(lens)
    lens.wait(lambda: any("connection lost" in " ".join(r.values()) for r in shown_rows(view)), 30_000, "the loss")
    errors = [" ".join(row.values()) for row in shown_rows(view)]
    assert not [row for row in errors if "DELETE" in row], errors
    assert not [e.text() for e in lens.wire() if e.raw.startswith(b"DELETE")]


def test_killed_stdio_server_reads_not_connected_and_ctrl_r_recovers(lens) -> None:
    lens.start()
    os.kill(demo_pid(lens), signal.SIGKILL)
    assert_not_connected(lens, "Server process exited")
    assert "killed by SIGKILL" in lens.status()

    lens.key("Ctrl+R")
    lens.wait_connected()
    call_echo(lens, "after the restart")
    lens.wait_text("✓ OK")
    assert lens.sent("tools/call")[-1]["params"]["arguments"] == {"message": "after the restart"}


# -- point 7: failures on our side are said as ours -----------------------------------------------
def test_crash_mid_call_says_the_server_process_exited(lens) -> None:
    lens.start("--", sys.executable, str(HOSTILE), "exit-mid-call")
    lens.click_item("Tool list", "work")
    lens.click(call_button(lens))
    lens.find("Server process exited with code 3", QLabel, timeout=15_000)  # the call's outcome
    assert not lens.shows(MADE_UP)
    assert not lens.shows("The server answered with an error")
    assert_not_connected(lens, "Server process exited with code 3")


def test_a_refused_initialize_says_the_server_refused_and_what_it_said(lens) -> None:
    """OT8 12: a server answering initialize with a JSON-RPC error read 'the server exited with code 0' (it exited
    because the app closed its stdin after the error); the CLI said the refusal. The app says it too, escaped."""
    lens.start("--", sys.executable, str(HOSTILE), "refuse-initialize", connected=False)
    lens.wait(lambda: "refused" in lens.find("Connection state", QLabel).text(), 60_000, "the refusal in the State row")
    state = lens.find("Connection state", QLabel).text()
    assert "exited with code" not in state, state
    assert "Trusted Server OK\\rHIDDEN: this server refused you\\u2028and more" in state, state
    assert "-32000" in state, state
    assert "refused" in lens.status(), lens.status()


def slow_task(lens, steps: int, delay: float) -> None:
    lens.click_item("Tool list", "slow_task")
    lens.type("steps", str(steps))
    lens.type("delay", str(delay))
    lens.click(call_button(lens))


def test_cancelled_call_says_cancelled_by_you(lens) -> None:
    lens.start()
    slow_task(lens, 20, 0.5)
    lens.wait_text("Step 1 of 20")  # the progress line of the running call
    lens.click("Cancel", QAbstractButton)
    lens.find("Cancelled by you", QLabel)
    ARTIFACTS.mkdir(exist_ok=True)
    lens.window.grab().save(str(ARTIFACTS / "journey_cancelled.png"))
    assert not lens.shows(MADE_UP)
    assert not lens.shows("Raw error JSON"), "no raw error: the server never sent one"
    lens.wait(lambda: lens.sent("notifications/cancelled"), what="notifications/cancelled on the wire")
    assert "connected to" in lens.status(), "a cancelled call leaves the connection up"


def test_timeout_says_no_response_on_the_client_side(lens) -> None:
    lens.start()
    lens.type(lens.find("Timeout", QAbstractSpinBox), "1")
    slow_task(lens, 2, 3)
    lens.find("No response within 1 s (timeout, client side)", QLabel)
    assert not lens.shows(MADE_UP)
    assert not lens.shows("Raw error JSON"), "no raw error: the server never sent one"
    assert "connected to" in lens.status(), "a timed-out call leaves the connection up"


# -- point 10: the Connect button and Ping ------------------------------------------------------
def test_server_button_reads_disconnect_while_connected(lens) -> None:
    """The sidebar's button says what a click does to the selected server (Reconnect is in its menu, Ctrl+R)."""
    lens.start()
    assert lens.has("Disconnect", QAbstractButton) and not lens.has("Connect", QAbstractButton)
    lens.click("Disconnect", QAbstractButton)
    lens.wait_status(lambda text: "disconnected" in text)
    lens.find("Connect", QAbstractButton)
    assert not lens.has("Disconnect", QAbstractButton)
    lens.click("Connect", QAbstractButton)
    lens.wait_connected()
    lens.find("Disconnect", QAbstractButton)


def test_server_ping_shows_the_round_trip_in_the_status_bar(lens) -> None:
    """Legacy era: 2026-07-28 removes ping (tests/journeys/test_listen.py has the modern side)."""
    lens.start("--protocol-era", "legacy", sys.executable, "-m", "inspector.demo")
    lens.key("Ctrl+Shift+P")
    lens.wait_status(lambda text: re.search(r"Ping: \d+(\.\d+)? ms round trip", text) is not None)
    assert len(lens.sent("ping")) == 1
    lens.menu("Server", "Ping")
    lens.qtbot.waitUntil(lambda: len(lens.sent("ping")) == 2)


def test_quit_right_after_reconnect_ends_the_app(lens) -> None:
    """Quitting while a reconnect is under way stops the new connection too (the app used to stay up)."""
    lens.start()
    lens.menu("Server", "Reconnect")
    assert lens.quit() == 0


def test_quit_after_several_quick_connects_ends_the_app(lens) -> None:
    lens.start()
    for _ in range(3):
        lens.key("Ctrl+R")
    assert lens.quit() == 0
