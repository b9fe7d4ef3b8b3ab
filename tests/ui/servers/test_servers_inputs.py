"""ServerInputs and the inputs dialog: ${input:…} values asked for, kept per window or in a keyring; the
unsaved entry of a server opened from the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QLineEdit, QMessageBox

from inspector.config.input_secrets import SERVICE, InputSecrets
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.servers.inputs_dialog import InputsDialog, ServerInputs
from inspector.ui.servers.panel import ServersPanel

DECL = {"id": "api-key", "type": "promptString", "description": "API key", "password": True}


class FakeKeyring:
    def __init__(self) -> None:
        self.saved: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, key: str) -> str | None:
        return self.saved.get((service, key))

    def set_password(self, service: str, key: str, value: str) -> None:
        self.saved[(service, key)] = value

    def delete_password(self, service: str, key: str) -> None:
        self.saved.pop((service, key), None)


def profile() -> ServerProfile:
    return ServerProfile(name="s", command="node", env={"K": "${input:api-key}"}, inputs=[dict(DECL)])


@pytest.fixture
def panel(qtbot, tmp_path: Path) -> ServersPanel:
    widget = ServersPanel(ProfileStore(tmp_path / "servers.json"), ServerProfile(name="Demo server", command="py"))
    qtbot.addWidget(widget)
    assert widget.load()
    widget.show()
    return widget


def dialog_of(inputs: ServerInputs) -> InputsDialog:
    assert inputs.dialog is not None and inputs.dialog.isVisible()
    return inputs.dialog


def test_asks_masked_then_connects_with_the_value_and_keeps_it_for_the_window(panel: ServersPanel) -> None:
    inputs = ServerInputs(panel, InputSecrets(detect=False))
    connects: list[ServerProfile] = []
    original = profile()
    assert inputs.resolved(original, connects.append) is None
    dialog = dialog_of(inputs)
    field = dialog.fields["api-key"]
    assert isinstance(field, QLineEdit) and field.echoMode() == QLineEdit.EchoMode.Password
    assert field.accessibleName() == "API key" and not dialog.remember.isEnabled() and dialog.note.isVisibleTo(dialog)
    field.setText("v4lue")
    dialog.accept()
    assert connects == [original]
    resolved = inputs.resolved(original, connects.append)
    assert resolved is not None and resolved.env == {"K": "v4lue"} and original.env == {"K": "${input:api-key}"}
    assert inputs.resolved(original, connects.append) is resolved  # the same copy while nothing changed
    plain = ServerProfile(name="p", command="node")
    assert inputs.resolved(plain, connects.append) is plain


def test_remember_keeps_the_value_in_the_keyring(panel: ServersPanel) -> None:
    keyring = FakeKeyring()
    inputs = ServerInputs(panel, InputSecrets(keyring))
    assert inputs.resolved(profile(), lambda _p: None) is None
    dialog = dialog_of(inputs)
    assert dialog.remember.isEnabled() and not dialog.remember.isChecked()
    dialog.fields["api-key"].setText("kept")
    dialog.remember.setChecked(True)
    dialog.accept()
    assert keyring.saved == {(SERVICE, "s / api-key"): "kept"}
    fresh = ServerInputs(panel, InputSecrets(keyring))  # the next start: nothing asked
    resolved = fresh.resolved(profile(), lambda _p: pytest.fail("asked again"))
    assert resolved is not None and resolved.env == {"K": "kept"} and fresh.dialog is None


def test_an_unset_variable_is_asked_for_masked_and_cancel_connects_nothing(
    panel: ServersPanel, qtbot, monkeypatch
) -> None:
    monkeypatch.delenv("LENS_UNSET_VAR", raising=False)
    inputs = ServerInputs(panel, InputSecrets(detect=False))
    broken = ServerProfile(name="b", command="node", env={"T": "${env:LENS_UNSET_VAR}"})
    assert inputs.resolved(broken, lambda _p: pytest.fail("connected")) is None
    assert inputs.dialog is not None and list(inputs.dialog.variables) == ["LENS_UNSET_VAR"]
    assert inputs.dialog.variables["LENS_UNSET_VAR"].echoMode() == QLineEdit.EchoMode.Password
    inputs.dialog.reject()  # cancelled: nothing connects, nothing is kept


def test_a_reference_no_one_can_answer_is_explained_and_nothing_connects(panel: ServersPanel, qtbot) -> None:
    inputs = ServerInputs(panel, InputSecrets(detect=False))
    broken = ServerProfile(name="b", command="node", env={"T": "${command:pickFile}"})
    assert inputs.resolved(broken, lambda _p: pytest.fail("connected")) is None
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox))
    box = QApplication.activeModalWidget()
    assert "command:pickFile" in box.text() and "placeholder is never sent" in box.text()
    box.accept()


def test_unsaved_entry_is_listed_renamed_and_saved(panel: ServersPanel, tmp_path: Path) -> None:
    panel.store.add(ServerProfile(name="node", command="node", args=["other.js"]))
    panel.refresh()
    entry = panel.show_unsaved(ServerProfile(name="node", command="node", args=["server.js"]))
    assert entry.name == "node (2)" and panel.names() == ["Demo server", "node (2)", "node"]
    assert panel.selected_profile() is entry and panel.is_unsaved(entry)
    assert panel.save_action.isVisible() and not panel.edit_action.isVisible()
    assert not panel.delete_action.isEnabled()
    same = panel.show_unsaved(ServerProfile(name="node", command="node", args=["other.js"]))
    assert same is panel.store.get("node")  # the saved server, not a second entry
    panel.select("node (2)")
    dialog = panel.save_unsaved()
    assert dialog.windowTitle() == "Save Server" and dialog.name_edit.text() == "node (2)"
    dialog.name_edit.setText("my server")
    dialog.accept()
    assert panel.unsaved is None and panel.names() == ["Demo server", "node", "my server"]
    assert ProfileStore(tmp_path / "servers.json").load()[1].args == ["server.js"]
