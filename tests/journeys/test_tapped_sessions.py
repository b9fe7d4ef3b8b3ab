"""Tapped sessions: File › Tapped sessions… lists a host's tapped records (live and finished), opens one
read-only and follows it as it grows, and "Open as server" adds the record's server to the workspace."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from journey_support import accessible_name
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QToolButton, QWidget
from test_accessibility import unnamed
from test_traffic import choose_file, without_blocking

from inspector.tap.paths import tap_running
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DEMO = [sys.executable, "-m", "inspector", "--demo-server"]


class TapFile:
    """A tap record written the way the tap writes one: a header, then one line per message, flushed."""

    def __init__(self, path: Path, name: str, command: list[str], *, pid: int) -> None:
        self.path = path
        self.store = TrafficStore()
        tap = {"name": name, "command": command, "pid": pid, "child_pid": pid, "started": time.time(), "cwd": "/"}
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(path, "wb") as stream:
            stream.write(jsonl.header({"tap": tap}) + b"\n")
        path.chmod(0o600)

    def message(self, direction: Direction, message: dict[str, Any]) -> None:
        raw = json.dumps(message).encode()
        self._write(self.store.record_message(direction, "stdio", raw))

    def exchange(self, rpc_id: int, method: str, result: dict[str, Any], params: dict[str, Any] | None = None) -> None:
        request = {"jsonrpc": "2.0", "id": rpc_id, "method": method, **({"params": params} if params else {})}
        self.message(Direction.OUT, request)
        self.message(Direction.IN, {"jsonrpc": "2.0", "id": rpc_id, "result": result})

    def stderr(self, text: str) -> None:
        self._write(self.store.record(Direction.IN, "stdio", Kind.STDERR, text.encode()))

    def exited(self, code: int) -> None:
        text = f"process exited with code {code}".encode()
        self._write(self.store.record(Direction.META, "stdio", Kind.LIFECYCLE, text))

    def _write(self, entry: Any) -> None:
        with open(self.path, "ab") as stream:
            stream.write(jsonl.encode_entry(entry) + b"\n")


def taps_folder(lens: Any) -> Path:
    return lens.home / ".local/share/mcp-lens/taps"


def finished_record(lens: Any) -> TapFile:
    record = TapFile(taps_folder(lens) / "claude-desktop-20261124-101500.jsonl", "claude-desktop", DEMO, pid=999_999_9)
    record.exchange(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x"}})
    record.message(Direction.OUT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    record.exchange(2, "tools/list", {"tools": []})
    record.stderr("demo server: bye")
    record.exited(0)
    return record


@pytest.fixture
def tap_pid() -> Iterator[int]:
    """The pid of a running process that looks like a tap (what makes a record live)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "tap"])
    deadline = time.monotonic() + 10
    while not tap_running(process.pid) and time.monotonic() < deadline:  # /proc shows its argv a moment later
        time.sleep(0.02)
    yield process.pid
    process.kill()
    process.wait()


def live_record(lens: Any, pid: int) -> TapFile:
    record = TapFile(taps_folder(lens) / "cursor-20261124-110000.jsonl", "cursor-demo", DEMO, pid=pid)
    record.exchange(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x"}})
    return record


def sessions_window(lens: Any) -> QWidget:
    lens.menu("File", "Tapped sessions…")
    table = lens.find("Tapped sessions", QAbstractItemView)
    return table.window()


def viewer_for(lens: Any, title: str) -> QWidget:
    """The read-only record window whose title holds `title` (the newest one)."""

    def shown() -> list[QWidget]:
        return [w for w in lens.qapp.topLevelWidgets() if w.isVisible() and title in w.windowTitle()]

    lens.qtbot.waitUntil(lambda: bool(shown()), timeout=5_000)
    return shown()[0]


def copy_from_menu(lens: Any, button: QToolButton, item: str) -> None:
    """Open a copy button's menu (as its arrow does) and click one of its items."""
    menu = button.menu()
    menu.popup(button.mapToGlobal(button.rect().bottomLeft()))
    lens.qtbot.waitUntil(menu.isVisible, timeout=5_000)
    action = next(a for a in menu.actions() if a.text() == item)
    point = menu.actionGeometry(action).center()
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    lens.qtbot.waitUntil(lambda: not menu.isVisible(), timeout=5_000)


def sidebar_entries(servers: QAbstractItemView) -> str:
    """What a screen reader says of each server in the sidebar ("NAME, STATE…"), one per line."""
    model = servers.model()
    role = Qt.ItemDataRole.AccessibleTextRole
    return "\n".join(str(model.index(row, 0).data(role)) for row in range(model.rowCount()))


def rows(view: QAbstractItemView) -> int:
    return view.model().rowCount()


def test_tapped_sessions_are_listed_followed_filtered_and_opened_as_a_server(
    lens, tap_pid: int, tmp_path: Path
) -> None:
    finished = finished_record(lens)
    live = live_record(lens, tap_pid)
    lens.start()
    window = sessions_window(lens)
    table = lens.find("Tapped sessions", QAbstractItemView, top=window)
    assert not unnamed(lens), unnamed(lens)
    lens.click_item(table, "claude-desktop")
    lens.click_item(table, "cursor-demo")
    texts = lens.texts()
    assert "finished" in texts and "live" in texts
    assert "--demo-server" in texts  # the server's command
    assert time.strftime("%Y-%m-%d") in texts  # the start time

    # A record that appears while the window is open is listed too.
    later = TapFile(taps_folder(lens) / "vscode-20261124-120000.jsonl", "vscode-host", DEMO, pid=tap_pid)
    lens.click_item(table, "vscode-host", timeout=10_000)
    del later

    # Open the live one: its rows so far, then rows as the host and server go on talking.
    lens.click_item(table, "cursor-demo")
    lens.click(lens.find("Open record", top=window))
    viewer = viewer_for(lens, live.path.name)
    log = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.wait(lambda: rows(log) == 2, what="the live record's first two rows")
    live.exchange(2, "tools/list", {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    live.exchange(3, "tools/call", {"content": [{"type": "text", "text": "hi"}]}, {"name": "echo", "arguments": {}})
    live.stderr("server: called echo")
    lens.wait(lambda: rows(log) == 7, timeout=10_000, what="the rows appended while the record was open")
    assert "(read-only)" in viewer.windowTitle()
    assert not unnamed(lens), unnamed(lens)  # the record's window and its Export button included
    names = {accessible_name(w) for w in lens.widgets(top=viewer)}
    assert "Re-send…" not in names and "Clear" not in names

    # Pairing and latency work on it: the tools/call response is paired with its request.
    pairs = [e for e in viewer.store if e.method == "tools/call"]
    assert len(pairs) == 2 and pairs[0].peer_seq == pairs[1].seq and pairs[1].latency_ms is not None

    # Filter it.
    lens.type(lens.find("Traffic filter", top=viewer), "tools/call")
    lens.wait(lambda: rows(log) == 2, what="the filter keeps the tools/call pair")

    # Export what the filter shows.
    exported = tmp_path / "tools-calls.jsonl"
    without_blocking(lens, lambda: lens.click(lens.find("Export shown entries", top=viewer)))
    choose_file(lens, exported)
    lens.wait(exported.exists, what="the export written")
    saved, meta = jsonl.load(exported)
    assert [e.method for e in saved] == ["tools/call", "tools/call"] and meta["name"] == "cursor-demo"

    # "Copy as command" repeats the request against the record's server command.
    lens.click_item(log, "tools/call")
    copy_from_menu(lens, lens.find("Copy message", QToolButton, top=viewer), "Copy as mcp-lens --cli")
    copied = QGuiApplication.clipboard().text()
    assert "--method tools/call" in copied and "--tool-name echo" in copied and "--demo-server" in copied

    # The finished one stays readable, and says it finished.
    lens.click_item(table, "claude-desktop")
    lens.click(lens.find("Open record", top=window))
    old = viewer_for(lens, finished.path.name)
    old_log = lens.find("Traffic log", QAbstractItemView, top=old)
    lens.wait(lambda: rows(old_log) == 7, what="every entry of the finished record")

    # Open as server: the record's command joins the workspace under the tap's name, and connects.
    lens.click_item(table, "cursor-demo")
    lens.click(lens.find("Open as server", top=window))
    servers = lens.find("Servers", QAbstractItemView)
    lens.click_item(servers, "cursor-demo")
    lens.wait(lambda: "cursor-demo, connected" in sidebar_entries(servers), timeout=30_000, what="it connected")
    assert lens.window.session.profile.env == {}  # the host's env stays in the host's config
    assert "Demo server, connected" in sidebar_entries(servers)  # it joined the workspace: the demo stays live
    for widget in (viewer, old, window):
        widget.close()
    assert lens.quit() == 0


class TapHost:
    """A host that runs its server through `mcp-lens tap` and talks raw JSON-RPC lines to it."""

    def __init__(self, *tap_options: str) -> None:
        argv = [sys.executable, "-m", "inspector", "tap", *tap_options, "--", *DEMO]
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, rpc_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its response (server requests and notifications are skipped)."""
        self.send({"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                message = json.loads(self.lines.get(timeout=1))
            except queue.Empty:
                continue
            if message.get("id") == rpc_id and "method" not in message:
                return message
        raise AssertionError(f"no response to {method} through the tap")

    def close(self) -> int:
        """The host quits: it closes the server's stdin; the tap's exit code (the server's)."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=30)


INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "a-host", "version": "1.0"},
}


def test_a_real_host_through_the_tap_is_followed_live_across_a_rotation(lens) -> None:
    """`mcp-lens tap` run by a host (raw JSON-RPC over its stdio): the app lists the record as live,
    follows it as the host talks, opens the next part when the tap rotates it, and lists it finished."""
    lens.start()
    host = TapHost("--name", "demo-host", "--max-bytes", "6000")
    try:
        assert "result" in host.request(1, "initialize", INITIALIZE)
        host.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        window = sessions_window(lens)
        table = lens.find("Tapped sessions", QAbstractItemView, top=window)
        lens.click_item(table, "demo-host")
        assert "live" in lens.texts()
        lens.click(lens.find("Open record", top=window))
        viewer = viewer_for(lens, "demo-host")
        log = lens.find("Traffic log", QAbstractItemView, top=viewer)
        lens.click_item(log, "initialize")

        echo = host.request(2, "tools/call", {"name": "echo", "arguments": {"message": "through the tap"}})
        assert "through the tap" in json.dumps(echo)
        lens.click_item(log, "tools/call", timeout=10_000)  # the host's call appears while the record grows
        pairs = [e for e in viewer.store if e.method == "tools/call"]
        assert len(pairs) == 2 and pairs[1].latency_ms is not None  # paired, with its latency

        # The demo's tool list is bigger than the part's limit: the tap rotates, the next part opens.
        assert "result" in host.request(3, "tools/list", {})
        part_two = viewer_for(lens, "(part 2 of 2)")
        lens.click_item(lens.find("Traffic log", QAbstractItemView, top=part_two), "tools/list", timeout=10_000)
        parts = lens.find("Record part", top=window)  # the list offers either part of the session
        lens.wait(lambda: parts.count() == 2, what="the session's two parts offered")
        ARTIFACTS.mkdir(exist_ok=True)
        window.grab().save(str(ARTIFACTS / "journey_tapped_sessions.png"))
        viewer.grab().save(str(ARTIFACTS / "journey_tapped_record_live.png"))
        assert host.close() == 0
    finally:
        if host.process.poll() is None:
            host.process.kill()
    lens.wait(lambda: "finished" in lens.texts(), timeout=10_000, what="the session listed as finished")
    sessions = [table.model().index(row, 0).data() for row in range(table.model().rowCount())]
    assert sessions == ["demo-host"]  # one session, its two parts joined
    for widget in (part_two, viewer, window):
        widget.close()
    assert lens.quit() == 0


def test_ctrl_shift_t_opens_the_tapped_sessions_and_says_how_to_tap_when_there_are_none(lens) -> None:
    lens.start()
    lens.key("Ctrl+Shift+T", lens.window)
    table = lens.find("Tapped sessions", QAbstractItemView)
    assert table.model().rowCount() == 0
    lens.wait_text("mcp-lens tap --name NAME -- COMMAND ARGS…")
    assert not lens.find("Open record").isEnabled() and not lens.find("Open as server").isEnabled()
    table.window().close()
    assert lens.quit() == 0


def test_the_tapped_sessions_window_closes_by_escape_ctrl_w_and_its_close_button(lens) -> None:
    """The outside tester could not close it from inside (no Close button; Escape and Ctrl+W did nothing)."""
    lens.start()
    for how in ("Escape", "Ctrl+W", "Close"):
        lens.window.activateWindow()  # back in the main window, as a click on it does
        lens.wait(lambda: lens.window.isActiveWindow(), what="the main window active")
        lens.key("Ctrl+Shift+T", lens.window)
        window = lens.find("Tapped sessions", QAbstractItemView).window()
        lens.wait(lambda w=window: w.isVisible() and w.isActiveWindow(), what="the window shown and active")
        if how == "Close":
            lens.click(lens.find("Close", top=window))
        else:
            lens.key(how, lens.qapp.focusWidget())
        lens.wait(lambda w=window: not w.isVisible(), what=f"the window closed by {how}")
    assert lens.quit() == 0
