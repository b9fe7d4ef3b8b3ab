"""The bottom dock's "Server output" (stderr and process events, live) and "Notifications" panes, fed by the recorder.

Both subscribe to the store, queue what arrives and flush once per event-loop tick, so a server
flooding stderr or notifications costs one widget update per tick, not one per line.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any, overload

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from inspector.content.visible import visible
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.store import TrafficStore
from inspector.ui.widgets.plain_text import safe_tooltip, shown

MAX_OUTPUT_LINES = 50_000
SUMMARY_CHARS = 300


def clock(wall: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(wall)) + f".{int(wall * 1000) % 1000:03d}"


class _Batcher:
    """Collects items and hands them over once per event-loop tick."""

    def __init__(self, flush: Any, owner: QWidget) -> None:
        self.items: list[Any] = []
        self._flush = flush
        self._dead = False  # set when the pane is deleted: never flush into a deleted widget
        owner.destroyed.connect(self._die)
        self._timer = QTimer(owner)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._run)

    def _die(self) -> None:
        self._dead = True

    def add(self, item: Any) -> None:
        if self._dead:
            return
        self.items.append(item)
        if not self._timer.isActive():
            self._timer.start()

    def _run(self) -> None:
        items, self.items = self.items, []
        if items and not self._dead:
            self._flush(items)


class TailFollower(QObject):
    """Keeps a scrolling view on its newest line, until the user scrolls up; back at the end, it follows again.

    It follows the scroll bar's range, not the rows: new rows, a smaller window and a pane shown for the
    first time all move the end, and each brings the view back to it.
    """

    def __init__(self, view: QAbstractScrollArea) -> None:
        super().__init__(view)
        self.following = True
        self._bar = view.verticalScrollBar()
        self._bar.valueChanged.connect(self._on_value)
        self._bar.rangeChanged.connect(self._on_range)

    def _on_value(self, value: int) -> None:
        if isValid(self._bar):  # a signal queued while the view is torn down arrives after its bar is gone
            self.following = value >= self._bar.maximum()

    def _on_range(self, *_: int) -> None:
        if self.following and isValid(self._bar):
            self._bar.setValue(self._bar.maximum())


# Each line of the Server output pane names its source: the server's stderr, or MCP Lens itself.
SOURCE_STDERR, SOURCE_LENS = "stderr", "lens"
OUTPUT_CAPTION = (
    f"{SOURCE_STDERR}: what the server wrote to its stderr · {SOURCE_LENS}: what MCP Lens saw happen "
    "(process start and exit, connection failures)"
)


class ServerOutputPane(QWidget):
    """The server's stderr lines as they arrive, and MCP Lens's own lifecycle lines, each labelled by source."""

    def __init__(self, store: TrafficStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setObjectName("serverOutput")
        self.text.setAccessibleName("Server output")
        self.text.setMaximumBlockCount(MAX_OUTPUT_LINES)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        copy = QPushButton("Copy all")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))
        clear = QPushButton("Clear")
        clear.clicked.connect(self.text.clear)
        bar = QHBoxLayout()
        caption = QLabel(OUTPUT_CAPTION)
        caption.setTextFormat(Qt.TextFormat.PlainText)
        caption.setWordWrap(True)
        bar.addWidget(caption, 1)
        bar.addWidget(copy)
        bar.addWidget(clear)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.text)
        self._batch = _Batcher(self._flush, self)
        self.follower = TailFollower(self.text)
        store.subscribe(self._on_entry)

    def _on_entry(self, entry: Entry) -> None:
        if entry.kind is Kind.STDERR:
            text = visible(entry.raw.decode("utf-8", "replace").rstrip())
            self._batch.add(f"{clock(entry.wall)}  {SOURCE_STDERR:<6}  {text}")
        elif entry.kind is Kind.LIFECYCLE:
            text = visible(entry.raw.decode("utf-8", "replace"), one_line=True)  # one line: a command's words
            self._batch.add(f"{clock(entry.wall)}  {SOURCE_LENS:<6}  {text}")

    def _flush(self, lines: list[str]) -> None:
        self.text.appendPlainText("\n".join(lines))  # plain text: server output is never rich text


def summarize(method: str, params: Any) -> tuple[str, str, str]:
    """(level, logger, summary) for a notification."""
    if not isinstance(params, dict):
        return "", "", ""
    if method == "notifications/message":
        data = params.get("data")
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        return str(params.get("level", "")), str(params.get("logger") or ""), text[:SUMMARY_CHARS]
    if method == "notifications/progress":
        total = params.get("total")
        done = f"{params.get('progress')}" + (f"/{total}" if total is not None else "")
        message = params.get("message")
        return "", "", f"token {params.get('progressToken')!r}: {done}" + (f" — {message}" if message else "")
    shown = {k: v for k, v in params.items() if k != "_meta"}
    return "", "", json.dumps(shown, ensure_ascii=False)[:SUMMARY_CHARS] if shown else ""


class NotificationRows(Sequence[tuple[str, str, str, str, str, int]]):
    """The pane's rows: (time, notification, level, logger, details, seq), formatted when first read.

    A flush only appends entries; parsing and summarising wait until a row is shown (or read), so a
    server flooding notifications costs the event loop next to nothing per line here.
    """

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self._cache: dict[int, tuple[str, str, str, str, str, int]] = {}

    def __len__(self) -> int:
        return len(self.entries)

    @overload
    def __getitem__(self, index: int) -> tuple[str, str, str, str, str, int]: ...
    @overload
    def __getitem__(self, index: slice) -> list[tuple[str, str, str, str, str, int]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.entries)))]
        if index < 0:
            index += len(self.entries)
        row = self._cache.get(index)
        if row is None:
            row = self._cache[index] = notification_row(self.entries[index])
        return row

    def extend(self, entries: list[Entry]) -> None:
        self.entries.extend(entries)

    def clear(self) -> None:
        self.entries.clear()
        self._cache.clear()


def notification_row(entry: Entry) -> tuple[str, str, str, str, str, int]:
    parsed = entry.parsed()
    params = parsed.get("params") if isinstance(parsed, dict) else None
    level, logger, summary = summarize(entry.method or "", params)
    return (clock(entry.wall), entry.method or "", level, logger, summary, entry.seq)


class NotificationsModel(QAbstractTableModel):
    COLUMNS = ("Time", "Notification", "Level", "Logger", "Details")

    def __init__(self, store: TrafficStore) -> None:
        super().__init__()
        self.rows = NotificationRows()
        self._batch = _Batcher(self._flush, self)
        store.subscribe(self._on_entry)

    def _on_entry(self, entry: Entry) -> None:
        if entry.kind is Kind.NOTIFICATION and entry.direction is Direction.IN:
            self._batch.add(entry)

    def _flush(self, entries: list[Entry]) -> None:
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(entries) - 1)
        self.rows.extend(entries)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self.rows.clear()
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:  # server text: one visible line
            return shown(self.rows[index.row()][index.column()], one_line=True)
        if role == Qt.ItemDataRole.ToolTipRole:  # server text: never rich text, cut
            return safe_tooltip(self.rows[index.row()][index.column()])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.COLUMNS[section]
        return None


class NotificationsPane(QWidget):
    """Logging messages (with level), progress, list_changed and every other server notification."""

    def __init__(self, store: TrafficStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = NotificationsModel(store)
        self.table = QTableView()
        self.table.setObjectName("notifications")
        self.table.setAccessibleName("Notifications")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        for column, width in enumerate((100, 230, 70, 110)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.model.clear)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("notifications from the server"))
        bar.addStretch(1)
        bar.addWidget(clear)
        self.bar = bar  # the log-level control (ui/log_level.py) goes here
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.table)
        self.follower = TailFollower(self.table)
