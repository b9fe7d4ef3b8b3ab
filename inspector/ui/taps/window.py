"""File › Tapped sessions…: the records `mcp-lens tap` wrote, live and finished, kept up to date.

The host-given name, the server's command and the folder's file names come from outside the app:
they are shown as plain text only (table cells are plain strings, labels are `Qt.PlainText`).
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.content import human_size
from inspector.ui.taps.records import LIVE, TapSession, list_sessions, taps_folder
from inspector.ui.widgets.plain_text import item_text, plain_tooltip
from inspector.ui.widgets.row_table import one_row_at_a_time

REFRESH_MS = 2000  # the slow timer beside the folder watcher (a live record's size, a tap that died)
COLUMNS = ("Name", "Server", "Started", "Size", "State")
STATE_TEXT = {LIVE: "live", "finished": "finished", "ended": "ended (no exit recorded)"}


def started_text(started: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started)) if started is not None else "unknown"


def _row(session: TapSession) -> tuple[str, ...]:
    command = shlex.join(session.command) if session.command else "(no command recorded)"
    return (
        session.name,
        command,
        started_text(session.started),
        human_size(session.size, short=True),
        STATE_TEXT[session.state],
    )


class TappedSessionsWindow(QWidget):
    """Lists tapped sessions; Open shows one read-only (followed while live); Open as server connects to
    its server. What opening does is the caller's: `openRequested` and `serverRequested` carry the session."""

    openRequested = Signal(object, object)  # TapSession, the part to show (its Path: the newest unless chosen)
    serverRequested = Signal(object)  # TapSession
    mockRequested = Signal(object)  # TapSession: its record served by `mcp-lens replay`

    def __init__(
        self,
        folder: Path | None = None,
        parent: QWidget | None = None,
        lister: Callable[[Path], list[TapSession]] = list_sessions,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Tapped sessions — MCP Lens")
        self.folder = folder or taps_folder()
        self._lister = lister
        self.sessions: list[TapSession] = []
        self._listed = False  # the first refresh fills the labels even when the list is empty
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setAccessibleName("Tapped sessions")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        one_row_at_a_time(self.table)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column in (0, 2, 3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemActivated.connect(lambda _item: self.open_selected())
        self.folder_label = QLabel(self)
        self.folder_label.setTextFormat(Qt.TextFormat.PlainText)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_label = QLabel(self)
        self.empty_label.setTextFormat(Qt.TextFormat.PlainText)
        self.empty_label.setWordWrap(True)
        self.open_button = QPushButton("Open", self)
        self.open_button.setAccessibleName("Open record")
        self.open_button.setToolTip("Show the record read-only in a traffic log (a live one is followed as it grows)")
        self.open_button.clicked.connect(self.open_selected)
        self.part_combo = QComboBox(self)  # a rotated record's parts (shown only when there are several)
        self.part_combo.setAccessibleName("Record part")
        self.part_combo.setToolTip("The tap rotated this record by size: choose the part to open")
        self.server_button = QPushButton("Open as server", self)
        self.server_button.setAccessibleName("Open as server")
        self.server_button.setToolTip(
            "Add the record's server command to the servers list and connect to it "
            "(without the host's environment: its secrets stay in the host's config)"
        )
        self.server_button.clicked.connect(self.open_selected_as_server)
        self.mock_button = QPushButton("Open as mock server", self)
        self.mock_button.setAccessibleName("Open as mock server")
        self.mock_button.setToolTip(
            "Add the record to the servers list as a server that answers from it (mcp-lens replay)"
        )
        self.mock_button.clicked.connect(self.open_selected_as_mock)
        buttons = QHBoxLayout()
        buttons.addWidget(self.part_combo)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.server_button)
        buttons.addWidget(self.mock_button)
        buttons.addStretch(1)
        self.close_button = QPushButton("Close", self)
        self.close_button.setToolTip("Close this window (Escape, Ctrl+W)")
        self.close_button.clicked.connect(self.close)
        buttons.addWidget(self.close_button)
        for keys in (QKeySequence(Qt.Key.Key_Escape), *QKeySequence.keyBindings(QKeySequence.StandardKey.Close)):
            shortcut = QShortcut(keys, self, context=Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.folder_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label)
        layout.addLayout(buttons)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(lambda _path: self.refresh())
        self.watcher.fileChanged.connect(lambda _path: self.refresh())
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.resize(900, 420)
        self.refresh()

    # -- the list ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the folder again; keep the selection (by record) and the rows that did not change."""
        self._watch()
        sessions = self._lister(self.folder)
        if sessions == self.sessions and self._listed:
            return
        self._listed = True
        selected = self.selected_session()
        self.sessions = sessions
        self.table.setRowCount(len(sessions))
        for row, session in enumerate(sessions):
            for column, raw in enumerate(_row(session)):
                text = item_text(raw)  # names from the host's config and the record: one visible line
                item = self.table.item(row, column)
                if item is None:
                    item = QTableWidgetItem(text)
                    self.table.setItem(row, column, item)
                elif item.text() != text:
                    item.setText(text)
                if column in (0, 1):  # the host's words: after our own title line, shown literally
                    item.setToolTip(plain_tooltip(COLUMNS[column], raw))
        if selected is not None:
            self._select(selected.path)
        elif sessions and self.table.currentRow() < 0:
            self.table.selectRow(0)
        count = len(sessions)
        live = sum(1 for session in sessions if session.live)
        self.folder_label.setText(f"{count} tapped session{'s' * (count != 1)} ({live} live) in {self.folder}")
        self.empty_label.setVisible(not sessions)
        self.empty_label.setText(
            "No tapped sessions yet. Run a server through the tap from your host's config:\n"
            "mcp-lens tap --name NAME -- COMMAND ARGS…"
        )
        self._update_buttons()

    def _watch(self) -> None:
        """Watch the folder (new records) and its files (growth); the folder may appear later."""
        wanted = [str(self.folder)] if self.folder.is_dir() else []
        wanted += [str(path) for session in self.sessions for path in session.parts[-1:] if session.live]
        stale = [path for path in self.watcher.files() + self.watcher.directories() if path not in wanted]
        if stale:
            self.watcher.removePaths(stale)
        new = [path for path in wanted if path not in self.watcher.files() + self.watcher.directories()]
        if new:
            self.watcher.addPaths(new)

    def _select(self, path: Path) -> None:
        for row, session in enumerate(self.sessions):
            if session.path == path or path in session.parts:
                self.table.selectRow(row)
                return

    def selected_session(self) -> TapSession | None:
        rows = self.table.selectionModel().selectedRows()
        row = rows[0].row() if rows else -1
        return self.sessions[row] if 0 <= row < len(self.sessions) else None

    def _update_buttons(self) -> None:
        session = self.selected_session()
        parts = session.parts if session is not None else ()
        shown = [self.part_combo.itemData(i) for i in range(self.part_combo.count())]
        if shown != list(parts):
            self.part_combo.clear()
            for number, path in enumerate(parts, start=1):
                self.part_combo.addItem(f"part {number} of {len(parts)}: {path.name}", path)
            self.part_combo.setCurrentIndex(len(parts) - 1)  # the newest: the one that grows
        self.part_combo.setVisible(len(parts) > 1)
        self.open_button.setEnabled(session is not None)
        self.server_button.setEnabled(session is not None and bool(session.command))
        self.mock_button.setEnabled(session is not None)

    # -- actions -------------------------------------------------------------------------------
    def open_selected(self) -> None:
        if (session := self.selected_session()) is not None:
            part = self.part_combo.currentData() if len(session.parts) > 1 else None
            self.openRequested.emit(session, part if part in session.parts else session.path)

    def open_selected_as_server(self) -> None:
        if (session := self.selected_session()) is not None and session.command:
            self.serverRequested.emit(session)

    def open_selected_as_mock(self) -> None:
        if (session := self.selected_session()) is not None:
            self.mockRequested.emit(session)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.timer.stop()
        super().closeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        self.timer.start()
        self.refresh()
        super().showEvent(event)
