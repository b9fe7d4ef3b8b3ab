"""The Tapped sessions list over records written by the tap's own recorder: sessions (rotated parts
joined), their state, the list window's refresh, and what "copy as command" and "Open as server" use."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import Qt  # QtGui's Qt namespace adds mightBeRichText

from inspector.tap.paths import tap_running
from inspector.tap.recorder import TapRecorder
from inspector.traffic.entry import Direction
from inspector.ui.taps.hook import cli_target, server_profile
from inspector.ui.taps.records import ENDED, FINISHED, LIVE, list_sessions
from inspector.ui.taps.window import TappedSessionsWindow

COMMAND = ["node", "/srv/weather/index.js", "--stdio"]
DEAD_PID = 2**22 + 12345  # above Linux's default pid_max: no such process


@pytest.fixture
def tap_pid() -> Iterator[int]:
    """The pid of a running process that looks like a tap (what the listing checks for a live record)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", "tap"])
    deadline = time.monotonic() + 10
    while not tap_running(process.pid) and time.monotonic() < deadline:  # /proc shows its argv a moment later
        time.sleep(0.02)
    yield process.pid
    process.kill()
    process.wait()


def recorder(folder: Path, name: str, *, pid: int, max_bytes: int = 1 << 20, started: float | None = None):
    meta = {"name": name, "command": COMMAND, "pid": pid, "child_pid": pid, "cwd": "/srv/weather"}
    meta["started"] = time.time() if started is None else started
    return TapRecorder(folder, meta, max_bytes=max_bytes)


def talk(rec: TapRecorder, rpc_id: int, method: str, padding: int = 0) -> None:
    request = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": {}}
    response = {"jsonrpc": "2.0", "id": rpc_id, "result": {"pad": "x" * padding}}
    rec.data(Direction.OUT, json.dumps(request).encode() + b"\n")
    rec.data(Direction.IN, json.dumps(response).encode() + b"\n")


def test_sessions_are_live_finished_or_ended_and_rotated_parts_are_one_session(tmp_path: Path, tap_pid: int) -> None:
    live = recorder(tmp_path, "cursor", pid=tap_pid, max_bytes=2000, started=300.0)
    for n in range(1, 6):
        talk(live, n, "tools/list", padding=600)  # past 2000 bytes: the tap rotates the record
    finished = recorder(tmp_path, "claude-desktop", pid=DEAD_PID, started=200.0)
    talk(finished, 1, "initialize")
    finished.close("process exited with code 0")
    crashed = recorder(tmp_path, "vscode", pid=DEAD_PID, started=100.0)  # the tap died without a word
    talk(crashed, 1, "initialize")

    sessions = list_sessions(tmp_path)
    assert [(s.name, s.state) for s in sessions] == [("cursor", LIVE), ("claude-desktop", FINISHED), ("vscode", ENDED)]
    cursor = sessions[0]
    assert len(cursor.parts) >= 3 and cursor.path == live.path  # oldest first, the growing part last
    assert cursor.size == sum(part.stat().st_size for part in cursor.parts)
    assert cursor.command == tuple(COMMAND) and cursor.cwd == "/srv/weather" and cursor.started == 300.0
    live.close("process exited with code 0")
    assert list_sessions(tmp_path)[0].state == FINISHED


def test_copy_as_command_and_open_as_server_use_the_records_command_without_env(tmp_path: Path) -> None:
    rec = recorder(tmp_path, "weather", pid=DEAD_PID)
    session = list_sessions(tmp_path)[0]
    assert cli_target(session) == ["--cwd", "/srv/weather", "--", *COMMAND]
    profile = server_profile(session)
    assert (profile.name, profile.command, profile.args, profile.env) == ("weather", "node", COMMAND[1:], {})
    assert profile.cwd is None  # the host's folder does not exist here: the server starts in ours
    rec.close("process exited with code 0")


def test_the_window_lists_new_and_growing_records_and_keeps_the_selection(qtbot, tmp_path: Path, tap_pid: int) -> None:
    window = TappedSessionsWindow(tmp_path)
    qtbot.addWidget(window)
    window.show()
    assert window.table.rowCount() == 0 and window.empty_label.isVisible()
    first = recorder(tmp_path, "first", pid=tap_pid, started=100.0)
    qtbot.waitUntil(lambda: window.table.rowCount() == 1, timeout=5_000)
    window.table.selectRow(0)
    second = recorder(tmp_path, "second", pid=tap_pid, started=200.0)  # newer: listed above
    qtbot.waitUntil(lambda: window.table.rowCount() == 2, timeout=5_000)
    assert [window.table.item(row, 0).text() for row in range(2)] == ["second", "first"]
    assert window.selected_session().name == "first"  # the selection follows its record
    size_before = window.table.item(1, 3).text()
    talk(first, 1, "tools/list", padding=5000)
    qtbot.waitUntil(lambda: window.table.item(1, 3).text() != size_before, timeout=5_000)
    first.close("process exited with code 0")
    qtbot.waitUntil(lambda: window.table.item(1, 4).text() == "finished", timeout=5_000)
    assert window.table.item(0, 4).text() == "live"
    opened: list[tuple[object, Path]] = []
    window.openRequested.connect(lambda session, path: opened.append((session, path)))
    window.open_button.click()
    assert [(s.name, path) for s, path in opened] == [("first", first.path)]  # type: ignore[attr-defined]
    assert not window.part_combo.isVisible()  # one part: nothing to choose
    second.close("process exited with code 0")


def test_a_rotated_record_opens_its_newest_part_or_the_part_chosen(qtbot, tmp_path: Path, tap_pid: int) -> None:
    rec = recorder(tmp_path, "cursor", pid=tap_pid, max_bytes=2000)
    for n in range(1, 4):
        talk(rec, n, "tools/list", padding=600)
    window = TappedSessionsWindow(tmp_path)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.table.rowCount() == 1, timeout=5_000)
    window.table.selectRow(0)
    session = window.selected_session()
    assert len(session.parts) == 3 and window.part_combo.isVisible()
    assert window.part_combo.currentText() == f"part 3 of 3: {rec.path.name}"
    opened: list[Path] = []
    window.openRequested.connect(lambda _session, path: opened.append(path))
    window.open_button.click()
    window.part_combo.setCurrentIndex(0)
    window.open_button.click()
    assert opened == [rec.path, session.parts[0]]
    rec.close("process exited with code 0")


def test_host_given_words_are_shown_as_plain_text(qtbot, tmp_path: Path) -> None:
    """The tap's name and command come from the host's config: never rendered as markup."""
    meta = {"name": "<b>bold</b>", "command": ["<img src=x>", "--flag"], "pid": DEAD_PID, "started": 1.0}
    rec = TapRecorder(tmp_path, meta)
    window = TappedSessionsWindow(tmp_path)
    qtbot.addWidget(window)
    assert window.table.item(0, 0).text() == "<b>bold</b>"
    assert window.table.item(0, 1).text() == "'<img src=x>' --flag"
    for column in (0, 1):
        tooltip = window.table.item(0, column).toolTip()
        assert not Qt.mightBeRichText(tooltip) and tooltip.splitlines()[1] == window.table.item(0, column).text()
    rec.close("process exited with code 0")
