"""Several live servers at once (issue 14, points 1–6), driven in the app as launched."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from lens_support import EVERYTHING, HOSTILE
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QLineEdit, QListWidget, QTableView, QToolButton
from test_tapped_sessions import copy_from_menu
from test_traffic import call, choose, choose_file, click_row, header_names, shown_rows

SERVERS_FILE = Path(".config/mcp-lens/servers.json")
FLOOD = Path(__file__).resolve().parents[1] / "servers/flood.py"


def save_servers(lens: Any, servers: dict[str, dict[str, Any]]) -> None:
    folder = lens.home / SERVERS_FILE.parent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "servers.json").write_text(json.dumps({"mcpServers": servers}))


def announced(lens: Any, name: str) -> str:
    """What the sidebar entry says to a screen reader: its name and live state."""
    servers = lens.find("Servers", QListWidget)
    item = next(servers.item(i) for i in range(servers.count()) if servers.item(i).text() == name)
    return item.data(Qt.ItemDataRole.AccessibleTextRole)


def open_server(lens: Any, name: str) -> None:
    """Select a server in the sidebar and press its Connect button."""
    lens.click_item("Servers", name)
    lens.click("Connect to the selected server")


def tool_names(lens: Any) -> list[str]:
    view = lens.find("Tool list", QAbstractItemView)
    model = view.model()
    return [str(model.index(row, 0).data()) for row in range(model.rowCount())]


def handshakes(lens: Any) -> int:
    return len(lens.sent("server/discover")) + len(lens.sent("initialize"))


def sent_by(lens: Any, server: str) -> list[str]:
    """The methods of the requests we sent to `server`, in order."""
    return [e.method for e in lens.wire() if e.source == server and e.direction == "out" and e.kind == "request"]


def log(lens: Any) -> QTableView:
    return lens.find("Traffic log", QAbstractItemView)


def test_two_servers_live_at_once_each_with_its_own_tabs(lens) -> None:
    save_servers(lens, {"second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]}})
    lens.start()
    assert announced(lens, "Demo server").startswith("Demo server, connected")
    # a value typed into the demo's echo form stays there while another server is shown
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "kept-in-the-demo-form")

    open_server(lens, "second demo")
    lens.wait(lambda: announced(lens, "second demo").startswith("second demo, connected"), what="second connected")
    assert announced(lens, "Demo server").startswith("Demo server, connected")  # still live
    assert "modern 2026-07-28" in announced(lens, "second demo")  # the entry says era and version
    lens.wait(lambda: "Echo (echo)" in " ".join(tool_names(lens)), what="the second server's tools")
    lens.click_item("Tool list", "Echo (echo)")
    assert lens.find("message", QLineEdit).text() == ""  # the second server's own (fresh) form

    # back to the demo: its tabs without a reconnect, the form as it was left; the server left is not asked
    # anything by the switch (its Resources and Prompts pages are not shown on the way out)
    before = handshakes(lens)
    lens.wait(lambda: sent_by(lens, "second demo"), what="the second server's requests so far")
    lens.qtbot.wait(300)
    asked = sent_by(lens, "second demo")
    lens.click_item("Servers", "Demo server")
    lens.wait(lambda: lens.find("message", QLineEdit).text() == "kept-in-the-demo-form", what="the demo's form")
    assert handshakes(lens) == before
    lens.qtbot.wait(300)
    assert sent_by(lens, "second demo") == asked
    assert "Demo server" in lens.status()

    # one traffic log for both: a Server column, a filter by server
    view = log(lens)
    assert not view.isColumnHidden(header_names(view).index("Server"))
    servers_seen = {row["Server"] for row in shown_rows(view)}
    assert {"Demo server", "second demo"} <= servers_seen, servers_seen
    choose(lens, "Server filter", "second demo")
    lens.wait(lambda: {row["Server"] for row in shown_rows(view)} == {"second demo"}, what="one server's rows")

    # a call on the demo goes to the demo only
    choose(lens, "Server filter", "All servers")
    call(lens, "Echo (echo)")
    lens.wait(
        lambda: any(e.direction == "in" and b"kept-in-the-demo-form" in e.raw for e in lens.wire()),
        what="the demo's answer",
    )
    echoed = [e for e in lens.wire() if e.direction == "out" and b"kept-in-the-demo-form" in e.raw]
    assert [e.source for e in echoed] == ["Demo server"]

    # Budget → Compare takes the other server's list from its live session: no second connection
    before = handshakes(lens)
    lens.tab("Budget")
    lens.key("Ctrl+Shift+M")
    menu = lens.find("Add saved server").menu()
    menu.aboutToShow.emit()  # what opening the button's menu does
    next(a for a in menu.actions() if a.text() == "second demo (connected)").trigger()
    lens.wait_text("its live session (no second connection)")
    assert handshakes(lens) == before

    # disconnecting one leaves the other connected
    lens.click_item("Servers", "second demo")
    lens.click("Disconnect the selected server")
    lens.wait(lambda: announced(lens, "second demo") == "second demo, disconnected", what="second disconnected")
    assert announced(lens, "Demo server").startswith("Demo server, connected")
    assert lens.quit() == 0


def test_five_servers_a_flood_and_a_crash_touch_only_their_own_entries(lens) -> None:
    save_servers(
        lens,
        {
            "second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]},
            "everything": {"command": "node", "args": [str(EVERYTHING)]},
            "flood": {"command": sys.executable, "args": [str(FLOOD)]},
            "crashes": {"command": sys.executable, "args": [str(HOSTILE), "exit-mid-call"]},
        },
    )
    lens.start()
    for name in ("second demo", "everything", "flood", "crashes"):
        open_server(lens, name)
    for name in ("Demo server", "second demo", "everything", "flood", "crashes"):
        lens.wait(lambda n=name: announced(lens, n).startswith(f"{n}, connected"), 30_000, what=f"{name} connected")

    # the crashing server: its call ends it; its entry says why; the others stay connected
    lens.click_item("Servers", "crashes")
    lens.wait(lambda: bool(tool_names(lens)), what="the crashing server's tools")
    call(lens, tool_names(lens)[0])
    lens.wait(lambda: ", error:" in announced(lens, "crashes"), 15_000, what="the crash on its own entry")
    assert "code 3" in announced(lens, "crashes"), announced(lens, "crashes")
    for name in ("Demo server", "second demo", "everything", "flood"):
        assert announced(lens, name).startswith(f"{name}, connected"), announced(lens, name)

    # the flood: 20,000 notifications on one server while the demo answers a call
    lens.click_item("Servers", "flood")
    lens.wait(lambda: "flood" in tool_names(lens), what="the flood tool")
    call(lens, "flood", count="20000")
    lens.click_item("Servers", "Demo server")
    lens.wait(lambda: "Echo (echo)" in " ".join(tool_names(lens)), what="the demo's tools")
    call(lens, "Echo (echo)", message="during-the-flood")
    lens.wait(lambda: any(e.direction == "in" and b"during-the-flood" in e.raw for e in lens.wire()), 20_000)
    lens.wait(
        lambda: sum(1 for e in lens.wire() if e.source == "flood" and e.method == "notifications/message") == 20_000,
        30_000,
        what="every flood notification recorded",
    )
    assert announced(lens, "Demo server").startswith("Demo server, connected")
    # the sidebar's detail line for a connected server shows its era; Budget → Compare offers the live ones
    assert lens.quit() == 0


def test_reopen_connected_servers_at_start_is_a_setting_off_by_default(lens) -> None:
    save_servers(lens, {"second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]}})
    lens.start()
    open_server(lens, "second demo")
    lens.wait(lambda: announced(lens, "second demo").startswith("second demo, connected"), what="second connected")
    assert lens.quit() == 0

    lens.start()  # off by default: only the last server comes back
    assert announced(lens, "second demo").startswith("second demo, connected")
    assert announced(lens, "Demo server") == "Demo server, disconnected"
    open_server(lens, "Demo server")
    lens.wait(lambda: announced(lens, "Demo server").startswith("Demo server, connected"), what="demo connected")
    action = lens.menu("Server", "Reopen Connected Servers at Start")
    assert action.isChecked()
    assert lens.quit() == 0

    lens.start()  # on: both come back, the last one shown
    for name in ("Demo server", "second demo"):
        lens.wait(lambda n=name: announced(lens, n).startswith(f"{n}, connected"), 30_000, what=f"{name} reopened")
    assert lens.quit() == 0


def test_export_one_server_or_all(lens, tmp_path: Path) -> None:
    from inspector.traffic import jsonl

    save_servers(lens, {"second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]}})
    lens.start()
    open_server(lens, "second demo")
    lens.wait(lambda: announced(lens, "second demo").startswith("second demo, connected"), what="second connected")
    choose(lens, "Server filter", "second demo")  # File › Export session writes what the filter shows
    one = tmp_path / "one.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, one)
    lens.wait(one.exists, what="the export")
    store, meta = jsonl.load(one)
    assert {e.source for e in store} == {"second demo"} and meta["servers"] == ["second demo"]
    combo = lens.find("Server filter", QComboBox)  # by the keyboard this time: Home picks "All servers"
    combo.setFocus()
    lens.key("Home", combo)
    assert combo.currentText() == "All servers"
    both = tmp_path / "both.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, both)
    lens.wait(both.exists, what="the export")
    store, meta = jsonl.load(both)
    assert {e.source for e in store} == {"Demo server", "second demo"}
    assert sorted(meta["servers"]) == ["Demo server", "second demo"]
    assert lens.quit() == 0


def test_a_live_server_renamed_keeps_its_session_and_deleted_closes_it(lens) -> None:
    from test_servers import answer, dialog

    save_servers(lens, {"second demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]}})
    lens.start()
    open_server(lens, "second demo")
    lens.wait(lambda: announced(lens, "second demo").startswith("second demo, connected"), what="second connected")
    before = handshakes(lens)

    lens.click("Edit server")
    box = dialog(lens, "Edit Server")
    lens.type(lens.find("Name", top=box), "renamed demo")
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Edit Server dialog closes")
    lens.wait(lambda: announced(lens, "renamed demo").startswith("renamed demo, connected"), what="renamed, still live")
    assert handshakes(lens) == before  # the same session, not a new one
    lens.wait_status(lambda text: "renamed demo: connected" in text)  # the status bar names it anew
    lens.wait(lambda: "Echo (echo)" in " ".join(tool_names(lens)), what="its tools still shown")
    # a call after the rename is recorded under the new name, and "copy as command" repeats it on this server
    call(lens, "Echo (echo)", message="after-the-rename")
    lens.wait(lambda: any(e.direction == "in" and b"after-the-rename" in e.raw for e in lens.wire()), what="answer")
    request = next(e for e in lens.wire() if e.direction == "out" and b"after-the-rename" in e.raw)
    assert request.source == "renamed demo"
    table = log(lens)

    def request_row() -> int | None:  # the log shows rows in batches: wait for the request's
        return next((r for r, row in enumerate(shown_rows(table)) if row["#"] == str(request.seq)), None)

    lens.wait(lambda: request_row() is not None, what="the request listed")
    click_row(lens, table, request_row())
    copy_from_menu(lens, lens.find("Copy message", QToolButton), "Copy as mcp-lens --cli")
    copied = QGuiApplication.clipboard().text()
    assert "--tool-name echo" in copied and "inspector.demo" in copied, copied

    lens.click("Delete server")
    answer(lens, "Delete Server", "Delete")
    lens.wait(
        lambda: any(e.kind == "lifecycle" and b"exited" in e.raw and e.source == "renamed demo" for e in lens.wire()),
        what="the deleted server's process ends",
    )
    listed = lens.find("Servers", QListWidget)
    assert [listed.item(i).text() for i in range(listed.count())] == ["Demo server"]
    assert announced(lens, "Demo server").startswith("Demo server, connected")
    assert lens.quit() == 0
