"""Tap this server…: from the servers sidebar, put a host's entry for this server behind the tap, then untap it."""

from __future__ import annotations

from pathlib import Path

from journey_support import Lens
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QFileDialog, QLineEdit, QListWidget, QMenu, QPlainTextEdit
from test_accessibility import unnamed

from inspector.config import jsonc
from inspector.demo.launch import demo_argv
from inspector.tap.install import tap_launcher


def cursor_config(home: Path) -> tuple[Path, str]:
    """~/.cursor/mcp.json with this installation's demo server, a secret in its env, a comment and a neighbour."""
    command, *args = demo_argv()
    quoted = ", ".join(f'"{a}"' for a in args)
    text = (
        "{\n"
        "  // Cursor's servers\n"
        '  "mcpServers": {\n'
        '    "other": { "command": "node", "args": ["other.js"] },\n'
        '    "lens demo": {\n'
        f'      "command": "{command}",\n'
        f'      "args": [{quoted}],\n'
        '      "env": { "DEMO_TOKEN": "s3cret" }\n'
        "    }\n"
        "  }\n"
        "}\n"
    )
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path, text


def right_click_and_choose(lens: Lens, server: str, item_text: str) -> None:
    """Right-click `server` in the sidebar and choose `item_text` from the menu that pops up."""
    view = lens.find("Servers", QListWidget)
    row = next(i for i in range(view.count()) if view.item(i).text() == server)
    pos = view.visualItemRect(view.item(row)).center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, view.viewport().mapToGlobal(pos))
    QApplication.sendEvent(view.viewport(), event)
    lens.wait(lambda: isinstance(QApplication.activePopupWidget(), QMenu), what="the context menu")
    menu = QApplication.activePopupWidget()
    action = next((a for a in menu.actions() if a.text().replace("&", "") == item_text), None)
    assert action is not None, [a.text() for a in menu.actions()]
    menu.setActiveAction(action)
    rect = menu.actionGeometry(action)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())


def test_tap_this_server_then_untap_restores_the_host_file(lens: Lens) -> None:
    config, original = cursor_config(lens.home)
    lens.start()

    right_click_and_choose(lens, "Demo server", "Tap this server…")
    lens.wait_text("Tap in a host")
    hosts = lens.find("Host config", QComboBox)
    assert str(config) in hosts.currentText() and "lens demo" in hosts.currentText()
    diff = lens.find("Change to the host config", QPlainTextEdit)
    lens.wait(lambda: '+      "command": ' in diff.toPlainText(), what="the diff")
    assert '"tap", "--name", "lens demo", "--"' in diff.toPlainText()
    assert not unnamed(lens), unnamed(lens)
    assert config.read_text(encoding="utf-8") == original  # nothing written before Apply

    lens.click("Tap")
    lens.wait_text("Backup:")
    data = jsonc.loads(config.read_text(encoding="utf-8"), jsonc=True)
    entry = data["mcpServers"]["lens demo"]
    launcher = tap_launcher()
    assert entry["command"] == launcher[0]
    assert entry["args"] == [*launcher[1:], "tap", "--name", "lens demo", "--", *demo_argv()]
    assert entry["env"] == {"DEMO_TOKEN": "s3cret"}
    assert "// Cursor's servers" in config.read_text(encoding="utf-8")
    backups = list(config.parent.glob("mcp.json.mcp-lens-backup-*"))
    assert len(backups) == 1 and lens.shows(str(backups[0]))
    lens.click("Close")

    right_click_and_choose(lens, "Demo server", "Untap this server…")  # the menu knows it is tapped now
    lens.wait_text("runs through the tap")
    assert "(tapped)" in lens.find("Host config", QComboBox).currentText()
    lens.click("Untap")
    lens.wait_text("runs without the tap again")
    assert config.read_text(encoding="utf-8") == original
    lens.click("Close")


def test_browse_to_a_host_config_when_none_is_known(lens: Lens) -> None:
    config = lens.home / ".cursor" / "project-servers.json"  # not a file Cursor reads: only Browse finds it
    config.parent.mkdir(parents=True)
    original = (
        '{"mcpServers": {"remote": {"url": "https://example.com/mcp"}, '
        '"mine": {"command": "my-server", "args": ["--stdio"]}}}\n'
    )
    config.write_text(original, encoding="utf-8")
    lens.start()
    right_click_and_choose(lens, "Demo server", "Tap this server…")
    lens.wait_text("No host config found")
    assert not lens.find("Tap").isEnabled()

    lens.click("Choose a host config file")
    picker = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible())
    lens.type(lens.find("File name:", QLineEdit, top=picker), config.name)  # the picker opens in ~/.cursor
    lens.click(lens.find("Open", top=picker))
    hosts = lens.find("Host config", QComboBox)
    lens.wait(lambda: hosts.count() == 2, what="the file's servers are offered")

    hosts.setCurrentIndex(next(i for i in range(hosts.count()) if "“remote”" in hosts.itemText(i)))
    lens.wait_text("stdio servers only")
    assert not lens.find("Tap").isEnabled()
    hosts.setCurrentIndex(next(i for i in range(hosts.count()) if "“mine”" in hosts.itemText(i)))
    lens.wait(lambda: lens.find("Tap").isEnabled(), what="Tap is offered for the stdio entry")
    lens.click("Tap")
    lens.wait_text("Backup:")
    assert jsonc.loads(config.read_text(encoding="utf-8"))["mcpServers"]["mine"]["args"][-3:] == [
        "--",
        "my-server",
        "--stdio",
    ]
    lens.click("Close")
