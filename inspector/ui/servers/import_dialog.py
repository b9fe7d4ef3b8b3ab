"""Import/export for the servers panel: the import dialog, and the load/save/file plumbing around it.

`ImportDialog` lets the user pick which servers found in an `mcp.json`-style file to import and shows
the import's warnings. `ServersIO` does the panel's file work (store load/save, corrupt-file backup,
import, export) and explains every failure in a plain-text message box.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.files import write_atomic
from inspector.config.formats import ImportResult, export_file, load_servers
from inspector.config.locations import client_config_folders, import_start_folder
from inspector.config.profile import ProfileError, ServerProfile
from inspector.ui.servers.import_sources import ImportSources, found_host_configs
from inspector.ui.servers.profile_dialog import ERROR_STYLE, profile_summary
from inspector.ui.widgets.plain_text import item_text, plain_label, plain_message_box, plain_tooltip, shown
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.ui.servers.panel import ServersPanel

_PROFILE_ROLE = Qt.ItemDataRole.UserRole
JSON_FILTER = "JSON files (*.json);;All files (*)"


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
        source = shown(result.source, one_line=True)
        summary = f"Found {count} server{'s' if count != 1 else ''} in {source} (format: {result.format})."
        self.summary_label = plain_label(summary, wrap=True, parent=self)
        self.servers = QListWidget(self)
        self.servers.setAlternatingRowColors(True)
        self.servers.setSpacing(2)
        taken = set(existing_names)
        for profile in result.profiles:
            new_name = unique_name(profile.name, taken)
            taken.add(new_name)
            imported = profile.clone(name=new_name)
            text = item_text(new_name)  # a config file can come from anyone: its names are shown as plain text
            text = text if new_name == profile.name else f"{text}   (renamed from {item_text(profile.name)})"
            item = QListWidgetItem(f"{text}\n{item_text(profile_summary(imported))}")
            item.setToolTip(plain_tooltip(new_name, profile_summary(imported)))
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
        prefix = f"{result.source}: "  # the summary above already names the file
        lines = [f"• {shown(w.replace(prefix, ''), one_line=True)}" for w in result.warnings]  # names quoted visibly
        self.warnings.setPlainText("\n".join(lines) or "No warnings.")
        self.warnings.setMaximumHeight(140)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.import_button = self.buttons.addButton("Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.servers, 1)
        layout.addLayout(select_row)
        layout.addWidget(plain_label(f"Warnings ({len(result.warnings)}):", parent=self))
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


def message_box(parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str) -> QMessageBox:
    """A message box whose text is plain text (it often quotes names and paths from files)."""
    return plain_message_box(icon, title, text, parent, buttons=QMessageBox.StandardButton.NoButton)


def ask(
    parent: QWidget | None,
    title: str,
    text: str,
    yes: str,
    then: Callable[[bool], None],
    no: str = "Cancel",
    *,
    default_yes: bool = False,
) -> QMessageBox:
    """Ask a question with two named buttons, window-modal but without blocking; `then(True)` if `yes` was chosen."""
    box = message_box(parent, QMessageBox.Icon.Question, title, text)
    yes_button = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    no_button = box.addButton(no, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(yes_button if default_yes else no_button)
    box.setEscapeButton(no_button)
    box.finished.connect(lambda _result: then(box.clickedButton() is yes_button))
    box.finished.connect(box.deleteLater)
    box.open()
    return box


class ServersIO:
    """The file side of `ServersPanel`: its store's load and save, import, export, and the banner."""

    def __init__(self, panel: ServersPanel) -> None:
        self.panel = panel
        self.load_error: ProfileError | None = None
        self.save_error: str | None = None
        self.banner = QFrame(panel)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner_label = plain_label(parent=self.banner)
        self.banner_label.setWordWrap(True)
        self.banner_label.setStyleSheet(ERROR_STYLE)
        self.backup_button = QPushButton("Back Up and Start Empty", self.banner)
        self.backup_button.clicked.connect(self.backup_corrupt)
        self.retry_button = QPushButton("Retry Save", self.banner)
        self.retry_button.clicked.connect(self.save)
        layout = QVBoxLayout(self.banner)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addWidget(self.banner_label)
        buttons = QHBoxLayout()
        buttons.addWidget(self.backup_button)
        buttons.addWidget(self.retry_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self._update_banner()

    # -- store ---------------------------------------------------------------------------
    def load(self) -> bool:
        """Read the store; True if it loaded. A damaged file is offered for backup (the answer comes later)."""
        store = self.panel.store
        try:
            store.load()
        except ProfileError as exc:
            self.load_error = exc
            self._update_banner()
            self.panel.refresh()
            if isinstance(exc.__cause__, OSError):
                self.error(
                    "Cannot Read Saved Servers",
                    f"{exc}\n\nCheck the file's permissions, then restart MCP Lens. Servers you add now are "
                    "kept in this window but cannot be saved until the file can be read.",
                )
            else:
                ask(
                    self.panel,
                    "Saved Servers Are Unreadable",
                    f"The saved server list cannot be read:\n{exc}\n\nBack it up and start with an empty list? "
                    f"The file is renamed to {store.path.name}.corrupt-<time> next to it; nothing is deleted.\n\n"
                    "Choose Keep File to leave it untouched (for example, to fix it by hand); MCP Lens will "
                    "not overwrite it.",
                    "Back Up and Start Empty",
                    lambda yes: yes and self.backup_corrupt(),
                    "Keep File",
                    default_yes=True,
                )
            self.panel.profilesChanged.emit()
            return False
        self.load_error = None
        self._update_banner()
        self.panel.refresh()
        self.panel.profilesChanged.emit()
        if store.damage is not None:
            # only re-encoded (UTF-16, UTF-32): saved as UTF-8 now, its bytes already kept, so it is said once
            resaved = store.damage.lost == 0 and store.damage.encoding is not None and self.save()
            self.say_damage(resaved)
        return True

    def say_damage(self, resaved: bool = False) -> QMessageBox:
        """What was wrong with the servers file that was read anyway, what was kept, and where its bytes are."""
        store = self.panel.store
        assert store.damage is not None
        said = store.damage.said
        shown = "\n".join(f"• {line}" for line in said[:10])
        if len(said) > 10:
            shown += f"\n• …and {len(said) - 10} more"
        backup = store.damage_backup.name if store.damage_backup else "a .corrupt-<time> copy"
        box = message_box(
            self.panel,
            QMessageBox.Icon.Warning,
            "Saved Servers Were Damaged",
            f"The saved server list ({store.path}) is damaged; MCP Lens opened what is intact:\n{shown}\n\n"
            f"Kept: {counted(len(store), 'server')}. The file as it was is kept next to it as {backup}; "
            + (
                "the servers listed here are saved in it again as UTF-8 text."
                if resaved
                else "the next save writes the servers listed here, as UTF-8 text."
            ),
        )
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.finished.connect(box.deleteLater)
        box.open()
        return box

    def backup_corrupt(self) -> Path | None:
        """Move the unreadable file aside, keeping any server added since, and save those."""
        store = self.panel.store
        pending = store.profiles()
        try:
            backup = store.backup_corrupt()
        except OSError as exc:
            self.error("Cannot Back Up", f"Could not move {store.path} aside: {exc.strerror or exc}")
            return None
        for profile in pending:
            store.add(profile)
        self.load_error = None
        self._update_banner()
        self.panel.refresh()
        if pending:
            self.save()
        self.panel.profilesChanged.emit()
        return backup

    def save(self) -> bool:
        """Save the store; on failure keep everything in memory and say what to do."""
        store = self.panel.store
        try:
            store.save()
        except (OSError, ProfileError) as exc:
            reason = f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)
            self.save_error = reason
            self._update_banner()
            if self.load_error is not None and not isinstance(exc, OSError):
                self.error(
                    "Could Not Save Servers",
                    f"Your change is kept in this window but not saved: the saved server list ({store.path}) "
                    "could not be read when MCP Lens started, and MCP Lens does not write over a file it could "
                    "not read.\n\nTo keep your servers, either fix the file and restart MCP Lens, or press Back "
                    "Up and Start Empty above the server list: the file is renamed (nothing is deleted) and the "
                    "servers you added are saved in a new one. If you quit first, MCP Lens offers to save them "
                    "as a copy.",
                )
                return False
            if self.load_error is not None:
                advice = "The saved file could not be read earlier: fix it and restart, or press Back Up and Start "
                advice += "Empty (the servers you added are kept)."
            elif isinstance(exc, OSError):
                advice = f"Check that {store.path.parent} is writable and the disk is not full, then press Retry Save."
            else:
                advice = "Edit the server named in the message to fix it, then press Retry Save."
            self.error(
                "Could Not Save Servers",
                f"Your servers could not be saved to {store.path}:\n{reason}\n\nYour changes are kept in this "
                f"window. {advice} Export… also saves a copy of a server elsewhere.",
            )
            return False
        self.save_error = None
        self._update_banner()
        return True

    def _update_banner(self) -> None:
        """A short line (the whole reason in its tooltip and in the message already shown) and its buttons."""
        if self.load_error is not None:
            text, detail = "Saved servers could not be read.", str(self.load_error)
        elif self.save_error is not None:
            text, detail = "Changes are not saved.", self.save_error
        else:
            text, detail = "", ""
        self.banner_label.setText(text)
        self.banner.setToolTip(plain_tooltip("Saved servers", detail) if detail else "")
        corrupt = self.load_error is not None and not isinstance(self.load_error.__cause__, OSError)
        self.backup_button.setVisible(corrupt)
        self.retry_button.setVisible(self.save_error is not None and self.load_error is None)
        self.banner.setVisible(bool(text))

    # -- import / export -----------------------------------------------------------------
    def import_file(self, path: Path) -> ImportDialog | None:
        try:
            result = load_servers(path)
        except (OSError, ValueError) as exc:
            self.error(
                "Cannot Import",
                f'{exc}\n\nChoose a JSON file with an "mcpServers" object (Claude Desktop, Claude Code, '
                'Cursor) or a "servers" object (VS Code).',
            )
            return None
        dialog = ImportDialog(result, self.panel.names(), self.panel)
        dialog.accepted.connect(lambda: self.panel.add_imported(dialog.selected_profiles()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def choose_import_file(self) -> QDialog:
        """Import…: the hosts' config files found on this computer, each one click away (`ImportSources`),
        or, when there is none, the file dialog (`choose_other_file`). Window-modal, not blocking."""
        found = found_host_configs()
        if not found:
            return self.choose_other_file()
        sources = ImportSources(found, self.import_file, self.choose_other_file, self.panel)
        sources.finished.connect(sources.deleteLater)
        sources.open()
        return sources

    def choose_other_file(self) -> QFileDialog:
        """Ask for a file to import (window-modal, not blocking), starting where Claude Desktop (or another
        client) keeps its config, with those folders in the sidebar; the import dialog follows."""
        folders = [folder for _client, folder in client_config_folders() if folder.is_dir()]
        open_mode = QFileDialog.AcceptMode.AcceptOpen
        return self._file_dialog("Import Servers", open_mode, str(import_start_folder()), self.import_file, folders)

    def choose_export_file(self) -> QFileDialog | None:
        profile = self.panel.selected_profile()
        if profile is None:
            return None
        suggested = re.sub(r"[^\w.-]+", "_", profile.name).strip("._") or "server"
        mode = QFileDialog.AcceptMode.AcceptSave
        return self._file_dialog("Export Server", mode, f"{suggested}.json", lambda p: self.export_to(p, profile))

    def _file_dialog(
        self,
        title: str,
        mode: QFileDialog.AcceptMode,
        start: str,
        then: Callable[[Path], object],
        places: list[Path] | None = None,
    ) -> QFileDialog:
        dialog = QFileDialog(self.panel, title, start, JSON_FILTER)
        dialog.setAcceptMode(mode)
        if mode == QFileDialog.AcceptMode.AcceptOpen:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        else:
            dialog.setDefaultSuffix("json")
        if places:
            dialog.setSidebarUrls([*dialog.sidebarUrls(), *(QUrl.fromLocalFile(str(p)) for p in places)])
        dialog.fileSelected.connect(lambda path: path and then(Path(path)))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def export_to(self, path: Path, profile: ServerProfile | None) -> bool:
        """Write `export_file([profile])`, atomically and user-only (`config.files.write_atomic`)."""
        if profile is None:
            return False
        try:
            write_atomic(path, json.dumps(export_file([profile]), indent=2, ensure_ascii=False) + "\n")
        except (OSError, ProfileError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.error("Cannot Export", f"Could not write {path}:\n{reason}")
            return False
        return True

    @staticmethod
    def json_path(mime: QMimeData) -> str | None:
        """The first local `.json` file among the URLs of a drag or drop."""
        for url in mime.urls() if mime.hasUrls() else []:
            if url.isLocalFile() and url.toLocalFile().lower().endswith(".json"):
                return url.toLocalFile()
        return None

    def error(self, title: str, text: str) -> QMessageBox:
        """Show a problem, window-modal but without blocking (the app's event loop keeps running)."""
        box = message_box(self.panel, QMessageBox.Icon.Warning, title, text)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.finished.connect(box.deleteLater)
        box.open()
        return box
