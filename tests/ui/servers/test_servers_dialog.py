"""ProfileDialog and the key/value and argument editors, driven without exec()."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QStyleOptionViewItem

from inspector.config.profile import ServerProfile
from inspector.ui.servers.profile_dialog import ProfileDialog, profile_summary, split_command_line
from inspector.ui.widgets.key_value_table import MASK, KeyValueTable, StringListEditor


def shown_text(table: KeyValueTable, row: int) -> str:
    """The text the delegate would paint for a value cell."""
    option = QStyleOptionViewItem()
    table.table.itemDelegate().initStyleOption(option, table.table.model().index(row, 1))
    return option.text


def test_env_secrets_are_masked_until_revealed(qtbot) -> None:
    table = KeyValueTable(is_secret=lambda key: "TOKEN" in key)
    qtbot.addWidget(table)
    table.set_items({"GITHUB_TOKEN": "ghp_abc", "LOG_LEVEL": "debug"})
    assert [shown_text(table, r) for r in (0, 1)] == [MASK, "debug"]
    assert table.items() == {"GITHUB_TOKEN": "ghp_abc", "LOG_LEVEL": "debug"}
    table.reveal_check.setChecked(True)
    assert [shown_text(table, r) for r in (0, 1)] == ["ghp_abc", "debug"]
    table.set_revealed(False)
    editor = table.table.itemDelegate().createEditor(
        table.table.viewport(), QStyleOptionViewItem(), table.table.model().index(0, 1)
    )
    assert isinstance(editor, QLineEdit) and editor.echoMode() == QLineEdit.EchoMode.Password
    table.table.item(1, 0).setText("SECRET_TOKEN")  # renaming the key masks its value
    assert shown_text(table, 1) == MASK


def test_key_value_problems(qtbot) -> None:
    table = KeyValueTable()
    qtbot.addWidget(table)
    table.set_items({"A": "1"})
    table.add_row("A", "2")
    table.add_row("", "")
    assert table.problems() == ["name 'A' appears more than once"]
    table.add_row("", "orphan")
    assert "has no name" in table.problems()[1]
    table.table.selectRow(0)
    table.remove_selected()
    assert table.items() == {"A": "2"}


def test_args_editor_keeps_order_and_exact_values(qtbot) -> None:
    editor = StringListEditor()
    qtbot.addWidget(editor)
    editor.set_values(["--flag", "a b", ""])
    editor.list.setCurrentRow(1)
    editor.up_button.click()
    assert editor.values() == ["a b", "--flag", ""]
    editor.list.setCurrentRow(0)
    editor.down_button.click()
    editor.down_button.click()
    assert editor.values() == ["--flag", "", "a b"]
    editor.list.setCurrentRow(1)
    editor.remove_button.click()
    assert editor.values() == ["--flag", "a b"]


def test_split_command_line() -> None:
    assert split_command_line("FOO=1 BAR='x y' npx -y 'pkg name' --opt=\"q\"") == (
        "npx",
        ["-y", "pkg name", "--opt=q"],
        {"FOO": "1", "BAR": "x y"},
    )
    with pytest.raises(ValueError):
        split_command_line("npx 'unclosed")
    with pytest.raises(ValueError):
        split_command_line("A=1")


def test_paste_and_transport_switch(qtbot) -> None:
    dialog = ProfileDialog(None, ["x"])
    qtbot.addWidget(dialog)
    dialog.set_transport("sse")
    assert dialog.pages.currentIndex() == 1
    assert not dialog.paste_command_line("node 'oops")
    assert "cannot split" in dialog.error_text().lower()
    assert dialog.paste_command_line("uvx mcp-server-fetch --ignore-robots-txt")
    assert dialog.transport() == "stdio" and dialog.pages.currentIndex() == 0
    assert dialog.command_edit.text() == "uvx"
    assert dialog.args_editor.values() == ["mcp-server-fetch", "--ignore-robots-txt"]


def test_edit_keeps_other_fields_and_clears_the_other_transport(qtbot) -> None:
    original = ServerProfile(
        name="s", command="node", args=["a"], env={"K": "v"}, cwd="/tmp", roots=["/r"], secret_headers=["X-Key"]
    )
    dialog = ProfileDialog(original, ["s", "t"])
    qtbot.addWidget(dialog)
    dialog.set_transport("http")
    dialog.url_edit.setText("http://127.0.0.1:9/mcp")
    dialog.accept()
    result = dialog.profile()
    assert result == ServerProfile(
        name="s", transport="http", url="http://127.0.0.1:9/mcp", roots=["/r"], secret_headers=["X-Key"]
    )
    assert original.command == "node"  # the original is untouched


def test_token_reveal_and_url_validation(qtbot) -> None:
    dialog = ProfileDialog(ServerProfile(name="h", transport="http", url="https://a/mcp", bearer_token="t0k"), [])
    qtbot.addWidget(dialog)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password
    dialog.token_reveal.click()
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Normal
    dialog.url_edit.setText("ftp://nope")
    dialog.accept()
    assert dialog.profile() is None and "http://" in dialog.error_text()
    assert dialog.error_label.textFormat() == Qt.TextFormat.PlainText
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in dialog.findChildren(QLabel))


def test_summary_redacts_secrets() -> None:
    profile = ServerProfile(name="s", command="uvx", args=["srv", "--api-key", "abc123"])
    assert profile_summary(profile) == "stdio · uvx srv --api-key '<redacted>'"
    http = ServerProfile(name="h", transport="http", url="https://h/mcp?token=abc")
    assert "abc" not in profile_summary(http)


def test_edit_static_returns_the_profile_or_none(qtbot) -> None:
    def fill_and_accept() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ProfileDialog):
            QTimer.singleShot(10, fill_and_accept)
            return
        dialog.name_edit.setText("new")
        dialog.command_edit.setText("node")
        dialog.accept()

    QTimer.singleShot(0, fill_and_accept)
    assert ProfileDialog.edit(None, None, ["old"]) == ServerProfile(name="new", command="node")

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ProfileDialog):
            QTimer.singleShot(10, cancel)
            return
        dialog.reject()

    QTimer.singleShot(0, cancel)
    assert ProfileDialog.edit(None, ServerProfile(name="old", command="x"), ["old"]) is None
