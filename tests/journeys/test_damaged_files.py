"""Damaged files as a user meets them: a record with a bad line, a servers.json that is not UTF-8, a record
whose tap was killed, servers added after Keep File. The app opens what is intact and says what is not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from factories import request, response
from journey_support import shown_text
from PySide6.QtWidgets import QAbstractItemView
from test_servers import SERVERS_FILE, _box, add_stdio_server, answer, current_server, server_rows
from test_tapped_sessions import DEMO, TapFile, rows, sessions_window, taps_folder, viewer_for
from test_traffic import choose_file, shown_rows, viewer_window, without_blocking

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction
from inspector.traffic.store import TrafficStore


def seventy_entries(path: Path) -> None:
    store = TrafficStore()
    for n in range(35):
        request(store, n, "ping")
        response(store, n)
    jsonl.save(path, store)


def test_a_record_with_a_bad_line_opens_with_its_intact_rows_and_names_the_line(lens, tmp_path: Path) -> None:
    path = tmp_path / "damaged.jsonl"
    seventy_entries(path)
    lines = path.read_bytes().split(b"\n")
    lines[30] = b"\xff\xfe" + lines[30][:25]  # line 31: not UTF-8, and cut, with more lines after it
    path.write_bytes(b"\n".join(lines))
    lens.start()
    without_blocking(lens, lambda: lens.menu("File", "Open session…"))
    choose_file(lens, path)
    viewer = viewer_window(lens)
    log = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.wait(lambda: rows(log) == 69, what="the 69 intact entries")
    assert all(row["Status"] == "ok" for row in shown_rows(log))
    lens.wait(lambda: "line 31" in viewer.statusBar().currentMessage(), what="the bad line is named")
    assert "damaged" in viewer.statusBar().currentMessage()
    kept = lens.find("Damaged lines", top=viewer)  # stays in view when a menu hint takes the status bar
    assert shown_text(kept) == "⚠ 1 damaged line: 31" and "\\xff\\xfe" in kept.toolTip()
    viewer.close()
    assert lens.quit() == 0


def test_a_servers_file_that_is_not_utf8_asks_the_corrupt_file_question(lens) -> None:
    path = lens.home / SERVERS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = '{"mcpServers": {"café": {"command": "x"}}}\n'.encode("latin-1")
    path.write_bytes(raw)
    lens.start(connected=False)
    lens.wait(lambda: _box(lens, "Saved Servers Are Unreadable") is not None, what="the corrupt-file question")
    said = _box(lens, "Saved Servers Are Unreadable").text()
    assert "not UTF-8 text: byte 0xE9 at line 1, column 21" in said and "Back it up and start" in said
    answer(lens, "Saved Servers Are Unreadable", "Keep File")
    lens.wait_connected()
    assert lens.shows("Saved servers could not be read")
    assert path.read_bytes() == raw  # kept as it is
    assert lens.quit() == 0


def test_a_record_whose_tap_was_killed_says_so_and_its_open_request_has_no_answer(lens) -> None:
    tap = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", "tap"])
    record = TapFile(taps_folder(lens) / "killed-20261127-070000.jsonl", "killed-tap", DEMO, pid=tap.pid)
    record.exchange(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x"}})
    record.message(Direction.OUT, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    lens.start()
    window = sessions_window(lens)
    table = lens.find("Tapped sessions", QAbstractItemView, top=window)
    lens.click_item(table, "killed-tap")
    lens.click(lens.find("Open record", top=window))
    viewer = viewer_for(lens, record.path.name)
    log = lens.find("Traffic log", QAbstractItemView, top=viewer)
    lens.wait(lambda: rows(log) == 3, what="the record's three rows")
    lens.wait(lambda: "as the record grows" in viewer.statusBar().currentMessage(), what="it follows the record")
    tap.kill()  # kill -9: no "process exited" line
    tap.wait()
    lens.wait(lambda: "stopped writing" in viewer.statusBar().currentMessage(), timeout=30_000, what="it says so")
    assert "as the record grows" not in viewer.statusBar().currentMessage()
    lens.wait(lambda: "no reply" in shown_rows(log)[2]["Status"], what="the request left without a response")
    assert shown_rows(log)[0]["Status"] == "ok"
    for widget in (viewer, window):
        widget.close()
    assert lens.quit() == 0


def test_servers_added_after_keep_file_are_not_dropped_at_quit(lens) -> None:
    path = lens.home / SERVERS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"mcpServers": {"a": {"command": "x",}}\n')
    lens.start(connected=False)
    answer(lens, "Saved Servers Are Unreadable", "Keep File")
    lens.wait_connected()
    add_stdio_server(lens, "added later", sys.executable, "-m", "inspector", "--demo-server")
    answer(lens, "Could Not Save Servers", "OK")
    assert "added later" in server_rows(lens)
    lens.menu("File", "Quit")
    answer(lens, "Servers Not Saved", "Cancel")  # the window stays
    assert lens.window is not None and lens.window.isVisible()
    lens.menu("File", "Quit")
    answer(lens, "Servers Not Saved", "Save Copy and Quit")
    assert lens.wait_exit() == 0
    [copy] = path.parent.glob("servers.json.unsaved-*")
    assert "added later" in copy.read_text() and path.read_bytes() == b'{"mcpServers": {"a": {"command": "x",}}\n'
    assert oct(copy.stat().st_mode & 0o777) == "0o600"


def test_the_settings_file_is_user_only(lens) -> None:
    lens.start()
    assert lens.quit() == 0
    [conf] = (lens.home / ".config").rglob("mcp-lens.conf")
    assert oct(conf.stat().st_mode & 0o777) == "0o600" and "geometry" in conf.read_text()


def three_servers(lens) -> Path:
    """A servers.json as MCP Lens writes it, with three demo servers."""
    from inspector.config.profile import ServerProfile
    from inspector.config.store import ProfileStore

    store = ProfileStore(lens.home / SERVERS_FILE)
    store.load()
    for name in ("alpha", "memory", "omega"):
        store.add(ServerProfile(name, command=sys.executable, args=["-m", "inspector", "--demo-server"]))
    store.save()
    return store.path


def test_a_servers_file_with_a_bad_byte_shows_its_intact_servers_and_names_the_line(lens) -> None:
    path = three_servers(lens)
    damaged = path.read_bytes().replace(b'"memory"', b'"me\xffmory"', 1)
    path.write_bytes(damaged)
    line = damaged[: damaged.index(b"\xff")].count(b"\n") + 1
    lens.start(connected=False)
    lens.wait(lambda: _box(lens, "Saved Servers Were Damaged") is not None, what="the damaged-file message")
    said = _box(lens, "Saved Servers Were Damaged").text()
    assert f"line {line}" in said and "0xFF" in said and "Kept: 2 servers" in said and ".corrupt-" in said
    answer(lens, "Saved Servers Were Damaged", "OK")
    lens.wait_connected()
    assert {"alpha", "omega"} <= set(server_rows(lens)) and not any("mory" in row for row in server_rows(lens))
    assert not lens.shows("Saved servers could not be read")
    [backup] = path.parent.glob("servers.json.corrupt-*")
    assert backup.read_bytes() == damaged and path.read_bytes() == damaged  # not written until a save
    assert lens.quit() == 0


def test_a_utf16_servers_file_shows_every_server_and_is_saved_as_utf8_after_a_backup(lens) -> None:
    path = three_servers(lens)
    wide = path.read_text(encoding="utf-8").encode("utf-16")  # as Windows PowerShell 5's `>` writes it
    path.write_bytes(wide)
    lens.start(connected=False)
    lens.wait(lambda: _box(lens, "Saved Servers Were Damaged") is not None, what="the damaged-file message")
    assert "UTF-16 LE" in _box(lens, "Saved Servers Were Damaged").text()
    answer(lens, "Saved Servers Were Damaged", "OK")
    lens.wait_connected()
    assert {"alpha", "memory", "omega"} <= set(server_rows(lens))
    assert "omega" in path.read_bytes().decode("utf-8")  # saved again as UTF-8 at once: said once
    assert lens.quit() == 0
    lens.start(connected=False)
    lens.wait_connected()
    assert _box(lens, "Saved Servers Were Damaged") is None and {"alpha", "omega"} <= set(server_rows(lens))
    add_stdio_server(lens, "added later", sys.executable, "-m", "inspector", "--demo-server")
    lens.wait(lambda: b"added later" in path.read_bytes(), what="the save")
    text = path.read_bytes().decode("utf-8")
    assert all(name in text for name in ("alpha", "memory", "omega", "added later"))
    [backup] = path.parent.glob("servers.json.corrupt-*")
    assert backup.read_bytes() == wide
    assert lens.quit() == 0


SETTINGS_FILE = Path(".config/mcp-lens/mcp-lens.conf")


@pytest.mark.parametrize("damage", ["utf-16", "bad byte"])
def test_a_damaged_settings_file_is_kept_aside_said_and_its_intact_settings_used(lens, damage: str) -> None:
    three_servers(lens)
    path = lens.home / SETTINGS_FILE
    conf = "[session]\nlastServer=omega\n\n[other]\nbroken=1\n"
    raw = conf.encode("utf-16") if damage == "utf-16" else conf.encode().replace(b"broken", b"bro\xffken")
    path.write_bytes(raw)
    lens.start(connected=False)
    lens.wait(lambda: "mcp-lens.conf" in lens.window.statusBar().currentMessage(), what="the settings message")
    said = lens.window.statusBar().currentMessage()
    [copy] = path.parent.glob("mcp-lens.conf.damaged-*")
    assert str(path) in said and copy.name in said and copy.read_bytes() == raw
    assert ("UTF-16 LE" in said) if damage == "utf-16" else ("(5)" in said)
    lens.wait(lambda: current_server(lens) == "omega", what="the last server, from the intact settings")
    assert lens.quit() == 0
    text = path.read_bytes().decode("utf-8")  # written by Qt at quit: UTF-8, the settings kept
    assert "lastServer=omega" in text and "\x00" not in text


def test_a_damaged_config_on_the_command_line_connects_its_intact_server_and_says_what_was_left_out(
    lens, tmp_path: Path
) -> None:
    demo = {"command": sys.executable, "args": ["-m", "inspector", "--demo-server"]}
    text = json.dumps({"mcpServers": {"memory": {"command": "node"}, "demo": demo}}, indent=2)
    config = tmp_path / "mcp.json"
    config.write_bytes(text.encode().replace(b'"memory"', b'"me\xffmory"'))
    lens.start("--config", str(config), "--server", "demo", connected=False)
    lens.wait(lambda: _box(lens, "Config File Was Damaged") is not None, what="the damaged-config message")
    said = _box(lens, "Config File Was Damaged").text()
    assert str(config) in said and "line 3" in said and "0xFF" in said
    answer(lens, "Config File Was Damaged", "OK")
    lens.wait_connected()
    assert "demo" in lens.status()
    assert lens.quit() == 0
