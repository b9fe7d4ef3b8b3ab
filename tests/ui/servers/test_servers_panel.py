"""ServersPanel against a real ProfileStore in tmp_path: editing, import, export, drop, connect."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QTimer, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QMessageBox

from inspector.config.formats import load_servers
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.servers.import_dialog import ImportDialog
from inspector.ui.servers.panel import ServersPanel

EXAMPLES = Path(__file__).resolve().parents[2] / "config" / "examples"
CLAUDE_DESKTOP = EXAMPLES / "claude_desktop_config.json"
CLAUDE_CODE = EXAMPLES / "claude-code" / ".mcp.json"
CURSOR = EXAMPLES / "cursor" / ".cursor" / "mcp.json"
VSCODE = EXAMPLES / "vscode" / ".vscode" / "mcp.json"
HOSTILE = '<img src="file:///etc/passwd">'


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "config" / "servers.json"


@pytest.fixture
def panel(qtbot, store_path: Path) -> ServersPanel:
    demo = ServerProfile(name="Demo server", command="python", args=["-m", "inspector.demo"])
    widget = ServersPanel(ProfileStore(store_path), demo)
    qtbot.addWidget(widget)
    assert widget.load()
    widget.resize(320, 460)
    widget.show()
    return widget


def on_disk(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["mcpServers"]


def answer_next_box(button_text: str, seen: list[str] | None = None) -> None:
    """Click `button_text` in the next (window-modal, non-blocking) message box.

    `seen` receives the box's text; the box must show it as plain text.
    """

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, click)
            return
        buttons = {b.text().replace("&", ""): b for b in box.buttons()}
        if seen is not None:
            seen.append(box.text())
            seen.append(str(box.textFormat() == Qt.TextFormat.PlainText))
        if button_text in buttons:
            buttons[button_text].click()
        else:
            seen is not None and seen.append(f"no button {button_text!r} in {list(buttons)}")
            box.reject()  # never leave a test hanging in a nested event loop

    QTimer.singleShot(0, click)


def test_add_edit_duplicate_delete_round_trip(panel: ServersPanel, store_path: Path, qtbot) -> None:
    changes = []
    panel.profilesChanged.connect(lambda: changes.append(1))
    dialog = panel.add_profile()
    dialog.name_edit.setText("everything")
    dialog.paste_command_line("DEBUG=1 npx -y '@modelcontextprotocol/server-everything' stdio")
    dialog.accept()
    assert on_disk(store_path) == {
        "everything": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-everything", "stdio"],
            "env": {"DEBUG": "1"},
        }
    }
    assert panel.selected_profile().name == "everything" and changes

    dialog = panel.edit_profile("everything")
    dialog.name_edit.setText("remote")
    dialog.set_transport("http")
    dialog.url_edit.setText("https://example.com/mcp")
    dialog.headers_table.add_row("X-Team", "platform")
    dialog.token_edit.setText("s3cr3t-token")
    dialog.accept()
    assert on_disk(store_path) == {
        "remote": {
            "type": "http",
            "url": "https://example.com/mcp",
            "headers": {"X-Team": "platform", "Authorization": "Bearer s3cr3t-token"},
        }
    }
    assert os.stat(store_path).st_mode & 0o777 == 0o600

    copy = panel.duplicate_profile("remote")
    assert copy is not None and copy.name == "remote (copy)"
    assert list(on_disk(store_path)) == ["remote", "remote (copy)"]
    assert panel.names() == ["Demo server", "remote", "remote (copy)"]

    answer_next_box("Cancel")
    assert panel.delete_profile("remote")  # asks first
    qtbot.wait(50)
    assert "remote" in on_disk(store_path)
    answer_next_box("Delete")
    assert panel.delete_profile("remote")
    qtbot.waitUntil(lambda: list(on_disk(store_path)) == ["remote (copy)"])
    assert ProfileStore(store_path).load()[0].bearer_token == "s3cr3t-token"


def test_dialog_rejects_duplicate_and_invalid_without_closing(panel: ServersPanel, store_path: Path) -> None:
    panel.store.add(ServerProfile(name="taken", command="uvx"))
    panel.refresh()
    dialog = panel.add_profile()
    dialog.name_edit.setText("taken")
    dialog.command_edit.setText("node")
    dialog.accept()
    assert dialog.isVisible() and "already exists" in dialog.error_text()
    dialog.name_edit.setText("Demo server")
    dialog.accept()
    assert dialog.isVisible() and "already exists" in dialog.error_text()
    dialog.name_edit.setText("fresh")
    dialog.command_edit.setText("   ")
    dialog.accept()
    assert dialog.isVisible() and "command" in dialog.error_text()
    dialog.command_edit.setText("node")
    dialog.accept()
    assert not dialog.isVisible() and dialog.error_text() == ""
    assert panel.names() == ["Demo server", "taken", "fresh"]


@pytest.mark.parametrize(
    ("path", "names"),
    [
        (CLAUDE_DESKTOP, ["filesystem", "sentry"]),
        (CLAUDE_CODE, ["github", "api-server", "asana", "local-db"]),
        (CURSOR, ["playwright", "local-tools", "context7", "linear"]),
        (VSCODE, ["Perplexity", "fetch", "github", "legacy-sse"]),
    ],
    ids=["claude-desktop", "claude-code", "cursor", "vscode"],
)
def test_import_real_example_files(panel: ServersPanel, store_path: Path, path: Path, names: list[str]) -> None:
    dialog = panel.import_file(path)
    assert isinstance(dialog, ImportDialog) and dialog.isVisible()
    expected = load_servers(path)
    shown = dialog.warnings.toPlainText().splitlines()
    assert len(shown) == max(1, len(expected.warnings))
    for line, warning in zip(shown, expected.warnings, strict=False):
        assert line == "• " + warning.replace(f"{path}: ", "")
    assert [p.name for p in dialog.selected_profiles()] == names
    dialog.accept()
    assert panel.names() == ["Demo server", *names]
    assert list(on_disk(store_path)) == names
    assert on_disk(store_path) == {p.name: p.to_entry() for p in expected.profiles}


def test_import_twice_renames_and_respects_checkboxes(panel: ServersPanel, store_path: Path) -> None:
    panel.import_file(CURSOR).accept()
    dialog = panel.import_file(CURSOR)
    assert [p.name for p in dialog.selected_profiles()] == [
        "playwright (2)",
        "local-tools (2)",
        "context7 (2)",
        "linear (2)",
    ]
    dialog.set_all_checked(False)
    assert not dialog.import_button.isEnabled()
    dialog.set_checked("linear", True)
    dialog.accept()
    assert list(on_disk(store_path)) == ["playwright", "local-tools", "context7", "linear", "linear (2)"]
    assert panel.selected_profile().name == "linear (2)"


def test_import_of_a_broken_file_explains(panel: ServersPanel, tmp_path: Path, qtbot) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"mcpServers": {"x": ', encoding="utf-8")
    seen: list[str] = []
    answer_next_box("OK", seen)
    assert panel.import_file(bad) is None
    qtbot.waitUntil(lambda: bool(seen))
    assert str(bad) in seen[0] and "mcpServers" in seen[0] and seen[1:] == ["True"]


def test_drop_a_json_file_opens_the_import_dialog(panel: ServersPanel, store_path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(CLAUDE_DESKTOP))])
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter = QDragEnterEvent(QPointF(20, 20), *args)
    QApplication.sendEvent(panel, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(20, 20), *args)
    QApplication.sendEvent(panel, drop)
    assert drop.isAccepted()
    dialog = panel.findChild(ImportDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.accept()
    assert list(on_disk(store_path)) == ["filesystem", "sentry"]

    other = QMimeData()
    other.setUrls([QUrl.fromLocalFile("/tmp/notes.txt")])
    assert panel.handle_drop(other) is None


def test_demo_entry_cannot_be_edited_or_deleted(panel: ServersPanel) -> None:
    panel.select("Demo server")
    assert panel.selected_profile() is panel.demo
    assert not panel.delete_action.isEnabled() and not panel.edit_action.isEnabled()
    assert not panel.delete_profile() and not panel.delete_profile("Demo server", confirm=False)
    assert panel.edit_profile() is None
    assert panel.names()[0] == "Demo server"
    copy = panel.duplicate_profile()  # a copy of the demo is an ordinary, editable profile
    assert copy.name == "Demo server (copy)" and panel.delete_profile(copy.name, confirm=False)


def test_connect_on_double_click_enter_and_button(panel: ServersPanel, qtbot) -> None:
    panel.store.add(ServerProfile(name="local", command="node", args=["server.js"]))
    panel.refresh(select="local")
    got: list[ServerProfile] = []
    panel.connectRequested.connect(got.append)
    rect = panel.list.visualItemRect(panel.list.currentItem())
    # a real double-click: press + release, then a second press delivered as a double-click
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert [p.name for p in got] == ["local"]
    panel.list.setFocus()
    qtbot.keyClick(panel.list, Qt.Key.Key_Return)
    panel.select("Demo server")
    qtbot.keyClick(panel.list, Qt.Key.Key_Enter)
    panel.connect_button.click()
    assert [p.name for p in got] == ["local", "local", "Demo server", "Demo server"]


def test_states_and_selection(panel: ServersPanel) -> None:
    panel.store.add(ServerProfile(name="a", command="x"))
    panel.refresh()
    panel.set_state("a", "connected")
    panel.set_state("Demo server", "failed")
    assert panel.state("a") == "connected" and panel.state("nope") == "disconnected"
    panel.refresh()
    assert panel.list.item(1).data(Qt.ItemDataRole.UserRole + 2) == "connected"
    with pytest.raises(ValueError):
        panel.set_state("a", "sleeping")
    assert panel.select("a") and panel.selected_profile().name == "a" and not panel.select("zzz")


def test_hostile_name_is_shown_literally(panel: ServersPanel, store_path: Path, qtbot) -> None:
    panel.store.add(ServerProfile(name=HOSTILE, command="<b>bold</b>", args=["<i>x</i>"]))
    panel.refresh(select=HOSTILE)
    item = panel.list.currentItem()
    assert item.text() == HOSTILE
    assert item.data(Qt.ItemDataRole.UserRole + 1) == "stdio · '<b>bold</b>' '<i>x</i>'"
    dialog = panel.edit_profile(HOSTILE)
    assert dialog.name_edit.text() == HOSTILE
    for widget in (panel, dialog):
        labels = widget.findChildren(QLabel)
        assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels), labels
    dialog.reject()
    import_dialog = panel.import_file(CLAUDE_DESKTOP)
    labels = import_dialog.findChildren(QLabel)
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    import_dialog.reject()
    seen: list[str] = []
    answer_next_box("Cancel", seen)
    assert panel.delete_profile(HOSTILE)
    qtbot.waitUntil(lambda: bool(seen))
    assert HOSTILE in seen[0] and seen[1:] == ["True"] and HOSTILE in panel.names()


def test_export_and_copy_entry(panel: ServersPanel, tmp_path: Path) -> None:
    panel.store.add(ServerProfile(name="api", transport="http", url="https://h/mcp", bearer_token="tok"))
    panel.refresh(select="api")
    target = tmp_path / "api.json"
    assert panel.export_to(target)
    assert json.loads(target.read_text()) == {
        "mcpServers": {"api": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer tok"}}}
    }
    assert os.stat(target).st_mode & 0o777 == 0o600
    text = panel.copy_entry()
    assert QGuiApplication.clipboard().text() == text
    assert json.loads("{" + text + "}") == {"api": json.loads(target.read_text())["mcpServers"]["api"]}


def test_save_error_keeps_changes_in_memory(panel: ServersPanel, store_path: Path, monkeypatch, qtbot) -> None:
    def fail() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(panel.store, "save", fail)
    seen: list[str] = []
    answer_next_box("OK", seen)
    panel.store.add(ServerProfile(name="kept", command="node"))
    panel._changed(select="kept")
    qtbot.waitUntil(lambda: bool(seen))
    assert "No space left on device" in seen[0] and "kept in this window" in seen[0] and seen[1:] == ["True"]
    assert panel.names() == ["Demo server", "kept"] and not store_path.exists()
    assert panel.io.retry_button.isVisibleTo(panel)
    monkeypatch.undo()
    panel.io.retry_button.click()
    assert list(on_disk(store_path)) == ["kept"] and not panel.io.banner.isVisibleTo(panel)


def test_corrupt_store_is_backed_up_only_when_asked(qtbot, store_path: Path) -> None:
    store_path.parent.mkdir(parents=True)
    store_path.write_text('{"mcpServers": {oops', encoding="utf-8")
    demo = ServerProfile(name="Demo server", command="python")
    panel = ServersPanel(ProfileStore(store_path), demo)
    qtbot.addWidget(panel)
    answer_next_box("Keep File")
    assert not panel.load()
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    assert store_path.read_text() == '{"mcpServers": {oops'
    assert panel.io.backup_button.isVisibleTo(panel) and panel.names() == ["Demo server"]
    panel.store.add(ServerProfile(name="typed", command="node"))  # added while the file is unreadable
    answer_next_box("OK")
    panel._changed()
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    assert store_path.read_text() == '{"mcpServers": {oops'  # never silently overwritten
    backup = panel.io.backup_corrupt()
    assert backup is not None and backup.read_text() == '{"mcpServers": {oops'
    assert list(on_disk(store_path)) == ["typed"]

    store_path.write_text("[1, 2", encoding="utf-8")
    again = ServersPanel(ProfileStore(store_path), demo)
    qtbot.addWidget(again)
    answer_next_box("Back Up and Start Empty")
    assert not again.load()  # the backup follows the answer
    qtbot.waitUntil(lambda: not store_path.exists())
    assert again.names() == ["Demo server"] and again.io.load_error is None


def test_a_server_added_after_keep_file_is_explained_in_plain_words(qtbot, store_path: Path) -> None:
    """Issue 21: the warning spoke of load() and backup_corrupt() and named the file twice."""
    store_path.parent.mkdir(parents=True)
    store_path.write_bytes(b'{"mcpServers": {"caf\xe9": {"command": "node"}}}')  # Latin-1, not UTF-8
    panel = ServersPanel(ProfileStore(store_path), ServerProfile(name="Demo server", command="python"))
    qtbot.addWidget(panel)
    answer_next_box("Keep File")
    assert not panel.load()
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    seen: list[str] = []
    answer_next_box("OK", seen)
    dialog = panel.add_profile()
    dialog.name_edit.setText("added-while-kept")
    dialog.command_edit.setText("python3")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: bool(seen))
    text = seen[0]
    for internal in ("load()", "backup_corrupt", "refusing", "call "):
        assert internal not in text, text
    assert text.count(str(store_path)) <= 1, text
    assert "added-while-kept" in panel.names() and "Back Up and Start Empty" in text and "quit" in text, text


def test_an_export_without_secrets_is_user_only_too(panel: ServersPanel, tmp_path: Path) -> None:
    """Records, exports and saved servers are written 0600 (an env value the redactor does not know may
    be a secret); an export was 0644 when the profile looked secret-free."""
    old = os.umask(0o022)
    try:
        panel.store.add(ServerProfile(name="plain", command="npx", env={"DB_PASS": "hunter2"}))
        panel.refresh(select="plain")
        target = tmp_path / "plain.json"
        assert panel.export_to(target)
    finally:
        os.umask(old)
    assert os.stat(target).st_mode & 0o777 == 0o600
