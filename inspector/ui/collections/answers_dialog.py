"""Asking for the values of a collection's ``${NAME}`` references that nothing fills (not in the
environment, no connected server holds them) before Run all: one masked field per name. The values are
kept by the Collections view until MCP Lens quits, never written."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from inspector.ui.widgets.plain_text import plain_label


class AnswersDialog(QDialog):
    """One masked field per reference name; `values()` once accepted."""

    def __init__(self, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Collection values")
        self.setAccessibleName("Collection values")
        self.setMinimumWidth(420)
        intro = plain_label(
            "The collection's steps or servers use these references, and nothing here fills them (the environment, "
            "a connected server). Their values are used for this run and the next ones until MCP Lens quits, "
            "never written to the file.",
            wrap=True,
            parent=self,
        )
        form = QFormLayout()
        self.fields: dict[str, QLineEdit] = {}
        for name in names:
            edit = QLineEdit(self)
            edit.setEchoMode(QLineEdit.EchoMode.Password)  # most are secrets: masked
            edit.setAccessibleName(name)
            label = plain_label(f"${{{name}}}:", parent=self)
            label.setBuddy(edit)
            form.addRow(label, edit)
            self.fields[name] = edit
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.run_button = buttons.addButton("Run", QDialogButtonBox.ButtonRole.AcceptRole)
        self.run_button.setAccessibleName("Run with these values")
        self.run_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def values(self) -> dict[str, str]:
        return {name: edit.text() for name, edit in self.fields.items()}
