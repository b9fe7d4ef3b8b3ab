"""The left sidebar: the built-in demo server and the user's saved server profiles."""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QMimeData, QModelIndex, QPersistentModelIndex, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeySequence, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.formats import export_entry
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.servers.import_dialog import ImportDialog, ServersIO, ask, unique_name
from inspector.ui.servers.inputs_dialog import ServerInputs
from inspector.ui.servers.profile_dialog import ProfileDialog, profile_summary
from inspector.ui.servers.tap_dialog import TapDialog, tap_menu_text
from inspector.ui.widgets.plain_text import item_text, safe_tooltip

STATES = ("disconnected", "connecting", "connected", "failed")
STATE_COLORS = {"connecting": QColor("#d4a72c"), "connected": QColor("#2da44e"), "failed": QColor("#e5534b")}
PROFILE_ROLE = Qt.ItemDataRole.UserRole
SUMMARY_ROLE = Qt.ItemDataRole.UserRole + 1
STATE_ROLE = Qt.ItemDataRole.UserRole + 2
DEMO_ROLE = Qt.ItemDataRole.UserRole + 3
_ELIDE = Qt.TextElideMode.ElideRight


class ServerItemDelegate(QStyledItemDelegate):
    """Two lines per server (name, dimmer summary) after a status dot; all text drawn as plain text."""

    @staticmethod
    def row_height(line: int) -> int:
        return line * 2 + 14

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(160, self.row_height(option.fontMetrics.height()))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex):
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        (opt.widget.style() if opt.widget else QApplication.style()).drawControl(
            QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget
        )
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        color = opt.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        rect, line = opt.rect.adjusted(8, 5, -6, -5), opt.fontMetrics.height()
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = STATE_COLORS.get(index.data(STATE_ROLE))
        painter.setPen(QPen(fill.darker(125) if fill else _alpha(color, 140), 1 if fill else 1.4))
        painter.setBrush(fill if fill else Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QRectF(rect.left() + 0.5, rect.top() + (line - 9) / 2 + 0.5, 9, 9))
        left, width = rect.left() + 18, rect.right() - rect.left() - 18
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.setPen(color)
        painter.setFont(opt.font)
        name = opt.fontMetrics.elidedText(index.data(Qt.ItemDataRole.DisplayRole) or "", _ELIDE, width)
        painter.drawText(left, rect.top(), width, line, flags, name)
        small = opt.font
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.88))
        painter.setFont(small)
        painter.setPen(_alpha(color, 165))
        fm = painter.fontMetrics()
        summary = fm.elidedText(index.data(SUMMARY_ROLE) or "", _ELIDE, width)
        painter.drawText(left, rect.top() + line + 2, width, fm.height(), flags, summary)
        if index.data(DEMO_ROLE):  # a hairline separates the built-in entry from the user's servers
            painter.setPen(QPen(_alpha(color, 60), 1))
            y = opt.rect.bottom() + 0.5
            painter.drawLine(QPointF(opt.rect.left() + 6, y), QPointF(opt.rect.right() - 6, y))
        painter.restore()


def _name(item: QListWidgetItem) -> str:
    """The name of the server an item shows (its text is the name made visible)."""
    return item.data(PROFILE_ROLE).name


def _alpha(color: QColor, alpha: int) -> QColor:
    out = QColor(color)
    out.setAlpha(alpha)
    return out


class ServersPanel(QWidget):
    """The server list with add/edit/duplicate/delete, import/export and connect.

    A server opened from the command line is listed as an unsaved entry (`show_unsaved`) until the
    user saves it. `inputs` resolves a profile's `${…}` references before it connects.

    Call `load()` once the window is shown: it reads the store and, if the file is corrupt, offers
    to back it up. Every change is saved through `ProfileStore.save()`; if saving fails the change
    stays in memory and the error says what to do.
    """

    connectRequested = Signal(object)  # the ServerProfile to connect to
    disconnectRequested = Signal(object)  # the ServerProfile whose session to close
    selectionChanged = Signal(object)  # the ServerProfile now selected (None: nothing)
    profilesChanged = Signal()
    renamed = Signal(str, str)  # old name, new name (its live session keeps running under the new one)
    removed = Signal(str)  # the name of a deleted server (its session is closed)

    def __init__(self, store: ProfileStore, demo: ServerProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.demo = demo
        self._states: dict[str, str] = {}
        self._details: dict[str, str] = {}
        self._refreshing = False  # what the second line says of a live entry (era, error)
        # Servers opened from the command line or as mocks, not (yet) saved, oldest first.
        self.unsaved_entries: list[ServerProfile] = []
        self.io = ServersIO(self)
        self.inputs = ServerInputs(self)
        self.setAcceptDrops(True)

        self.list = QListWidget(self)
        self.list.setItemDelegate(ServerItemDelegate(self.list))
        self.list.setUniformItemSizes(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._show_menu)
        self.list.itemDoubleClicked.connect(lambda _item: self.connect_selected())
        self.list.currentItemChanged.connect(lambda *_: self._update_actions())
        self.list.currentItemChanged.connect(lambda *_: self._selection_moved())
        self.list.installEventFilter(self)
        # three rows always show, whatever else (an error banner, a short window) takes space
        row = ServerItemDelegate.row_height(self.list.fontMetrics().height())
        self.list.setMinimumHeight(3 * row + 2 * self.list.frameWidth())

        def action(text: str, slot, tip: str, shortcut: QKeySequence | None = None) -> QAction:
            act = QAction(text, self)
            act.setToolTip(tip)
            act.triggered.connect(lambda _checked=False: slot())
            if shortcut is not None:
                act.setShortcut(shortcut)
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                self.addAction(act)
            return act

        self.add_action = action("Add", self.add_profile, "Add a server", QKeySequence.StandardKey.New)
        self.edit_action = action("Edit", self.edit_profile, "Edit the selected server")
        self.save_action = action("Save…", self.save_unsaved, "Save this server (opened from the command line)")
        self.duplicate_action = action("Duplicate", self.duplicate_profile, "Copy the selected server")
        self.delete_action = action(
            "Delete", self.delete_profile, "Delete the selected server", QKeySequence.StandardKey.Delete
        )
        self.import_action = action("Import…", self.io.choose_import_file, "Import servers from an mcp.json-style file")
        self.export_action = action(
            "Export…", self.io.choose_export_file, "Save the selected server as an mcp.json file"
        )
        self.copy_entry_action = action("Copy as mcp.json Entry", self.copy_entry, "Copy the selected server's entry")
        self.tap_action = action("Tap this server…", self.tap_selected, "Run this server through the tap in a host app")
        self.connect_action = action("Connect", self.connect_selected, "Connect to the selected server")
        self.disconnect_action = action("Disconnect", self.disconnect_selected, "Disconnect the selected server")

        self.toolbar = QToolBar(self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toolbar.addActions(
            [self.add_action, self.save_action, self.edit_action, self.duplicate_action, self.delete_action]
        )
        # Tool buttons: narrower than push buttons, so the sidebar stays slim.
        self.import_button = QToolButton(self)
        self.import_button.setText("Import…")
        self.import_button.setToolTip(self.import_action.toolTip())
        self.import_button.clicked.connect(self.import_action.trigger)
        self.export_menu = QMenu(self)
        self.export_menu.addActions([self.export_action, self.copy_entry_action])
        self.export_button = QToolButton(self)
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.export_button.setMenu(self.export_menu)
        # Connect, or Disconnect while the selected server is live (each entry its own; the others stay connected)
        self.connect_button = QPushButton("Connect", self)
        self.connect_button.setDefault(True)
        self.connect_button.clicked.connect(self._connect_or_disconnect)
        bottom = QHBoxLayout()
        bottom.addWidget(self.import_button)
        bottom.addWidget(self.export_button)
        bottom.addStretch(1)
        bottom.addWidget(self.connect_button)

        self._name_widgets()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.io.banner)
        layout.addWidget(self.list, 1)
        layout.addLayout(bottom)
        self.refresh()

    def _name_widgets(self) -> None:
        """Accessible names: the list, and each button by what it acts on."""
        self.list.setAccessibleName("Servers")
        for act, name in (
            (self.add_action, "Add server"),
            (self.save_action, "Save server"),
            (self.edit_action, "Edit server"),
            (self.duplicate_action, "Duplicate server"),
            (self.delete_action, "Delete server"),
        ):
            if (button := self.toolbar.widgetForAction(act)) is not None:
                button.setAccessibleName(name)
        self.import_button.setAccessibleName("Import servers")
        self.export_button.setAccessibleName("Export server")

    # -- loading -------------------------------------------------------------------------
    def load(self) -> bool:
        """Read the store; on a corrupt file offer to back it up and start empty. True if loaded."""
        return self.io.load()

    # -- list ----------------------------------------------------------------------------
    def profiles(self) -> list[ServerProfile]:
        """The demo entry, the unsaved ones, then the saved profiles, as shown."""
        return [self.demo, *self.unsaved_entries, *self.store.profiles()]

    @property
    def unsaved(self) -> ServerProfile | None:
        """The newest unsaved entry (None: there is none)."""
        return self.unsaved_entries[-1] if self.unsaved_entries else None

    def names(self) -> list[str]:
        return [p.name for p in self.profiles()]

    def refresh(self, select: str | None = None) -> None:
        """Rebuild the list from the store, keeping (or moving to) the selection."""
        current = select or (p.name if (p := self.selected_profile()) else None)
        before = self.selected_profile()
        self._refreshing = True  # the list is rebuilt: one selectionChanged at the end, if it moved
        self.list.clear()
        for profile in self.profiles():
            item = QListWidgetItem(item_text(profile.name))  # a name from a config file: one visible line
            item.setData(PROFILE_ROLE, profile)
            item.setData(DEMO_ROLE, profile is self.demo)
            self.list.addItem(item)
            self._paint_state(item)  # its second line: the live state, else the server's summary
        if not (current and self.select(current)):
            self.list.setCurrentRow(0)
        self._refreshing = False
        if self.selected_profile() is not before:
            self._selection_moved()
        self._update_actions()

    def _selection_moved(self) -> None:
        if not self._refreshing:
            self.selectionChanged.emit(self.selected_profile())

    def select(self, name: str) -> bool:
        for i in range(self.list.count()):
            if _name(self.list.item(i)) == name:
                self.list.setCurrentRow(i)
                return True
        return False

    def selected_profile(self) -> ServerProfile | None:
        item = self.list.currentItem()
        return item.data(PROFILE_ROLE) if item is not None else None

    def is_demo(self, profile: ServerProfile | None) -> bool:
        return profile is not None and profile is self.demo

    def is_unsaved(self, profile: ServerProfile | None) -> bool:
        return profile is not None and any(profile is entry for entry in self.unsaved_entries)

    def show_unsaved(self, profile: ServerProfile) -> ServerProfile:
        """List a server opened from the command line (or a mock) as an unsaved entry beside the others
        (renamed if its name is taken) and select it; a saved or unsaved server with the same name and
        settings is used instead. Returns the entry."""
        if profile.name in self.store and self.store.get(profile.name).to_entry() == profile.to_entry():
            self.refresh(select=profile.name)
            return self.store.get(profile.name)
        same = next((p for p in self.unsaved_entries if p.to_entry() == profile.to_entry()), None)
        if same is not None and same.name == profile.name:
            self.refresh(select=same.name)
            return same
        entry = profile.clone(name=unique_name(profile.name, [p.name for p in self.profiles()]))
        self.unsaved_entries.append(entry)
        self.refresh(select=entry.name)
        return entry

    def save_unsaved(self) -> ProfileDialog | None:
        """Open the Save Server dialog for the selected unsaved entry (else the newest); once accepted it
        becomes a saved server."""
        selected = self.selected_profile()
        entry = selected if self.is_unsaved(selected) else self.unsaved
        if entry is None:
            return None
        return self._open_dialog(entry, title="Save Server")

    def set_state(self, name: str, state: str, detail: str = "") -> None:
        """Show a connection state ("disconnected", "connecting", "connected", "failed") next to `name`, and
        `detail` (e.g. "connected · modern 2026-07-28", "error: …") in place of its summary while live."""
        if state not in STATES:
            raise ValueError(f"unknown state {state!r} (expected one of {', '.join(STATES)})")
        self._states[name] = state
        self._details[name] = detail
        for i in range(self.list.count()):
            if _name(self.list.item(i)) == name:
                self._paint_state(self.list.item(i))
        self._update_actions()

    def state(self, name: str) -> str:
        return self._states.get(name, "disconnected")

    def state_detail(self, name: str) -> str:
        """What the entry's second line says of its session ("" when it shows the server's summary)."""
        return self._details.get(name, "")

    def _paint_state(self, item: QListWidgetItem) -> None:
        name = _name(item)
        item.setData(STATE_ROLE, self.state(name))
        profile = item.data(PROFILE_ROLE)
        summary = "built-in demo server" if self.is_demo(profile) else profile_summary(profile)
        summary = f"not saved · {summary}" if self.is_unsaved(profile) else summary
        live = self.state_detail(name) or self.state(name)
        item.setData(SUMMARY_ROLE, item_text(self.state_detail(name) or summary))
        item.setToolTip(safe_tooltip("\n".join(item_text(line) for line in (name, live, summary))))
        unsaved = ", not saved" if self.is_unsaved(profile) else ""
        item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{item_text(name)}, {item_text(live)}{unsaved}")

    # -- editing -------------------------------------------------------------------------
    def add_profile(self) -> ProfileDialog:
        """Open the (window-modal) add dialog; the profile is added and saved when it is accepted."""
        return self._open_dialog(None)

    def edit_profile(self, name: str | None = None) -> ProfileDialog | None:
        """Open the edit dialog for `name` (default: the selection); None for the demo or nothing."""
        profile = self._find(name)
        if profile is None or self.is_demo(profile):
            return None
        if self.is_unsaved(profile):
            return self.save_unsaved()
        return self._open_dialog(profile)

    def profile_named(self, name: str) -> ServerProfile | None:
        """The profile listed as `name`, as saved now (the demo, the unsaved entry, or a saved server)."""
        return self._find(name)

    def _find(self, name: str | None) -> ServerProfile | None:
        """The saved profile called `name` (the demo if none is), or the selection when `name` is None."""
        if name is None:
            return self.selected_profile()
        if name in self.store:
            return self.store.get(name)
        return next((p for p in (self.demo, *self.unsaved_entries) if p is not None and p.name == name), None)

    def _open_dialog(self, profile: ServerProfile | None, title: str | None = None) -> ProfileDialog:
        dialog = ProfileDialog(profile, self.names(), self, title=title)
        if self.is_unsaved(profile):
            dialog.accepted.connect(lambda: self._commit(None, dialog.profile(), saving=profile))
        else:
            dialog.accepted.connect(lambda: self._commit(profile.name if profile else None, dialog.profile()))
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _commit(self, old_name: str | None, profile: ServerProfile | None, saving: ServerProfile | None = None) -> None:
        """Add (`old_name` None) or update a profile; `saving` is the unsaved entry it replaces."""
        if profile is None:
            return
        try:
            if old_name is None:
                self.store.add(profile)
                if saving is not None and self.is_unsaved(saving):
                    self._states[profile.name] = self._states.pop(saving.name, "disconnected")
                    self.unsaved_entries = [p for p in self.unsaved_entries if p is not saving]
                    old_name = saving.name
            else:
                if old_name != profile.name:
                    self.store.rename(old_name, profile.name)
                    self._states[profile.name] = self._states.pop(old_name, "disconnected")
                self.store.update(profile)
        except ProfileError as exc:
            self.io.error("Cannot Save Server", str(exc))
            return
        if old_name is not None and old_name != profile.name:
            self._details[profile.name] = self._details.pop(old_name, "")
            self.renamed.emit(old_name, profile.name)
        self._changed(select=profile.name)

    def duplicate_profile(self, name: str | None = None) -> ServerProfile | None:
        source = self._find(name)
        if source is None:
            return None
        copy_name, n = f"{source.name} (copy)", 2
        while copy_name in self.names():
            copy_name, n = f"{source.name} (copy {n})", n + 1
        copy = self.store.add(source.clone(name=copy_name))
        self._changed(select=copy.name)
        return copy

    def delete_profile(self, name: str | None = None, *, confirm: bool = True) -> bool:
        """Delete `name` (default: the selection); the demo entry cannot be deleted. False if it cannot be.

        With `confirm`, a question opens and the profile goes once the user presses Delete.
        """
        profile = self._find(name)
        if profile is None or self.is_demo(profile) or profile.name not in self.store:
            return False
        if confirm:
            question = f"Delete the server “{item_text(profile.name)}”?\n\nThis cannot be undone."
            ask(self, "Delete Server", question, "Delete", lambda yes: yes and self._delete(profile.name))
            return True
        self._delete(profile.name)
        return True

    def _delete(self, name: str) -> None:
        if name not in self.store:
            return
        row = self.list.currentRow()
        selected = self.selected_profile()
        was_selected = selected is not None and selected.name == name
        self.store.delete(name)
        self._states.pop(name, None)
        self._details.pop(name, None)
        self.removed.emit(name)
        self._changed()
        if was_selected:  # select the neighbour, as file managers do
            self.list.setCurrentRow(min(row, self.list.count() - 1))

    def add_imported(self, profiles: list[ServerProfile]) -> list[ServerProfile]:
        """Add profiles (renamed by the import dialog so that they do not collide) and save once."""
        added = [self.store.add(p) for p in profiles if p.name not in self.names()]
        if added:
            self._changed(select=added[0].name)
        return added

    def _changed(self, select: str | None = None) -> None:
        self.refresh(select)
        self.io.save()
        self.profilesChanged.emit()

    # -- import / export / connect -------------------------------------------------------
    def import_file(self, path: str | os.PathLike[str]) -> ImportDialog | None:
        """Read `path` and open the import dialog (window-modal); None if the file cannot be read."""
        return self.io.import_file(Path(path))

    def export_to(self, path: str | os.PathLike[str], profile: ServerProfile | None = None) -> bool:
        """Write `{"mcpServers": {name: entry}}` for `profile` (default: the selection) to `path`."""
        return self.io.export_to(Path(path), profile or self.selected_profile())

    def copy_entry(self, profile: ServerProfile | None = None) -> str:
        """Copy `"name": {entry}` to the clipboard, ready to paste into an `mcpServers` object; return it."""
        profile = profile or self.selected_profile()
        if profile is None:
            return ""
        try:
            entry = json.dumps(export_entry(profile), indent=2, ensure_ascii=False)
            text = f"{json.dumps(profile.name, ensure_ascii=False)}: {entry}"
        except ProfileError as exc:
            self.io.error("Cannot Copy Entry", str(exc))
            return ""
        QGuiApplication.clipboard().setText(text)
        return text

    def tap_selected(self) -> TapDialog | None:
        """Open Tap This Server for the selection: put a host's entry for it behind the tap, or untap it."""
        if (profile := self.selected_profile()) is None:
            return None
        dialog = TapDialog(profile, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def connect_selected(self) -> None:
        if (profile := self.selected_profile()) is not None:
            self.connectRequested.emit(profile)

    def _connect_or_disconnect(self) -> None:
        profile = self.selected_profile()
        if profile is not None and self.state(profile.name) in ("connected", "connecting"):
            self.disconnect_selected()
        else:
            self.connect_selected()

    def disconnect_selected(self) -> None:
        if (profile := self.selected_profile()) is not None:
            self.disconnectRequested.emit(profile)

    def handle_drop(self, mime: QMimeData) -> ImportDialog | None:
        """Import the first local `.json` file in a drop; None if there is none."""
        path = self.io.json_path(mime)
        return self.import_file(path) if path else None

    # -- Qt events -----------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if self.io.json_path(event.mimeData()):
            event.acceptProposedAction()

    dragMoveEvent = dragEnterEvent

    def dropEvent(self, event) -> None:
        if self.io.json_path(event.mimeData()):
            event.acceptProposedAction()
            self.handle_drop(event.mimeData())

    def eventFilter(self, watched, event) -> bool:
        enter = event.type() == event.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if watched is self.list and enter:  # Enter connects on every platform (macOS would start editing)
            self.connect_selected()
            return True
        return super().eventFilter(watched, event)

    def _update_actions(self) -> None:
        profile = self.selected_profile()
        unsaved = self.is_unsaved(profile)
        editable = profile is not None and not self.is_demo(profile) and not unsaved
        self.edit_action.setEnabled(editable)
        self.delete_action.setEnabled(editable)
        self.save_action.setVisible(unsaved)  # in Edit's place while the unsaved entry is selected
        self.edit_action.setVisible(not unsaved)
        for act in (self.duplicate_action, self.export_action, self.copy_entry_action, self.connect_action):
            act.setEnabled(profile is not None)
        self.connect_button.setEnabled(profile is not None)
        live = profile is not None and self.state(profile.name) in ("connected", "connecting")
        self.connect_button.setText("Disconnect" if live else "Connect")  # what a click does to the selected server
        self.connect_button.setAccessibleName(
            "Disconnect the selected server" if live else "Connect to the selected server"
        )
        self.connect_button.setToolTip(
            "Close this server's session (the others stay connected)" if live else "Connect to the selected server"
        )
        self.connect_action.setText("Reconnect" if live else "Connect")
        self.disconnect_action.setEnabled(live)
        self.export_button.setEnabled(profile is not None)

    def _show_menu(self, pos) -> None:
        if item := self.list.itemAt(pos):
            self.list.setCurrentItem(item)
        menu = QMenu(self)
        menu.addActions([self.connect_action, self.disconnect_action])
        menu.addSeparator()
        menu.addActions(self.toolbar.actions())
        menu.addSeparator()
        menu.addActions([self.import_action, self.export_action, self.copy_entry_action])
        menu.addSeparator()
        self.tap_action.setText(tap_menu_text(self.selected_profile()))
        menu.addAction(self.tap_action)
        menu.popup(self.list.viewport().mapToGlobal(pos))
        menu.aboutToHide.connect(menu.deleteLater)
