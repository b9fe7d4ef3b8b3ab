"""Choose which servers found in an `mcp.json`-style file to import, and see the import's warnings."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.formats import ImportResult
from inspector.config.profile import ServerProfile
from inspector.ui.profile_dialog import plain_label, profile_summary

_PROFILE_ROLE = Qt.ItemDataRole.UserRole


def unique_name(name: str, taken: Iterable[str]) -> str:
    """`name`, or `name (2)`, `name (3)`, … — the first that is not in `taken`."""
    taken = set(taken)
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


class ImportDialog(QDialog):
    """Lists the servers of an `ImportResult` with checkboxes; names that collide get a ` (2)` suffix."""

    def __init__(self, result: ImportResult, existing_names: Iterable[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result = result
        self.setWindowTitle("Import Servers")
        self.setMinimumSize(560, 420)
        count = len(result.profiles)
        self.summary_label = plain_label(
            f"Found {count} server{'s' if count != 1 else ''} in {result.source} (format: {result.format}).", self
        )
        self.summary_label.setWordWrap(True)
        self.servers = QListWidget(self)
        self.servers.setAlternatingRowColors(True)
        taken = set(existing_names)
        for profile in result.profiles:
            new_name = unique_name(profile.name, taken)
            taken.add(new_name)
            imported = profile.clone(name=new_name)
            text = new_name if new_name == profile.name else f"{new_name}   (renamed from {profile.name})"
            item = QListWidgetItem(f"{text}\n{profile_summary(imported)}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setData(_PROFILE_ROLE, imported)
            self.servers.addItem(item)
        self.servers.itemChanged.connect(self._update_ok)

        self.all_button = QPushButton("Select All", self)
        self.none_button = QPushButton("Select None", self)
        self.all_button.clicked.connect(lambda: self.set_all_checked(True))
        self.none_button.clicked.connect(lambda: self.set_all_checked(False))
        select_row = QHBoxLayout()
        select_row.addWidget(self.all_button)
        select_row.addWidget(self.none_button)
        select_row.addStretch(1)

        self.warnings = QPlainTextEdit(self)
        self.warnings.setReadOnly(True)
        self.warnings.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.warnings.setPlainText("\n".join(result.warnings) or "No warnings.")
        self.warnings.setMaximumHeight(140)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.servers, 1)
        layout.addLayout(select_row)
        layout.addWidget(plain_label(f"Warnings ({len(result.warnings)}):", self))
        layout.addWidget(self.warnings)
        layout.addWidget(self.buttons)
        self._update_ok()

    def set_checked(self, name: str, checked: bool) -> None:
        """Tick or untick the server imported as (or originally called) `name`."""
        for item in self._items():
            profile: ServerProfile = item.data(_PROFILE_ROLE)
            original = self.result.profiles[self.servers.row(item)].name
            if name in (profile.name, original):
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def set_all_checked(self, checked: bool) -> None:
        for item in self._items():
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def selected_profiles(self) -> list[ServerProfile]:
        """The ticked profiles, renamed where their name was taken."""
        return [
            item.data(_PROFILE_ROLE).clone() for item in self._items() if item.checkState() == Qt.CheckState.Checked
        ]

    def _items(self) -> list[QListWidgetItem]:
        return [self.servers.item(i) for i in range(self.servers.count())]

    def _update_ok(self) -> None:
        self.import_button.setEnabled(bool(self.selected_profiles()))
