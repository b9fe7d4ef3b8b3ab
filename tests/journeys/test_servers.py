"""Saved servers as a user keeps them: add, edit, duplicate, delete, import — and find them after a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QDialog, QListWidget, QMessageBox

SERVERS_FILE = Path(".config/mcp-lens/servers.json")


def server_rows(lens) -> list[str]:
    """The names shown in the server list, top to bottom."""
    view = lens.find("Servers", QListWidget)
    return [view.item(i).text() for i in range(view.count())]


def current_server(lens) -> str:
    item = lens.find("Servers", QListWidget).currentItem()
    return item.text() if item is not None else ""


def choose(lens, combo_name: str, text: str, top=None) -> None:
    """Open a combo box's popup with a click and click the entry `text`."""
    combo = lens.find(combo_name, QComboBox, top=top)
    for _attempt in range(3):  # on a loaded machine a popup may swallow the click: open it again, as a person would
        if not combo.view().isVisible():
            lens.click(combo)
            lens.wait(lambda: combo.view().isVisible(), what="the combo's popup opens")
        QTest.qWait(lens.qapp.doubleClickInterval() + 50)  # a popup ignores a release that comes too soon
        lens.click_item(combo.view(), text)
        deadline = time.monotonic() + 2
        while combo.currentText() != text and time.monotonic() < deadline:
            QTest.qWait(20)
        if combo.currentText() == text:
            return
    lens.wait(lambda: combo.currentText() == text, what=f"{text!r} is chosen")


def type_here(window, text: str) -> None:
    """Type where the keyboard focus of `window` is (an inline editor just opened), then press Enter."""
    editor = window.focusWidget()
    QTest.keyClicks(editor, text)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    QTest.qWait(50)  # an item view commits an inline editor's text on the next turn of the event loop


def dialog(lens, title: str) -> QDialog:
    lens.wait(lambda: _dialog(lens, title) is not None, what=f"the {title!r} dialog opens")
    return _dialog(lens, title)


def _dialog(lens, title: str) -> QDialog | None:
    found = [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    return next((w for w in found if w.windowTitle() == title), None)


def add_stdio_server(lens, name: str, command: str, *args: str) -> None:
    lens.click("Add server")
    box = dialog(lens, "Add Server")
    lens.type(lens.find("Name", top=box), name)
    lens.type(lens.find("Command", top=box), command)
    for arg in args:
        lens.click(lens.find("Add argument", top=box))
        type_here(box, arg)
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Add Server dialog closes")


def add_http_server(lens, name: str, url: str) -> None:
    lens.click("Add server")
    box = dialog(lens, "Add Server")
    lens.type(lens.find("Name", top=box), name)
    choose(lens, "Transport", "Streamable HTTP", top=box)
    lens.type(lens.find("URL", top=box), url)
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Add Server dialog closes")


def answer(lens, title: str, button: str) -> None:
    """Press `button` in the message box titled `title`."""
    lens.wait(lambda: _box(lens, title) is not None, what=f"the {title!r} message opens")
    lens.click(lens.find(button, top=_box(lens, title)))


def _box(lens, title: str) -> QMessageBox | None:
    boxes = [w for w in lens.qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]
    return next((b for b in boxes if b.windowTitle() == title), None)


def test_add_a_stdio_and_an_http_server_then_restart_and_find_them(lens, everything, everything_http) -> None:
    lens.start()
    add_stdio_server(lens, "everything (stdio)", "node", everything)
    add_http_server(lens, "everything (http)", everything_http)
    assert server_rows(lens) == ["Demo server", "everything (stdio)", "everything (http)"]
    assert not lens.has("Changes are not saved"), lens.texts()
    lens.click_item("Servers", "everything (http)", double=True)
    lens.wait(lambda: "connected to" in lens.status() and lens.sent("initialize")[-1:], what="connected over HTTP")
    assert lens.quit() == 0

    saved = json.loads((lens.home / SERVERS_FILE).read_text())["mcpServers"]
    assert saved["everything (stdio)"] == {"command": "node", "args": [everything]}
    assert saved["everything (http)"] == {"type": "http", "url": everything_http}

    lens.start()
    assert server_rows(lens) == ["Demo server", "everything (stdio)", "everything (http)"]
    assert current_server(lens) == "everything (http)"  # the last server used is the one connected again
    assert "everything" in lens.status()
    assert lens.quit() == 0


def test_saved_servers_are_listed_and_edits_duplicates_and_deletes_persist(lens) -> None:
    folder = lens.home / SERVERS_FILE.parent
    folder.mkdir(parents=True, exist_ok=True)
    servers = {"alpha": {"command": "alpha-server"}, "beta": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}
    (folder / "servers.json").write_text(json.dumps({"mcpServers": servers}))
    lens.start()
    assert server_rows(lens) == ["Demo server", "alpha", "beta"]

    lens.click_item("Servers", "alpha")
    lens.click("Edit server")
    box = dialog(lens, "Edit Server")
    lens.type(lens.find("Name", top=box), "alpha renamed")
    lens.click(lens.find("OK", top=box))
    lens.click_item("Servers", "beta")
    lens.click("Duplicate server")
    lens.wait(lambda: "beta (copy)" in server_rows(lens), what="the copy is listed")
    lens.click_item("Servers", "beta")
    lens.click("Delete server")
    answer(lens, "Delete Server", "Delete")
    lens.wait(lambda: "beta" not in server_rows(lens), what="beta is deleted")
    assert lens.quit() == 0

    lens.start()
    assert server_rows(lens) == ["Demo server", "alpha renamed", "beta (copy)"]
    assert lens.quit() == 0


def test_import_a_claude_desktop_config(lens, everything) -> None:
    config = lens.home / ".config" / "Claude" / "claude_desktop_config.json"  # where Claude Desktop keeps it
    config.parent.mkdir(parents=True)
    entries = {
        "everything": {"command": "node", "args": [everything], "env": {"LOG_LEVEL": "debug"}},
        "remote": {"command": "npx", "args": ["-y", "mcp-remote", "https://example.com/mcp"]},
    }
    config.write_text(json.dumps({"mcpServers": entries, "globalShortcut": ""}))
    lens.start()
    lens.click("Import servers")  # Claude Desktop's file is where it keeps it: offered, one click away
    sources = dialog(lens, "Import Servers From")
    lens.click(lens.find("Import from Claude Desktop: ~/.config/Claude/claude_desktop_config.json", top=sources))
    found = dialog(lens, "Import Servers")  # the servers found in the file, to tick
    lens.wait_text("Found 2 servers")
    lens.click(lens.find("Import", top=found))
    lens.wait(lambda: "everything" in server_rows(lens), what="the imported servers are listed")
    assert server_rows(lens) == ["Demo server", "everything", "remote"]
    assert lens.quit() == 0

    lens.start()
    assert server_rows(lens) == ["Demo server", "everything", "remote"]
    lens.click_item("Servers", "everything", double=True)
    lens.wait(lambda: current_server(lens) == "everything" and "connected to" in lens.status(), what="connected")
    assert lens.quit() == 0
    lens.start()
    assert current_server(lens) == "everything"
    assert lens.quit() == 0


def test_an_unreadable_server_file_leaves_the_list_usable(lens) -> None:
    (lens.home / SERVERS_FILE).mkdir(parents=True)  # a folder where the file should be: reading it fails
    lens.start(connected=False)
    answer(lens, "Cannot Read Saved Servers", "OK")
    lens.wait_connected()
    assert lens.shows("Saved servers could not be read")
    view = lens.find("Servers", QListWidget)
    row = view.sizeHintForRow(0)
    assert view.viewport().height() >= 3 * row, (view.viewport().height(), row)
    assert lens.quit() == 0


def test_connecting_another_server_keeps_the_first_connected(lens) -> None:
    """Connect to another saved server: both are live, and the list says so of each (the workspace)."""
    import sys

    folder = lens.home / SERVERS_FILE.parent
    folder.mkdir(parents=True, exist_ok=True)
    other = {"command": sys.executable, "args": ["-m", "inspector.demo"]}
    (folder / "servers.json").write_text(json.dumps({"mcpServers": {"second demo": other}}))
    lens.start()
    servers = lens.find("Servers", QListWidget)

    def announced(name: str) -> str:
        item = next(servers.item(i) for i in range(servers.count()) if servers.item(i).text() == name)
        return item.data(Qt.ItemDataRole.AccessibleTextRole)

    assert announced("Demo server").startswith("Demo server, connected")
    lens.click_item("Servers", "second demo")
    lens.click("Connect to the selected server")
    lens.wait(lambda: announced("second demo").startswith("second demo, connected"), what="the second connected")
    assert announced("Demo server").startswith("Demo server, connected")
