"""The Roots section: the folders a server may work in, answered on `roots/list`, saved per profile.

Roots are `file://` URIs. The user adds folders with a picker, types a path or URI, edits one in
place (double-click) or removes it; every change is saved to the profile and announced to a
connected server with `notifications/roots/list_changed`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.plain_text import item_text, plain_label


class RootError(ValueError):
    """A root the user typed that is not a folder path or a file:// URI."""


def to_root_uri(text: str) -> str:
    """A `file://` URI from a folder path or a URI; raises `RootError` with a clear message."""
    text = text.strip()
    if not text:
        raise RootError("enter a folder path or a file:// URI")
    if text.startswith("~"):
        text = str(Path(text).expanduser())
    if "://" not in text and not text.lower().startswith("file:"):
        path = Path(text)
        if not path.is_absolute():
            raise RootError(f"{text!r} is not an absolute path")
        return path.as_uri()
    parts = urlsplit(text)
    if parts.scheme.lower() != "file":
        raise RootError(f"only file:// URIs can be roots ({parts.scheme}: given)")
    if not parts.path.startswith("/"):
        raise RootError(f"{text!r} has no absolute path")
    return text


def root_name(uri: str) -> str:
    """A display name for a root: the last folder name of its path."""
    name = PurePosixPath(unquote(urlsplit(uri).path)).name
    return name or "/"


def root_entries(uris: list[str]) -> list[dict[str, str]]:
    """The `roots/list` answer for these URIs."""
    return [{"uri": uri, "name": root_name(uri)} for uri in uris]


class RootsPanel(QWidget):
    """Editable list of root URIs. `rootsChanged` carries the new list after every edit."""

    rootsChanged = Signal(list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rootsPanel")
        self.pick_folder: Callable[[], str] = self._ask_folder  # replaceable in tests
        self._loading = False
        self.title = plain_label("Roots", self, wrap=False, selectable=True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        # beside the title (modern); wraps in a narrow sidebar
        self.deprecated = plain_label("", self, wrap=True, selectable=True)
        self.deprecated.setObjectName("rootsDeprecated")
        self.deprecated.setStyleSheet("QLabel { color: #9a6700; }")
        self.deprecated.setVisible(False)
        self.list = QListWidget()
        self.list.setObjectName("rootsList")
        self.list.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setToolTip("Folders the server may work in (answered on roots/list). Double-click to edit.")
        self.list.itemChanged.connect(self._item_edited)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("Folder path or file:// URI, then Enter")
        self.entry.returnPressed.connect(self._add_typed)
        self.add_button = QPushButton("Add folder…")
        self.add_button.setToolTip("Pick a folder to add as a root")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("Remove the selected root (Delete)")
        self.add_button.clicked.connect(self._add_picked)
        self.remove_button.clicked.connect(self.remove_selected)
        self.status = plain_label("", self, wrap=True, selectable=True)
        self.status.setStyleSheet("QLabel { color: palette(mid); }")
        self.list.setAccessibleName("Roots")
        self.entry.setAccessibleName("Root folder or URI")
        self.status.setAccessibleName("Roots status")
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        title_row = QHBoxLayout()  # the mark beside the title: the sidebar keeps its height
        title_row.addWidget(self.title)
        title_row.addWidget(self.deprecated)
        title_row.addStretch(1)
        layout.addLayout(title_row)
        self.list.setMinimumHeight(40)  # a few rows: the sidebar stays short enough for a small window
        layout.addWidget(self.list, 1)
        layout.addWidget(self.entry)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        QShortcut(QKeySequence.StandardKey.Delete, self.list, self.remove_selected)
        self._update_buttons()

    def mark_deprecated(self, note: str) -> None:
        """Mark the roots deprecated beside the title (a modern server; `note` says so in full), or nothing."""
        self.deprecated.setText("· deprecated in 2026-07-28" if note else "")
        self.deprecated.setToolTip(note)
        self.deprecated.setAccessibleName(note)
        self.deprecated.setVisible(bool(note))

    # -- reading ------------------------------------------------------------------------------
    def uris(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def roots(self) -> list[dict[str, str]]:
        return root_entries(self.uris())

    # -- editing ------------------------------------------------------------------------------
    def set_roots(self, uris: list[str], owner: str) -> None:
        """Show the roots of profile `owner` (no change signal)."""
        self._loading = True
        self.list.clear()
        for uri in uris:
            self._append(uri)
        self._loading = False
        self.title.setText(f"Roots for {item_text(owner)}")
        self.status.setText("")
        self._update_buttons()

    def add(self, text: str) -> bool:
        """Add a folder path or URI; a bad one is explained in the status line."""
        try:
            uri = to_root_uri(text)
        except RootError as exc:
            self.status.setText(f"Not added: {exc}.")
            return False
        if uri in self.uris():
            self.status.setText(f"{uri} is already a root.")
            return False
        self._append(uri)
        self._changed()
        return True

    def remove_selected(self) -> None:
        rows = sorted((self.list.row(item) for item in self.list.selectedItems()), reverse=True)
        for row in rows:
            self.list.takeItem(row)
        if rows:
            self._changed()

    def _append(self, uri: str) -> None:
        item = QListWidgetItem(uri)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)

    def _item_edited(self, item: QListWidgetItem) -> None:
        if self._loading:
            return
        try:
            uri = to_root_uri(item.text())
        except RootError as exc:
            self.status.setText(f"Removed the edited root: {exc}.")
            self.list.takeItem(self.list.row(item))
            self._changed()
            return
        if uri != item.text():
            self._loading = True
            item.setText(uri)
            self._loading = False
        self._changed()

    def _add_typed(self) -> None:
        if self.add(self.entry.text()):
            self.entry.clear()

    def _add_picked(self) -> None:
        folder = self.pick_folder()
        if folder:
            self.add(folder)

    def _ask_folder(self) -> str:
        return QFileDialog.getExistingDirectory(self, "Add a root folder", str(Path.home()))

    def _changed(self) -> None:
        self._update_buttons()
        self.rootsChanged.emit(self.uris())

    def _update_buttons(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
