"""Tap this server…: show the change that puts a host's entry behind the tap (or takes it out), then apply it.

The host configs offered are the known ones (`config.locations.host_config_files`) that run the same
command, or any file the user browses to. The change is shown as a unified diff in a read-only plain-text
view before anything is written; applying keeps a backup and says how to undo.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.locations import host_config_files, import_start_folder
from inspector.config.profile import ServerProfile
from inspector.tap import install
from inspector.tap.hosts import HostEntry, entries, matching_entries
from inspector.ui.widgets.plain_text import item_text, plain_label

JSON_FILTER = "JSON files (*.json *.jsonc);;All files (*)"


def tap_menu_text(profile: ServerProfile | None) -> str:
    """The menu item: "Untap this server…" when every host entry found for it runs through the tap."""
    if profile is None or profile.transport != "stdio":
        return "Tap this server…"
    found = matching_entries(host_config_files(), profile.command or "", list(profile.args))
    return "Untap this server…" if found and all(e.tapped for e in found) else "Tap this server…"


class TapDialog(QDialog):
    """Pick a host config entry for `profile`; Tap (or Untap, when it is tapped already) after seeing the diff."""

    def __init__(self, profile: ServerProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile = profile
        self.plan: install.Plan | None = None
        self.setWindowTitle("Tap This Server")
        self.setMinimumSize(720, 480)
        heading = f"Tap in a host: run {profile.name!r} through the MCP Lens tap, so the host's traffic is recorded."
        self.heading = plain_label(heading, wrap=True, parent=self)
        self.hosts = QComboBox(self)
        self.hosts.setAccessibleName("Host config")
        self.hosts.setToolTip("A host's config file and the server entry in it")
        self.browse_button = QPushButton("Browse…", self)
        self.browse_button.setAccessibleName("Choose a host config file")
        self.browse_button.clicked.connect(self.browse)
        self.message = plain_label(wrap=True, parent=self)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # to copy the undo command
        self.diff = QPlainTextEdit(self)
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setAccessibleName("Change to the host config")
        self.buttons = QDialogButtonBox(self)
        self.apply_button = self.buttons.addButton("Tap", QDialogButtonBox.ButtonRole.ApplyRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.apply_button.clicked.connect(self.apply)
        self.close_button.clicked.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(plain_label("Host config:", parent=self))
        row.addWidget(self.hosts, 1)
        row.addWidget(self.browse_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.buttons)

        self.hosts.currentIndexChanged.connect(lambda _i: self.show_plan())
        found = matching_entries(host_config_files(), profile.command or "", list(profile.args))
        self._fill(found)
        if not found:
            looked = ", ".join(sorted({str(p.parent) for _c, p in host_config_files()}))
            self._say(
                f"No host config found that runs this server's command (looked in {looked}). "
                "Choose a host's config file with Browse…"
            )

    # -- choosing ----------------------------------------------------------------------------
    def _fill(self, found: list[HostEntry]) -> None:
        self.hosts.blockSignals(True)
        self.hosts.clear()
        for entry in found:
            client = f"{entry.client} — " if entry.client else ""
            state = " (tapped)" if entry.tapped else ""
            self.hosts.addItem(item_text(f"{client}{entry.path} — server “{entry.server}”{state}"), entry)
        self.hosts.blockSignals(False)
        self.show_plan()

    def browse(self) -> QFileDialog:
        """Choose any config file (without blocking); its entries are offered, those running this server first."""
        dialog = QFileDialog(self, "Choose a Host Config", str(import_start_folder()), JSON_FILTER)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda path: path and self.choose_file(Path(path)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def choose_file(self, path: Path) -> None:
        found = entries(path, self.profile.command or "", list(self.profile.args))
        if not found:
            self._fill([])
            self._say(f"{path}: no server entries found (or the file is not valid JSON/JSONC).")
            return
        self._fill(sorted(found, key=lambda e: not e.matches))

    def chosen(self) -> HostEntry | None:
        entry = self.hosts.currentData()
        return entry if isinstance(entry, HostEntry) else None

    # -- the change --------------------------------------------------------------------------
    def show_plan(self) -> None:
        """Plan a tap (or an untap, if the entry runs through the tap) and show its diff."""
        self.plan = None
        self.diff.setPlainText("")
        self.apply_button.setEnabled(False)
        entry = self.chosen()
        if self.profile.transport != "stdio":
            self._say("The tap covers stdio servers only (an HTTP server would need a listening socket).")
            return
        if entry is None:
            return
        try:
            if install.is_tapped(entry.path, entry.server):
                self.plan = install.plan_uninstall(entry.path, entry.server)
            else:
                self.plan = install.plan_install(entry.path, entry.server, entry.server)
        except install.InstallError as exc:
            self._say(str(exc))
            return
        untap = self.plan.action == "uninstall"
        where = f"{entry.server!r} in {entry.path}"
        if untap:
            text = f"{where} runs through the tap. Untap puts the entry back as it was before."
        else:
            host = entry.client or "The host"
            text = (
                f"{host} will run {where} through the tap. Only its command and args change; "
                "its env (and any secret in it) stays in that file."
            )
        self._say(text + (f"\n{self.plan.note}" if self.plan.note else ""))
        self.diff.setPlainText(self.plan.diff)
        self.apply_button.setText("Untap" if untap else "Tap")
        self.apply_button.setAccessibleName("Untap" if untap else "Tap")
        self.apply_button.setEnabled(True)

    def apply(self) -> None:
        """Write the change shown; then say where the backup is and how to undo."""
        plan = self.plan
        if plan is None:
            return
        try:
            done = install.apply(plan)
        except install.InstallError as exc:
            self._say(str(exc))
            return
        host = entry.client if (entry := self.chosen()) is not None and entry.client else "the host"
        if plan.action == "uninstall":
            text = f"Done: {plan.server!r} runs without the tap again (restart {host})."
        else:
            text = (
                f"Done: restart {host} to run {plan.server!r} through the tap; its sessions appear in MCP Lens.\n"
                "To undo: choose Tap this server… again and press Untap, or run "
                + install.undo_hint(plan.config, plan.server)
            )
        self._say(f"{text}\nBackup: {done.backup}")
        self.plan = None
        self.apply_button.setEnabled(False)
        self.close_button.setText("Close")
        self.close_button.setAccessibleName("Close")

    def _say(self, text: str) -> None:
        self.message.setText(text)
