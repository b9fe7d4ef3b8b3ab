"""The Run against… window on records built with the factories, run against real processes: a record
served by `mcp-lens replay` (a second record whose answer differs, holding hostile text), and a process
that never answers (Cancel)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from factories import call_result, request, response, tool_call
from lens_support import REPO, free_port, serve
from PySide6.QtWidgets import QLabel, QListWidget

from inspector.config.profile import ServerProfile
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.replay.run_window import RunAgainstWindow

HEADER_LOG = REPO / "tests/servers/header_log.py"
HOSTILE = "<b>bold</b>\u202eevil"  # looks like HTML, with a right-to-left override


def record(path: Path, answer: str) -> Path:
    store = TrafficStore()
    hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}, "capabilities": {}}
    request(store, 1, "initialize", hello)
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}})
    tool_call(store, 2, "echo", {"text": "hi"})
    response(store, 2, call_result(answer))
    jsonl.save(path, store)
    return path


def started(qtbot: Any, path: Path, command: list[str]) -> RunAgainstWindow:
    window = RunAgainstWindow(path, None, dict)
    qtbot.addWidget(window)
    window.show()
    window.target_edit.setText(" ".join(command))
    window.run_button.click()
    return window


def test_a_changed_answer_with_hostile_text_is_listed_and_shown_as_plain_text(qtbot, qloop, tmp_path: Path) -> None:
    before = record(tmp_path / "before.jsonl", "hi")
    after = record(tmp_path / "after.jsonl", HOSTILE)
    window = started(qtbot, before, [sys.executable, "-m", "inspector", "replay", str(after), "--fast"])
    qtbot.waitUntil(lambda: "requests replayed" in window.summary.text(), timeout=60_000)
    assert "1 different" in window.summary.text() and window.save_button.isEnabled()
    model = window.table.model()
    assert [model.index(row, 2).data() for row in range(model.rowCount())] == ["identical", "different"]
    assert window.table.currentIndex().row() == 1  # the first changed answer is the one shown
    changed: QListWidget = window.sides.changes_list
    assert changed.count() == 1
    shown = changed.item(0).text()
    assert "\u202e" not in shown and "\\u202e" in shown and "<b>bold</b>" in shown  # escaped, tags as text
    assert "\u202e" not in window.sides.right.edit.toPlainText()
    assert all(label.textFormat() != label.textFormat().RichText for label in window.findChildren(QLabel))
    assert window.sides.marked == (1, 1)  # the changed line marked on each side


def test_cancel_stops_a_run_that_gets_no_answer_and_ends_the_process(qtbot, qloop, tmp_path: Path) -> None:
    before = record(tmp_path / "before.jsonl", "hi")
    pid_file = tmp_path / "pid"
    script = f"import os,time; open({str(pid_file)!r},'w').write(str(os.getpid())); time.sleep(600)"
    silent = [sys.executable, "-c", script]
    window = RunAgainstWindow(before, None, dict)
    qtbot.addWidget(window)
    window.show()
    window.target_combo.setCurrentIndex(window.target_combo.count() - 1)
    window.target_edit.setText(" ".join(_quoted(word) for word in silent))
    window.run_button.click()
    qtbot.waitUntil(lambda: pid_file.exists() and pid_file.read_text().isdigit(), timeout=60_000)
    qtbot.waitUntil(lambda: window.cancel_button.isEnabled(), timeout=10_000)
    assert not window.run_button.isEnabled()
    window.cancel_button.click()
    assert window.summary.text().startswith("Cancelled after 0 of 2 requests")
    assert window.run_button.isEnabled() and not window.cancel_button.isEnabled()
    pid = int(pid_file.read_text())
    qtbot.waitUntil(lambda: not Path(f"/proc/{pid}").exists() or _zombie(pid), timeout=30_000)


def _quoted(word: str) -> str:
    import shlex

    return shlex.quote(word)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return True


def test_a_workspace_http_server_is_run_against_with_its_headers_and_stored_sign_in(
    qtbot, qloop, tmp_path: Path
) -> None:
    """Run against… a workspace server over Streamable HTTP sends what a connect to it sends: the profile's
    headers and the token its sign-in stored (`signed_in`), not just its URL."""
    before = record(tmp_path / "before.jsonl", "hi")
    port, log = free_port(), tmp_path / "headers.jsonl"
    profile = ServerProfile(
        name="logged", transport="http", url=f"http://127.0.0.1:{port}/mcp", headers={"X-Team": "t1"}
    )
    for _ in serve([sys.executable, str(HEADER_LOG), str(port), str(log)], port, {"PYTHONPATH": str(REPO)}):
        window = RunAgainstWindow(before, None, lambda: {"logged": profile}, signed_in=lambda _p: "stored-token")
        qtbot.addWidget(window)
        window.show()
        assert window.target_combo.currentText() == "logged"
        window.run_button.click()
        qtbot.waitUntil(lambda w=window: "requests replayed" in w.summary.text(), timeout=60_000)
    posted = [dict(e["headers"]) for e in map(json.loads, log.read_text().splitlines()) if "headers" in e]
    assert posted and all(h.get("x-team") == "t1" for h in posted), posted
    assert all(h.get("authorization") == "Bearer stored-token" for h in posted), posted


def test_a_server_that_stops_mid_run_is_said_once(qtbot, qloop, tmp_path: Path) -> None:
    """OT7 11: the stop reason was said twice in the summary."""
    before = record(tmp_path / "before.jsonl", "hi")
    store = TrafficStore()  # a server that answers the handshake, then ends on the call (--strict)
    hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}, "capabilities": {}}
    request(store, 1, "initialize", hello)
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}})
    jsonl.save(tmp_path / "short.jsonl", store)
    argv = [sys.executable, "-m", "inspector", "replay", str(tmp_path / "short.jsonl"), "--fast", "--strict"]
    window = started(qtbot, before, argv)
    qtbot.waitUntil(lambda: "requests replayed" in window.summary.text(), timeout=60_000)
    text = window.summary.text()
    assert text.lower().count("stopped") == 1, text


def test_the_verdict_column_shows_each_verdict_whole(qtbot, qloop, tmp_path: Path) -> None:
    """OT7 5: the Verdict column kept the width of what it first measured ("equal after volatile rules" cut
    to "equal…")."""

    def versioned(path: Path, version: str) -> Path:
        store = TrafficStore()
        hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}, "capabilities": {}}
        request(store, 1, "initialize", hello)
        info = {"name": "s", "version": version}
        response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": info})
        tool_call(store, 2, "echo", {"text": "hi"})
        response(store, 2, call_result("hi"))
        jsonl.save(path, store)
        return path

    before, after = versioned(tmp_path / "before.jsonl", "1"), versioned(tmp_path / "after.jsonl", "2")
    window = started(qtbot, before, [sys.executable, "-m", "inspector", "replay", str(after), "--fast"])
    qtbot.waitUntil(lambda: "requests replayed" in window.summary.text(), timeout=60_000)
    qtbot.wait(100)
    table, model = window.table, window.table.model()
    shown = [str(model.index(row, 2).data()) for row in range(model.rowCount())]
    assert any(text.startswith("equal") for text in shown), shown
    widest = max(table.fontMetrics().horizontalAdvance(text) for text in shown)
    assert table.columnWidth(2) > widest, (shown, table.columnWidth(2), widest)


def test_saving_a_run_says_when_the_records_client_declared_capabilities_mcp_lens_run_does_not(
    qtbot, qloop, tmp_path: Path
) -> None:
    """OT7 14: a collection saved from a run of a client that declared sampling and roots failed under the
    line the window gave, against the same server: `mcp-lens run` declares none, and the server listed fewer
    tools. The window says so when it saves."""
    store = TrafficStore()
    hello = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}}
    request(store, 1, "initialize", {**hello, "capabilities": {"sampling": {}, "roots": {"listChanged": True}}})
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}})
    tool_call(store, 2, "echo", {"text": "hi"})
    response(store, 2, call_result("hi"))
    before = tmp_path / "before.jsonl"
    jsonl.save(before, store)
    window = started(qtbot, before, [sys.executable, "-m", "inspector", "replay", str(before), "--fast"])
    qtbot.waitUntil(lambda: "requests replayed" in window.summary.text(), timeout=60_000)
    assert window.save_collection(tmp_path / "saved.json") == 1  # the tools/call (the handshake is run's own)
    said = window.summary.text()
    assert "sampling, roots" in said and "declares none" in said, said


def test_latencies_are_shown_to_a_tenth_of_a_millisecond_as_the_cli_says_them(qtbot, qloop, tmp_path: Path) -> None:
    """OT7 5: the window rounded to whole milliseconds ("0", "1") where the CLI said 0.3 ms."""
    before = record(tmp_path / "before.jsonl", "hi")
    window = started(qtbot, before, [sys.executable, "-m", "inspector", "replay", str(before), "--fast"])
    qtbot.waitUntil(lambda: "requests replayed" in window.summary.text(), timeout=60_000)
    model = window.table.model()
    cells = [str(model.index(row, column).data()) for row in range(model.rowCount()) for column in (3, 4)]
    assert cells and all(re.fullmatch(r"\d[\d,]*\.\d|—", cell) for cell in cells), cells
