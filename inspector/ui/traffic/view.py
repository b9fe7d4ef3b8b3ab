"""`TrafficView`: the live traffic log — filter bar, table, detail pane, copy/re-send actions.

Server-controlled text only ever reaches plain-text widgets (`setPlainText`, labels with
`Qt.PlainText`, model data as str).
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.content import human_size
from inspector.traffic import commands as copy_formats
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.detail import EntryDetail
from inspector.ui.traffic.filter_bar import TrafficFilterBar
from inspector.ui.traffic.http_exchange import entry_words
from inspector.ui.traffic.model import BRIDGE_TRANSPORTS, COL_SERVER, TrafficModel
from inspector.ui.traffic.resend_dialog import ResendDialog
from inspector.ui.traffic.table import WholeRows, log_table
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.flow_layout import FlowLayout
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip

WIDE_LAYOUT_PX = 1000  # from this width the detail pane sits beside the log, not under it
DETAIL_SHARE_WIDE, LOG_SHARE_STACKED = 0.36, 0.55
LOG_LEAST_WIDE = 760  # px: beside the detail, the log's columns (Server among them) read whole from this width
DETAIL_LEAST_WIDE = 240  # px: the detail pane beside the log keeps at least this


def _label() -> QLabel:
    label = PlainLabel()
    return label


class TrafficView(QWidget):
    """The traffic log of one `TrafficStore`. `read_only` hides Re-send and Clear (saved sessions)."""

    resendRequested = Signal(str, object)  # (method, params) of an edited request to send again
    saveRequested = Signal(str, object, object)  # (method, params, server): "Save to collection…"

    def __init__(
        self, store: TrafficStore, parent: QWidget | None = None, *, read_only: bool = False, find_key: bool = True
    ) -> None:
        """`find_key`: Ctrl+F inside the view focuses its filter (off where the window binds Ctrl+F itself)."""
        super().__init__(parent)
        self.store = store
        self.read_only = read_only
        self.find_key = find_key
        self.model = TrafficModel(store, self)
        self._cli_target: list[str] | None = None
        self._cli_targets: dict[str, list[str]] = {}  # per server, when several share the log
        self._follow = True
        self._auto_scrolling = False
        self._laid_out = False
        self.filter_bar = TrafficFilterBar(self)
        self.filter_bar.filterChanged.connect(self.apply_filter)
        self.filter_bar.follow_button.clicked.connect(self.set_follow)
        bar = self.filter_bar  # the widgets, by the names tests and the main window use
        self.filter_edit, self.direction_combo, self.kind_combo = bar.filter_edit, bar.direction_combo, bar.kind_combo
        self.errors_check, self.count_label, self.follow_button = bar.errors_check, bar.count_label, bar.follow_button
        self._build_table()
        self.detail = EntryDetail(self, store)  # the store: a Headers view shows the whole HTTP exchange
        self.status_label = ElidedLabel()  # one line, elided: the whole text is its tooltip
        self.status_label.setAccessibleName("Selected entry")
        # Clipped to the space beside the actions (its tooltip holds the whole text), never widening the pane.
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._build_actions()
        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.setSpacing(2)
        lower_layout.addLayout(self._action_bar)
        lower_layout.addWidget(self.detail, 1)
        self._lower_layout = lower_layout
        # Side by side when the view is wide (whole rows and a tall detail in a low dock), else stacked.
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("trafficSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(WholeRows(self.table))
        self.splitter.addWidget(lower)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self._split_moved = False
        self.splitter.splitterMoved.connect(self._on_split_moved)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.filter_bar)
        layout.addWidget(self.splitter, 1)
        self.model.countsChanged.connect(self._on_counts)
        self.model.rowsFlushed.connect(self._on_rows_flushed)
        self.model.modelReset.connect(self._after_reset)
        self.model.entryChanged.connect(self._on_entry_changed)
        self._on_counts(len(self.model.visible), self.model.total())
        self._on_selection()

    # -- construction ----------------------------------------------------------------------------
    def _build_table(self) -> None:
        self.table = table = log_table(self.model, self)
        table.selectionModel().currentRowChanged.connect(self._on_selection)
        table.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        table.setColumnHidden(COL_SERVER, True)  # until a second server records here (`add_server`)
        # A smaller window or pane moves the end too: a following log stays on it.
        table.verticalScrollBar().rangeChanged.connect(lambda *_: self._on_rows_flushed())

    def _action(self, text: str, slot: Any, *shortcuts: QKeySequence | str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        self.copy_action = self._action("Copy message", self.copy_message, "Ctrl+Shift+C")
        self.cli_action = self._action("Copy as mcp-lens --cli", self.copy_as_cli)
        self.curl_action = self._action("Copy as curl", self.copy_as_curl)
        self.pair_action = self._action("Jump to pair", self.jump_to_pair, "Ctrl+J")
        self.resend_action = self._action("Re-send…", self.resend_selected)
        self.save_action = self._action("Save to collection…", self.save_selected)
        self.clear_action = self._action("Clear", self.clear_log, QKeySequence.StandardKey.Delete, "Ctrl+L")
        self.find_action = self._action("Find", self.focus_filter, *(["Ctrl+F"] if self.find_key else []))
        self.escape_action = self._action("Clear filter", self.clear_filter, "Escape")
        self.cli_action.setToolTip("Copy a command line that repeats this request (set by the connected server)")
        copy = QToolButton(self)
        copy.setDefaultAction(self.copy_action)
        copy.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(copy)
        menu.addActions([self.copy_action, self.cli_action, self.curl_action])
        copy.setMenu(menu)
        # The buttons wrap onto a second row rather than keep the detail pane wide: the log's text columns
        # get the room at 1024 px (the pane was held at ~400 px by this row).
        buttons = QWidget(self)
        flow = FlowLayout(buttons, spacing=4)
        flow.addWidget(copy)
        editing = [] if self.read_only else [self.resend_action, self.save_action]
        for action in [*editing, self.pair_action]:
            button = QToolButton(self)
            button.setDefaultAction(action)
            flow.addWidget(button)
        bar = QHBoxLayout()
        bar.addWidget(buttons)
        bar.addWidget(self.status_label, 100)
        bar.addStretch(1)
        self._action_bar = bar
        if self.read_only:
            self.clear_action.setEnabled(False)
            self.resend_action.setEnabled(False)
            self.save_action.setEnabled(False)
        else:
            clear = QToolButton(self)
            clear.setDefaultAction(self.clear_action)
            clear.setToolTip("Clear the log (Delete, Ctrl+L)")
            self.filter_bar.add_trailing(clear)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wide = self.width() >= WIDE_LAYOUT_PX
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        turned = orientation != self.splitter.orientation() or not self._laid_out
        if turned:
            self._laid_out = True
            self.splitter.setOrientation(orientation)
            # The selection's summary: beside the actions when stacked, on its own line in the narrower side pane.
            self._action_bar.removeWidget(self.status_label)
            self._lower_layout.removeWidget(self.status_label)
            if wide:
                self._lower_layout.insertWidget(1, self.status_label)
            else:
                self._action_bar.insertWidget(self._action_bar.count() - 1, self.status_label, 100)
        if turned or (wide and not self._split_moved):  # the user's own split is kept
            self.splitter.setSizes(self._split(wide))

    def _on_split_moved(self, *_: object) -> None:
        self._split_moved = True

    def _split(self, wide: bool) -> list[int]:
        """The log's and the detail's first sizes. Side by side the detail gets its share, but gives way
        down to `DETAIL_LEAST_WIDE` so that the log keeps `LOG_LEAST_WIDE` (Kind and Method read at 1024 px)."""
        if not wide:
            log = int(self.height() * LOG_SHARE_STACKED)
            return [log, self.height() - log]
        total = self.width()
        detail = max(DETAIL_LEAST_WIDE, min(int(total * DETAIL_SHARE_WIDE), total - LOG_LEAST_WIDE))
        return [total - detail, detail]

    # -- configuration ---------------------------------------------------------------------------
    def set_cli_target(self, words: list[str] | None, server: str | None = None) -> None:
        """Target words for `mcp-lens --cli` (a command, or e.g. ``["--server-url", URL]``); None if unknown.
        With `server`, for that server's entries (the log shows several)."""
        if server is None:
            self._cli_target = list(words) if words else None
        elif words:
            self._cli_targets[server] = list(words)
        self._on_selection()

    def _target_for(self, entry: Entry) -> list[str] | None:
        return self._cli_targets.get(entry.source or "", self._cli_target)

    def add_server(self, name: str) -> None:
        """A server whose session records into this log: offered in the server filter; with two or
        more, each row says whose it is."""
        self.filter_bar.add_server(name)
        self.table.setColumnHidden(COL_SERVER, len(self.filter_bar.servers()) < 2)

    def shown_server(self) -> str | None:
        """The server the filter shows (None: every server)."""
        return self.filter_bar.server_combo.currentData()

    def export_jsonl(self, path: str | os.PathLike[str], meta: dict[str, Any] | None = None) -> int:
        self.model.flush()
        return jsonl.save(path, self.store, meta)

    # -- filtering -------------------------------------------------------------------------------
    def current_filter(self) -> TrafficFilter:
        return self.filter_bar.current_filter()

    def apply_filter(self) -> None:
        """Rebuild the row index for the filter bar's current settings (typing is debounced)."""
        self.model.flush()
        self.model.set_filter(self.current_filter())

    def clear_filter(self) -> None:
        self.filter_bar.reset()

    def focus_filter(self) -> None:
        self.filter_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_edit.selectAll()

    # -- selection and pairing -------------------------------------------------------------------
    def selected_entry(self) -> Entry | None:
        return self.detail.entry

    def select_seq(self, seq: int) -> bool:
        """Select entry `seq` if it is shown; False when it is filtered out or unknown."""
        self.model.flush()
        row = self.model.row_of_seq(seq)
        if row is None:
            return False
        self.table.setCurrentIndex(self.model.index(row, 0))
        self.table.scrollTo(self.model.index(row, 0))
        return True

    def jump_to_pair(self) -> bool:
        entry = self.selected_entry()
        if entry is None or entry.peer_seq is None:
            self.say("This entry has no paired request or response.")
            return False
        if not self.select_seq(entry.peer_seq):
            self.say(f"The paired entry #{entry.peer_seq} is hidden by the current filter.")
            return False
        return True

    def _on_selection(self, *_: object) -> None:
        entry = self.model.entry_at(self.table.currentIndex().row())
        if entry is not self.detail.entry:
            self.model.set_selected_seq(entry.seq if entry is not None else None)
            self.detail.set_entry(entry)
        outgoing_request = (  # sent to the server: an MCP App's bridge request went to MCP Lens, not to it
            entry is not None
            and entry.direction is Direction.OUT
            and entry.kind is Kind.REQUEST
            and entry.transport not in BRIDGE_TRANSPORTS
        )
        self.copy_action.setEnabled(entry is not None)
        self.pair_action.setEnabled(entry is not None and entry.peer_seq is not None)
        self.cli_action.setEnabled(
            outgoing_request
            and self._target_for(entry) is not None
            and copy_formats.cli_command(self._target_for(entry), entry) is not None
        )
        self.curl_action.setEnabled(
            entry is not None and copy_formats.http_request_of(entry, self.store.by_seq) is not None
        )
        self.resend_action.setEnabled(outgoing_request and not self.read_only)
        self.save_action.setEnabled(outgoing_request and not self.read_only)
        if entry is not None:
            self.say(self._describe(entry))

    def _describe(self, entry: Entry) -> str:
        text = f"#{entry.seq} {entry.kind.value} {entry.method or ''} — {human_size(entry.size, short=True)}"
        if entry.peer_seq is not None:
            peer = self.store.by_seq(entry.peer_seq)
            what = f"{peer.kind.value} " if peer is not None else ""
            text += f"; paired with {what}#{entry.peer_seq} (Ctrl+J)"
        return text + "".join(f"; {words}" for words in entry_words(entry))  # resultType, cache hints, codes

    def _on_entry_changed(self, seq: int) -> None:
        if self.detail.entry is not None and self.detail.entry.seq == seq:
            self.detail.refresh()  # its new note shows under the log

    def _after_reset(self) -> None:
        """A filter change or clear reset the rows: keep the selected entry selected when still shown."""
        entry = self.detail.entry
        if entry is not None and self.model.total() and self.select_seq(entry.seq):
            return
        self._on_selection()
        if entry is not None and self.detail.entry is None:  # the line under the log never names a hidden entry
            self.say(f"#{entry.seq} is hidden by the filter: no entry selected")
        if self._follow:
            self.table.scrollToBottom()

    # -- following the tail ----------------------------------------------------------------------
    @property
    def follow(self) -> bool:
        return self._follow

    def set_follow(self, on: bool) -> None:
        self._follow = bool(on)
        self.follow_button.setChecked(self._follow)
        if self._follow:
            self._scroll_to_bottom()

    def _on_rows_flushed(self) -> None:
        if self._follow:
            self._scroll_to_bottom()

    def _scroll_to_bottom(self) -> None:
        self._auto_scrolling = True
        try:
            self.table.scrollToBottom()
        finally:
            self._auto_scrolling = False

    def _on_scrolled(self, value: int) -> None:
        if self._auto_scrolling:
            return
        at_bottom = value >= self.table.verticalScrollBar().maximum()
        if at_bottom != self._follow:
            self._follow = at_bottom
            self.follow_button.setChecked(at_bottom)

    # -- actions ---------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.status_label.setText(text[:500])
        self.status_label.setToolTip(plain_tooltip("Traffic log", text[:500]))

    def _on_counts(self, shown: int, total: int) -> None:
        self.filter_bar.set_counts(shown, total)
        entry = self.detail.entry
        if entry is not None and (entry.peer_seq is not None) != self.pair_action.isEnabled():
            self.detail.refresh()  # its response (or cancellation) arrived since it was selected
            self._on_selection()

    def _copy(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.say(f"Copied {what}.")

    def copy_message(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self._copy(entry.raw.decode("utf-8", errors="backslashreplace"), f"message #{entry.seq}")

    def copy_as_cli(self) -> None:
        entry = self.selected_entry()
        command = copy_formats.cli_command(self._target_for(entry), entry) if entry is not None else None
        if command is None:
            self.say("This entry cannot be repeated with mcp-lens --cli.")
            return
        self._copy(command, "an mcp-lens --cli command")

    def copy_as_curl(self) -> None:
        entry = self.selected_entry()
        command = copy_formats.curl_for_entry(entry, self.store.by_seq) if entry is not None else None
        if command is None:
            self.say("Not an HTTP entry: there is no request to repeat with curl.")
            return
        self._copy(command, "a curl command")

    def resend_selected(self) -> ResendDialog | None:
        """Open the re-send editor for the selected outgoing request (non-blocking); returns the dialog."""
        entry = self.selected_entry()
        message = copy_formats.request_message(entry) if entry is not None and not self.read_only else None
        if message is None:
            self.say("Only requests sent to the server can be re-sent.")
            return None
        dialog = ResendDialog(message, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.resend.connect(self.resendRequested)
        dialog.open()
        return dialog

    def save_selected(self) -> None:
        """Ask to save the selected outgoing request as a collection step (its params without ``_meta``:
        the connection adds its own)."""
        entry = self.selected_entry()
        message = copy_formats.request_message(entry) if entry is not None and not self.read_only else None
        if message is None:
            self.say("Only requests sent to the server can be saved to a collection.")
            return
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        params = {k: v for k, v in params.items() if k != "_meta"}
        self.saveRequested.emit(message["method"], params, entry.source)

    def clear_log(self) -> None:
        if not self.read_only:
            self.store.clear()
            self.detail.set_entry(None)
            self._on_selection()
