"""`TrafficModel`: a thin Qt table adapter over the recorder's `TrafficStore`.

The store calls us synchronously on every append, possibly thousands of times per event-loop
tick. We only note that something arrived; a coalescing zero-delay timer then inserts every new
row with one `beginInsertRows` per tick. Which entries are rows is the pure `VisibleRows` index
(`inspector.traffic.visible`): a filter change rebuilds it, never the entries. Cell text is formatted
on first display and cached.
"""

from __future__ import annotations

import json
import time
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont

from inspector.apps.bridge import TRANSPORT as APP_TRANSPORT
from inspector.content import human_size
from inspector.content.visible import visible as visible_text
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.labels import kind_label, kind_words, status_label
from inspector.traffic.rounds import round_words
from inspector.traffic.store import TrafficStore
from inspector.traffic.visible import VisibleRows
from inspector.ui.gc_policy import LongLivedFreezer
from inspector.ui.widgets.plain_text import plain_tooltip

COLUMNS = ("#", "Time", "Server", "Δ ms", "", "Kind", "Method", "ID", "Size", "Latency", "Status")
(COL_SEQ, COL_TIME, COL_SERVER, COL_DELTA, COL_DIR, COL_KIND, COL_METHOD, COL_ID, COL_SIZE, COL_LATENCY, COL_STATUS) = (
    range(11)
)
ARROWS = {Direction.OUT: "→", Direction.IN: "←", Direction.META: "•"}
BRIDGE_TRANSPORTS = frozenset({APP_TRANSPORT})  # an MCP App's bridge: the app is the client, MCP Lens the host
BRIDGE_ARROWS = {Direction.OUT: "from the app to MCP Lens", Direction.IN: "from MCP Lens to the app"}
_RIGHT = {COL_SEQ, COL_DELTA, COL_ID, COL_SIZE, COL_LATENCY}
_PREVIEWED = frozenset({Kind.STDERR, Kind.LIFECYCLE, Kind.HTTP_META, Kind.UNPARSABLE})
_MAX_CELL = 300  # characters of a server-controlled string shown in one cell

# Translucent tints read on light and dark palettes alike.
FLAG_BRUSH = QColor(230, 60, 60, 60)
PEER_BRUSH = QColor(255, 190, 0, 110)
MARK_BRUSH = QColor(60, 140, 230, 45)  # healthy but notable: an open listen stream
ROUND_BRUSH = QColor(120, 90, 220, 60)  # the other rounds of the selected entry's multi round-trip call
DIR_COLORS = {
    Direction.OUT: QColor(60, 130, 230),
    Direction.IN: QColor(40, 170, 90),
    Direction.META: QColor(150, 150, 150),
}

Index = QModelIndex | QPersistentModelIndex
_ROLE = Qt.ItemDataRole
_DISPLAY, _TOOLTIP, _FONT = int(_ROLE.DisplayRole.value), int(_ROLE.ToolTipRole.value), int(_ROLE.FontRole.value)
_ALIGN, _BACKGROUND = int(_ROLE.TextAlignmentRole.value), int(_ROLE.BackgroundRole.value)
_FOREGROUND = int(_ROLE.ForegroundRole.value)
_ROLES = frozenset({_DISPLAY, _TOOLTIP, _FONT, _ALIGN, _BACKGROUND, _FOREGROUND})
_ALIGN_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
CACHE_ROWS = 20_000  # formatted rows kept
FLUSH_INTERVAL_MS = 100  # under a flood: at most 10 flushes (and repaints) per second


def _cell(text: str) -> str:
    """A server-controlled string for one table cell: plain text, one line, bounded length."""
    if len(text) > _MAX_CELL:
        text = text[:_MAX_CELL] + "…"
    if "\n" in text or "\r" in text:
        text = text.replace("\r\n", "↵").replace("\n", "↵").replace("\r", "↵")
    return visible_text(text)  # escapes, bidi and invisible characters shown, never obeyed


def _preview(entry: Entry) -> str:
    """The start of a non-JSON-RPC line (stderr, lifecycle, HTTP status, garbage), for the Method column."""
    if entry.kind not in _PREVIEWED:
        return ""
    return _cell(entry.raw[: _MAX_CELL * 4].decode("utf-8", errors="replace").strip())


def _method_cell(entry: Entry) -> str:
    """The method, and for a round of a multi round-trip call which round of which call it is."""
    if entry.method is None:
        return _preview(entry)
    if entry.round_title:
        return _cell(f"{entry.method}  ·  {entry.round_title}")
    return _cell(entry.method)


def _kind_cell(entry: Entry) -> str:
    """The kind; an MCP App's bridge message says so ("app request"), beside the server's own, and so does
    MCP Lens's own probe ("era probe error"). One of `KIND_LABELS`: the column is sized to them."""
    return kind_label(entry, entry.transport in BRIDGE_TRANSPORTS)


def _clock(wall: float) -> str:
    whole = int(wall)
    return time.strftime("%H:%M:%S", time.localtime(whole)) + f".{int((wall - whole) * 1000):03d}"


class TrafficModel(QAbstractTableModel):
    """Rows are the store's entries that pass `traffic_filter`, in arrival order.

    `countsChanged(shown, total)` fires after every batch, filter change and clear.
    """

    countsChanged = Signal(int, int)
    rowsFlushed = Signal()  # a batch of rows was inserted (the view follows the tail on it)
    entryChanged = Signal(int)  # seq of an entry annotated after it was shown (a failure found later)

    def __init__(self, store: TrafficStore, parent: Any = None) -> None:
        super().__init__(parent)
        self.store = store
        self.rows = VisibleRows(store)  # which store entries are rows
        self._freezer = LongLivedFreezer()
        self._cache: dict[int, tuple[str, ...]] = {}  # store index → column texts
        self._selected_seq: int | None = None
        self._selected_group: int | None = None  # the selected entry's multi round-trip call, if any
        self._bold = QFont()
        self._bold.setBold(True)
        self._italic = QFont()
        self._italic.setItalic(True)
        self._last_flush = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.flush)
        store.subscribe(self._on_append, self._on_clear, self._on_change)

    @property
    def visible(self) -> list[int]:
        """Store indexes of the rows, ascending."""
        return self.rows.indexes

    def detach(self) -> None:
        """Stop listening to the store (the store's clear listeners cannot be removed; they are harmless)."""
        self.store.unsubscribe(self._on_append, self._on_change)
        self._timer.stop()

    # -- store listeners (hot path: keep tiny) ---------------------------------------------------
    def _on_append(self, entry: Entry) -> None:
        if not self._timer.isActive():
            # The first entry after a quiet spell shows on the next tick; under a flood, rows
            # (and the repaint they cause) come at most every FLUSH_INTERVAL_MS.
            since = (time.monotonic() - self._last_flush) * 1000.0
            self._timer.start(max(0, int(FLUSH_INTERVAL_MS - since)))

    def _on_clear(self) -> None:
        self._timer.stop()
        self.beginResetModel()
        self.rows.clear()
        self._cache.clear()
        self.endResetModel()
        self.countsChanged.emit(0, 0)

    def _on_change(self, entry: Entry) -> None:
        """An entry already shown got a note (no response, a finding): repaint it, or show it if it now matches."""
        rows = self.rows
        index = rows.index_of_seq(entry.seq)
        if index is None:
            return  # not flushed yet: the next flush shows it as it is now
        self._cache.pop(index, None)
        row = rows.row_of_index(index)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        elif (row := rows.place_for(index)) is not None:  # e.g. "Errors only", and the entry is now flagged
            self.beginInsertRows(QModelIndex(), row, row)
            rows.insert(row, index)
            self.endInsertRows()
            self.countsChanged.emit(len(rows), rows.committed)
        self.entryChanged.emit(entry.seq)

    # -- batching --------------------------------------------------------------------------------
    def flush(self) -> None:
        """Insert every entry recorded since the last flush (normally run by the timer)."""
        self._timer.stop()
        self._last_flush = time.monotonic()
        rows = self.rows
        start, new = rows.take_new()
        end = rows.committed
        if start >= end:
            return
        self._freezer.added(end - start)
        self._refresh_peers(start, end)
        if new:
            first = len(rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new) - 1)
            rows.extend(new)
            self.endInsertRows()
            self.rowsFlushed.emit()
        self.countsChanged.emit(len(rows), end)

    def _refresh_peers(self, start: int, end: int) -> None:
        """New responses (and cancellations) changed their earlier request's status: repaint those rows."""
        rows: list[int] = []
        for index in self.rows.peers_of(start, end):
            self._cache.pop(index, None)
            if (row := self.rows.row_of_index(index)) is not None:
                rows.append(row)
        if rows:
            last = self.columnCount() - 1
            self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), last))

    # -- filtering -------------------------------------------------------------------------------
    @property
    def traffic_filter(self) -> TrafficFilter:
        return self.rows.filter

    def set_filter(self, flt: TrafficFilter) -> None:
        """Rebuild the row index for `flt` (the entries and the text cache stay)."""
        if flt == self.rows.filter:
            return
        self._timer.stop()
        self.beginResetModel()
        self.rows.set_filter(flt)
        self.endResetModel()
        self.countsChanged.emit(len(self.rows), self.rows.committed)

    # -- lookups ---------------------------------------------------------------------------------
    def total(self) -> int:
        return self.rows.committed

    def entry_at(self, row: int) -> Entry | None:
        return self.rows.entry_at(row)

    def row_of_seq(self, seq: int) -> int | None:
        """The row showing entry `seq`, or None if it is filtered out, not flushed yet, or unknown."""
        return self.rows.row_of_seq(seq)

    # -- pairing highlight -----------------------------------------------------------------------
    def set_selected_seq(self, seq: int | None) -> None:
        """Tint the rows paired with entry `seq` (its response, or its request, or a cancellation), and
        lightly the other rounds of its multi round-trip call."""
        if seq == self._selected_seq:
            return
        self._selected_seq = seq
        selected = self.store.by_seq(seq) if seq is not None else None
        self._selected_group = selected.group if selected is not None else None
        if count := len(self.rows):  # a range repaints only what the view shows
            self.dataChanged.emit(self.index(0, 0), self.index(count - 1, self.columnCount() - 1))

    def is_peer_row(self, row: int) -> bool:
        entry = self.entry_at(row)
        return entry is not None and self._selected_seq is not None and entry.peer_seq == self._selected_seq

    # -- Qt model interface ----------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole and section == COL_DIR:
            return "direction: → to the server, ← from the server, • inspector event"
        return None

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        # Hot: a repaint asks ~7 roles of every visible cell. Roles arrive as ints; unhandled ones
        # (decoration, check state, size hint, …) return at the first test.
        if role not in _ROLES:
            return None
        row = index.row()
        visible = self.rows.indexes
        if row < 0 or row >= len(visible):
            return None
        store_index = visible[row]
        column = index.column()
        if role == _DISPLAY:
            if column == COL_STATUS:  # notes may be added after the row was shown: never cached
                return status_label(self.store[store_index])  # one of STATUS_LABELS
            texts = self._cache.get(store_index)
            if texts is None:
                if len(self._cache) >= CACHE_ROWS:
                    self._cache.clear()  # scrolled through a huge log: start over rather than grow
                texts = self._cache[store_index] = self._format(store_index)
            return texts[column]
        if role == _ALIGN:
            return _ALIGN_RIGHT if column in _RIGHT else None
        entry = self.store[store_index]
        if role == _BACKGROUND:
            if self._selected_seq is not None and entry.peer_seq == self._selected_seq:
                return PEER_BRUSH
            if (
                self._selected_group is not None
                and entry.group == self._selected_group
                and entry.seq != self._selected_seq
            ):
                return ROUND_BRUSH
            if entry.flagged:
                return FLAG_BRUSH
            return MARK_BRUSH if entry.marked else None
        if role == _FOREGROUND:
            return DIR_COLORS[entry.direction] if column == COL_DIR else None
        if role == _FONT:
            if column == COL_DIR:
                return self._bold
            if column == COL_METHOD and entry.kind in _PREVIEWED:
                return self._italic  # a preview of the text, not a method name
            return None
        return self._tooltip(entry, column)  # _TOOLTIP

    def _format(self, store_index: int) -> tuple[str, ...]:
        entry = self.store[store_index]
        previous = self.store[store_index - 1] if store_index > 0 else None
        delta = f"{(entry.mono - previous.mono) * 1000:.1f}" if previous is not None else ""
        rpc_id = entry.rpc_id
        id_text = "" if rpc_id is None else (json.dumps(rpc_id) if isinstance(rpc_id, str) else str(rpc_id))
        latency = f"{entry.latency_ms:.1f} ms" if entry.latency_ms is not None else ""
        return (
            str(entry.seq),
            _clock(entry.wall),
            _cell(entry.source or ""),
            delta,
            ARROWS[entry.direction],
            _kind_cell(entry),
            _method_cell(entry),
            _cell(id_text),
            human_size(entry.size, short=True),
            latency,
        )

    def _tooltip(self, entry: Entry, column: int) -> str | None:
        if column == COL_STATUS:
            lines = ([f"parse error: {entry.parse_error}"] if entry.parse_error else []) + list(entry.notes)
            return plain_tooltip("Notes", "\n".join(lines)[:2000]) if lines else None
        if column == COL_KIND:
            words = kind_words(entry, entry.transport in BRIDGE_TRANSPORTS)
            return plain_tooltip("Kind", words) if words else None
        if column == COL_METHOD and entry.group is not None:
            return plain_tooltip("Round", "\n".join(round_words(entry))[:2000])
        if column == COL_METHOD and entry.method and len(entry.method) > 40:
            return plain_tooltip("Method", entry.method[:2000])
        if column == COL_DIR and entry.transport in BRIDGE_TRANSPORTS:
            return BRIDGE_ARROWS.get(entry.direction)
        if column == COL_LATENCY and entry.peer_seq is not None:
            return f"paired with #{entry.peer_seq}"
        return None
