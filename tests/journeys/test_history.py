"""History of calls (issue 22, "History and records"): kept across a restart (0600, redacted, bounded),
calls run as tasks listed, a History row picked keeps the History tab, Copy as CLI keeps every header
(a secret's value redacted, and said), each tool's form kept while visiting others."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit, QTableView, QTableWidget, QTabWidget
from test_task_journeys import run_as_task
from test_traffic import choose_file
from test_workspace import announced, open_server, save_servers

from inspector.config.profile import ServerProfile
from inspector.ui.main_window import cli_target
from inspector.ui.traffic.viewer_window import ViewerWindow


def history(lens) -> QTableWidget:
    lens.tab("History")
    return lens.find("Call history", QTableWidget)


def rows(table: QTableWidget) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def call_echo(lens, text: str) -> None:
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", text)
    lens.click("Call  (Ctrl+Enter)")
    lens.wait(lambda: lens.shows("✓ OK"), what="the result")


def history_files(lens) -> list[Path]:
    return sorted((lens.home / ".local/share/mcp-lens/history").glob("*.json"))


def test_history_is_kept_across_a_restart_private_and_listed_again(lens) -> None:
    lens.start()
    call_echo(lens, "kept-for-later")
    lens.wait(lambda: history_files(lens), what="the history file written")
    [path] = history_files(lens)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert "kept-for-later" in path.read_text(encoding="utf-8")
    assert lens.quit() == 0

    lens.start()
    table = history(lens)
    lens.wait(lambda: any("kept-for-later" in row[5] for row in rows(table)), what="the earlier call listed")
    [row] = [row for row in rows(table) if "kept-for-later" in row[5]]
    assert row[2] == "echo" and row[4] == "ok"


def test_picking_a_history_row_keeps_the_history_tab_with_its_actions(lens) -> None:
    lens.start()
    call_echo(lens, "first")
    table = history(lens)
    lens.wait(lambda: rows(table) and rows(table)[0][4] == "ok", what="the call finished")
    lens.click_item(table, "echo")
    tabs = next(w for w in lens.widgets(QTabWidget) if w.objectName() == "resultTabs")
    lens.qtbot.wait(200)
    assert tabs.tabText(tabs.currentIndex()) == "History"
    assert lens.find("Re-run").isVisible() and lens.find("Copy as mcp-lens --cli").isVisible()


def test_a_call_run_as_a_task_is_in_history_with_its_outcome(lens) -> None:
    lens.start()
    run_as_task(lens, "research_topic", steps="2", delay="0.2")
    table = history(lens)
    lens.wait(lambda: any(row[2] == "research_topic" for row in rows(table)), what="the task call listed")
    lens.wait(
        lambda: any(row[2] == "research_topic" and row[4] == "task · ok" for row in rows(table)),
        timeout=30_000,
        what=f"its outcome once the task completed: {rows(table)}",
    )


def test_copy_as_cli_keeps_a_bearer_token_header_redacted() -> None:
    profile = ServerProfile(name="s", transport="http", url="http://127.0.0.1:1/mcp", bearer_token="sk-abcdef123456")
    words = cli_target(profile)
    assert "Authorization: Bearer <redacted>" in words and "sk-abcdef123456" not in " ".join(words)


def test_each_tool_keeps_what_was_typed_while_others_are_visited(lens) -> None:
    lens.start()
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "typed-for-echo")
    lens.click_item("Tool list", "order_coffee")
    lens.type("drink", "flat white")
    lens.click_item("Tool list", "Echo (echo)")
    assert lens.find("message", QLineEdit).text() == "typed-for-echo"
    lens.click_item("Tool list", "order_coffee")
    assert lens.find("drink", QLineEdit).text() == "flat white"


def test_an_exported_record_of_several_servers_opens_with_their_column_and_filter(lens, tmp_path: Path) -> None:
    save_servers(lens, {"second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]}})
    lens.start()
    open_server(lens, "second demo")
    lens.wait(lambda: announced(lens, "second demo").startswith("second demo, connected"), what="second connected")
    both = tmp_path / "both.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, both)
    lens.wait(both.exists, what="the export")
    lens.menu("File", "Open session…")
    choose_file(lens, both)
    lens.wait(lambda: any(isinstance(w, ViewerWindow) for w in lens.widgets()), what="the record's window")
    viewer = next(w for w in lens.widgets() if isinstance(w, ViewerWindow))
    table = lens.find("Traffic log", QTableView, top=viewer)
    shown = [
        table.model().headerData(c, Qt.Orientation.Horizontal)
        for c in range(table.model().columnCount())
        if not table.isColumnHidden(c)
    ]
    assert "Server" in shown, shown
    servers = lens.find("Server filter", QComboBox, top=viewer)
    assert {servers.itemText(i) for i in range(servers.count())} >= {"Demo server", "second demo"}


def test_a_damaged_history_is_said_in_the_history_tab_and_its_intact_calls_listed(lens) -> None:
    """h13 point 4 (outside tester 48/49): a damaged History file showed an empty History with no message,
    and the next save dropped what it held. One bad entry among good ones: the History tab says the file
    was damaged and set aside, lists the intact call, and a new call's save leaves the set-aside bytes."""
    from PySide6.QtWidgets import QLabel

    from inspector.core.history_file import history_path

    path = history_path("Demo server", {"XDG_DATA_HOME": str(lens.home / ".local/share"), "HOME": str(lens.home)})
    path.parent.mkdir(parents=True, mode=0o700)
    good = {"tool": "echo", "arguments": {"message": "intact-call"}, "started": 1.0, "outcome": "ok"}
    damaged = json.dumps({"version": 1, "calls": [good, "garbage"]}).encode()
    path.write_bytes(damaged)
    lens.start()
    table = history(lens)
    note = lens.find("History file damaged", QLabel)
    lens.wait(lambda: note.isVisible() and "set aside" in note.text(), 30_000, "the History tab says so")
    assert any("intact-call" in row[5] for row in rows(table)), rows(table)
    call_echo(lens, "after-the-damage")
    lens.wait(lambda: path.exists() and "after-the-damage" in path.read_text(encoding="utf-8"), 30_000, "saved")
    assert "intact-call" in path.read_text(encoding="utf-8")
    [aside] = path.parent.glob(path.name + ".damaged-*")
    assert aside.read_bytes() == damaged


def test_a_utf16_history_lists_its_calls_says_so_and_keeps_its_bytes(lens) -> None:
    """Outside tester of issue 21, finding 7: a History file re-saved as UTF-16 (with its mark) was refused
    whole, 0 of its calls listed. It is read as UTF-16: the call listed, the encoding said above the calls,
    and a new call's save (UTF-8) leaves the UTF-16 bytes set aside."""
    from PySide6.QtWidgets import QLabel

    from inspector.core.history_file import history_path

    path = history_path("Demo server", {"XDG_DATA_HOME": str(lens.home / ".local/share"), "HOME": str(lens.home)})
    path.parent.mkdir(parents=True, mode=0o700)
    good = {"tool": "echo", "arguments": {"message": "wide-call ✓"}, "started": 1.0, "outcome": "ok"}
    wide = json.dumps({"version": 1, "calls": [good]}, ensure_ascii=False, indent=1).encode("utf-16")
    path.write_bytes(wide)
    lens.start()
    table = history(lens)
    note = lens.find("History file damaged", QLabel)
    lens.wait(lambda: note.isVisible() and "UTF-16 LE" in note.text(), 30_000, "the History tab says so")
    assert "could not be read" not in note.text(), note.text()
    assert any("wide-call ✓" in row[5] for row in rows(table)), rows(table)
    call_echo(lens, "after-the-wide-file")
    lens.wait(lambda: path.exists() and "after-the-wide-file" in path.read_text(encoding="utf-8"), 30_000, "saved")
    assert "wide-call ✓" in path.read_text(encoding="utf-8")
    [aside] = path.parent.glob(path.name + ".utf-16-le-*")
    assert aside.read_bytes() == wide


def test_historys_call_actions_wait_for_a_call_to_be_chosen(lens) -> None:
    """Outside tester of issue 21, finding 8: Re-run, Replay answers, Edit and re-run and Copy as CLI were
    enabled with History empty and nothing selected (a click did nothing). They are enabled once a call is picked."""
    actions = ("Re-run", "Re-run with the same answers", "Edit and re-run", "Copy as mcp-lens --cli")
    lens.start()
    table = history(lens)
    assert not [name for name in actions if lens.find(name).isEnabled()], "enabled with History empty"
    call_echo(lens, "pick me")
    table = history(lens)
    lens.wait(lambda: rows(table) and rows(table)[0][4] == "ok", what="the call finished")
    table.clearSelection()
    assert not [name for name in actions if lens.find(name).isEnabled()], "enabled with no call selected"
    lens.click_item(table, "echo")
    lens.wait(lambda: all(lens.find(name).isEnabled() for name in actions), what="the actions enabled")
