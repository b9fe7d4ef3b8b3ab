"""Asking for a profile's `${input:ID}` values before it connects, as VS Code does.

Each input is asked for by its description (a password input is masked); the values are kept for
this window, and in the keyring only when the user ticks "Remember in the keyring". `ServerInputs`
resolves a profile's references (`inspector.config.references`) before every connect: a
placeholder never reaches a server.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from inspector.config.input_secrets import InputSecrets
from inspector.config.profile import ServerProfile
from inspector.config.references import (
    Unresolved,
    has_references,
    input_declaration,
    needed_inputs,
    resolve_profile,
    unset_variables,
)
from inspector.ui.servers.import_dialog import message_box
from inspector.ui.widgets.plain_text import item_text, plain_label

NO_KEYRING = "No keyring is available here: the values are used until MCP Lens quits and are not kept."


class InputsDialog(QDialog):
    """One field per input (masked for `password: true`, a list for `pickString`); `values()` once accepted."""

    def __init__(
        self,
        profile: ServerProfile,
        ids: list[str],
        keyring: bool,
        parent: QWidget | None = None,
        variables: list[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Server Inputs")
        self.setMinimumWidth(460)
        self.ids = ids
        self.fields: dict[str, QLineEdit | QComboBox] = {}
        self.variables: dict[str, QLineEdit] = {}  # unset environment variables, typed for this connection
        intro = plain_label(
            f"The server “{item_text(profile.name)}” needs these values: its config asks for them each time it starts. "
            "They are never written to the server list.",
            wrap=True,
            parent=self,
        )
        form = QFormLayout()
        for name in variables or ():
            edit = QLineEdit(self)
            edit.setEchoMode(QLineEdit.EchoMode.Password)  # most are tokens: masked
            edit.setAccessibleName(name)
            edit.setToolTip(f"${{env:{name}}} / ${{{name}}}: not set in MCP Lens's environment")
            text = plain_label(f"{name} (not set; for this connection only):", wrap=True, parent=self)
            text.setBuddy(edit)
            form.addRow(text, edit)
            self.variables[name] = edit
        for input_id in ids:
            decl = input_declaration(profile, input_id)
            label = str(decl.get("description") or input_id)
            field = self._field(decl)
            field.setAccessibleName(label)
            field.setToolTip(f"${{input:{input_id}}}")
            text = plain_label(f"{label}:", wrap=True, parent=self)
            text.setBuddy(field)
            form.addRow(text, field)
            self.fields[input_id] = field
        self.remember = QCheckBox("Remember in the keyring", self)
        self.remember.setEnabled(keyring and bool(ids))
        self.remember.setVisible(bool(ids))  # environment variables typed here are never kept
        self.remember.setToolTip("Keep the values in the system keyring for the next start" if keyring else NO_KEYRING)
        self.note = plain_label("" if keyring else NO_KEYRING, wrap=True, parent=self)
        self.note.setVisible(not keyring)
        self.note.setEnabled(False)  # drawn dimmer
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.connect_button = buttons.addButton("Connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self.connect_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.remember)
        layout.addWidget(self.note)
        layout.addWidget(buttons)

    def _field(self, decl: dict[str, Any]) -> QLineEdit | QComboBox:
        options = decl.get("options")
        if decl.get("type") == "pickString" and isinstance(options, list):
            combo = QComboBox(self)
            for option in options:
                value = option.get("value") if isinstance(option, dict) else option
                combo.addItem(str(option.get("label", value)) if isinstance(option, dict) else str(value), str(value))
            if (index := combo.findData(str(decl.get("default", "")))) >= 0:
                combo.setCurrentIndex(index)
            return combo
        edit = QLineEdit(self)
        if decl.get("password"):
            edit.setEchoMode(QLineEdit.EchoMode.Password)
        if isinstance(decl.get("default"), str):
            edit.setText(decl["default"])
        return edit

    def variable_values(self) -> dict[str, str]:
        """The unset environment variables as typed (for this connection only)."""
        return {name: edit.text() for name, edit in self.variables.items()}

    def values(self) -> dict[str, str]:
        return {
            input_id: field.currentData() if isinstance(field, QComboBox) else field.text()
            for input_id, field in self.fields.items()
        }


class ServerInputs:
    """Resolves profiles before they connect: environment now, inputs from this window, the keyring or the user."""

    def __init__(self, parent: QWidget, secrets: InputSecrets | None = None) -> None:
        self.parent = parent
        self.secrets = secrets if secrets is not None else InputSecrets()
        self._values: dict[tuple[str, str], str] = {}  # (server, input id) → value, for this window only
        self._copies: dict[int, tuple[ServerProfile, ServerProfile]] = {}  # id(profile) → (profile, resolved)
        self._once: dict[str, dict[str, str]] = {}  # server → unset variables typed for its next connection
        self.dialog: InputsDialog | None = None

    def resolved(self, profile: ServerProfile, retry: Callable[[ServerProfile], None]) -> ServerProfile | None:
        """The profile to connect with, or None when the user is being asked (then `retry(profile)`) or it cannot."""
        if not has_references(profile):
            return profile
        known = {i: v for i in needed_inputs(profile) if (v := self._value(profile.name, i)) is not None}
        environ = {**os.environ, **self._once.pop(profile.name, {})}  # typed values: this connection only
        try:
            resolved = resolve_profile(profile, environ, known)
        except Unresolved as exc:
            unset = unset_variables(profile, environ)
            if any(not p.startswith("environment variable ") for p in exc.problems):
                self._explain(exc)  # a reference no one can answer here
            else:
                self._ask(profile, exc.inputs, retry, unset)
            return None
        kept = self._copies.get(id(profile))
        if kept is not None and kept[0] is profile and kept[1] == resolved:
            return kept[1]  # the same object each time: what the session and the Auth tab know it by
        self._copies[id(profile)] = (profile, resolved)
        return resolved

    def _value(self, server: str, input_id: str) -> str | None:
        value = self._values.get((server, input_id))
        return value if value is not None else self.secrets.get(server, input_id)

    def _ask(
        self, profile: ServerProfile, ids: list[str], retry: Callable[[ServerProfile], None], unset: list[str]
    ) -> None:
        if self.dialog is not None:
            self.dialog.reject()
        dialog = self.dialog = InputsDialog(profile, ids, self.secrets.available, self.parent, unset)

        def answered() -> None:
            if typed := dialog.variable_values():
                self._once[profile.name] = typed
            for input_id, value in dialog.values().items():
                self._values[(profile.name, input_id)] = value
                if dialog.remember.isChecked():
                    self.secrets.set(profile.name, input_id, value)
            retry(profile)

        dialog.accepted.connect(answered)
        dialog.finished.connect(lambda *_: self.dialog is dialog and setattr(self, "dialog", None))  # deleted next
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()

    def _explain(self, exc: Unresolved) -> None:
        text = f"{exc}\n\nSet the variable (or edit the server) and connect again: a placeholder is never sent."
        box = message_box(self.parent, QMessageBox.Icon.Warning, "Cannot Connect", text)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.finished.connect(box.deleteLater)
        box.open()
