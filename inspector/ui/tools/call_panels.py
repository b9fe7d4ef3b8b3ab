"""Calls in flight (progress bar, message, Cancel) and the history of calls (re-run, edit, copy)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlsplit

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.config.redact import REDACTED, Redactor
from inspector.core.history import CallRecord
from inspector.traffic.commands import cli_line
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import item_text, plain_label, set_plain


class _CallRow(QWidget):
    def __init__(self, record: CallRecord, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.record = record
        self.name = ElidedLabel(f"#{record.id} {record.tool}")  # a long tool name is elided, never widening the window
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # busy until the first progress notification says more
        self.bar.setTextVisible(True)
        self.message = plain_label("waiting for the server…")
        self.message.setMinimumWidth(160)
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Send notifications/cancelled for this call")
        self.cancel.clicked.connect(record.handle.cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.cancel)

    def refresh(self) -> None:
        progress = self.record.handle.progress
        elapsed = time.time() - self.record.started
        if self.record.waiting or not progress:  # the server waits on the user, or nothing said yet
            self.message.setText(f"{self.record.progress_text} ({elapsed:.1f} s)")
        else:
            last = progress[-1]
            if last.total:
                self.bar.setRange(0, 1000)
                self.bar.setValue(int(1000 * min(max(last.progress / last.total, 0.0), 1.0)))
                self.bar.setFormat(f"{last.progress:g} / {last.total:g}")
            else:
                self.bar.setRange(0, 0)
            self.message.setText(f"{last.message or ''}  ({elapsed:.1f} s)".strip())


class CallsPanel(QWidget):
    """One row per call in flight; several may run at once. At most `VISIBLE_ROWS` rows take room:
    more scroll, so a burst of calls never grows the tab (which would squeeze the traffic dock).

    A call gets its row once it has run `SHOW_AFTER_MS` (or at once when it waits on the user's answer): one
    that ends sooner (most do) never builds a row nor shows and hides the panel, which laid the whole tab out
    twice per call."""

    VISIBLE_ROWS = 2
    SHOW_AFTER_MS = 200

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("callsPanel")
        self.rows: dict[int, _CallRow] = {}
        self.pending: dict[int, CallRecord] = {}  # in flight for less than SHOW_AFTER_MS: their rows are not due yet
        self.scroll = QScrollArea()
        self.scroll.setAccessibleName("Calls in flight")
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        inner = QWidget()
        self._layout = QVBoxLayout(inner)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self.scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self._tick = QTimer(self)
        self._tick.setInterval(250)
        self._tick.timeout.connect(self._refresh_all)
        self.hide()

    def update_call(self, record: CallRecord) -> None:
        row = self.rows.get(record.id)
        if record.done:
            self.pending.pop(record.id, None)
            if row is None:
                return  # ended before its row was due: nothing was shown
            self._layout.removeWidget(row)
            row.deleteLater()
            del self.rows[record.id]
        elif row is None:
            if record.waiting:  # the server waits on the user: its row (and Cancel) at once, beside the question
                self.pending[record.id] = record
                self._show_row(record.id)
            elif record.id not in self.pending:
                self.pending[record.id] = record
                QTimer.singleShot(self.SHOW_AFTER_MS, self, lambda: self._show_row(record.id))
            return
        else:
            row.refresh()
        self._fit()

    def _show_row(self, call_id: int) -> None:
        """The call has run SHOW_AFTER_MS and is still in flight: give it its row."""
        record = self.pending.pop(call_id, None)
        if record is None or record.done:
            return
        row = self.rows[record.id] = _CallRow(record, self)
        self._layout.insertWidget(self._layout.count() - 1, row)
        row.refresh()
        self._fit()

    def _fit(self) -> None:
        """As tall as the rows shown (at most VISIBLE_ROWS); hidden with none; the elapsed times ticking."""
        if self.rows:
            row_height = next(iter(self.rows.values())).sizeHint().height()
            spacing = self._layout.spacing()
            shown = min(len(self.rows), self.VISIBLE_ROWS)
            self.scroll.setFixedHeight(shown * row_height + (shown - 1) * spacing)
        self.setVisible(bool(self.rows))
        if self.rows and not self._tick.isActive():
            self._tick.start()
        elif not self.rows:
            self._tick.stop()

    def _refresh_all(self) -> None:
        for row in self.rows.values():
            row.refresh()


class HistoryView(QWidget):
    """Every call with its arguments, duration and outcome."""

    COLUMNS = ("#", "Time", "Tool", "Duration", "Outcome", "Arguments")
    rerunRequested = Signal(object)  # CallRecord
    rerunWithAnswersRequested = Signal(object)  # CallRecord: the same input answers, no dialogs
    editRequested = Signal(object)  # CallRecord
    recordSelected = Signal(object)  # CallRecord
    saveRequested = Signal(object)  # CallRecord: "Save to collection…"
    copied = Signal(str)  # what "Copy as CLI" copied, for the status bar (a redacted secret said)
    mockRequested = Signal()  # "Open as mock server": every call History kept, served by `mcp-lens replay`

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records: list[CallRecord] = []
        self.cli_target: list[str] | None = None
        self.redactor = Redactor()  # the server's secrets, hidden in what Copy as CLI copies
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setObjectName("callHistory")
        self.table.setAccessibleName("Call history")
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # Columns widen to each call's cells as it is added (`update_call`, measured as ResizeToContents does): that
        # mode measured every row again for each call (up to 1,000 rows × 6 cells); the user may drag them too.
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column in range(len(self.COLUMNS) - 1):
            self.table.setColumnWidth(column, self.table.horizontalHeader().sectionSizeHint(column))
        self.table.itemSelectionChanged.connect(self._on_selection)
        self.table.doubleClicked.connect(lambda _index: self._emit(self.editRequested))
        buttons = QHBoxLayout()
        actions = (
            ("Re-run", "Re-run", lambda: self._emit(self.rerunRequested)),
            # Short labels (the tab fits a narrow window); the accessible names say them in full.
            ("Replay answers", "Re-run with the same answers", lambda: self._emit(self.rerunWithAnswersRequested)),
            ("Edit and re-run", "Edit and re-run", lambda: self._emit(self.editRequested)),
            ("Copy as CLI", "Copy as mcp-lens --cli", self.copy_cli),
            ("Save to collection…", "Save the call to a collection", lambda: self._emit(self.saveRequested)),
        )
        self.call_buttons: list[QPushButton] = []  # enabled while a call is selected (`_on_selection`)
        for text, name, slot in actions[:-1]:  # the last one is in the row's menu only: the row fits
            button = QPushButton(text)
            button.setAccessibleName(name)
            button.setToolTip(name)
            button.setEnabled(False)
            button.clicked.connect(slot)
            buttons.addWidget(button)
            self.call_buttons.append(button)
        buttons.addStretch(1)
        # Right-click a call: every action, Save to collection… included.
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for text, name, slot in actions:
            action = QAction(text, self.table)
            action.setToolTip(name)
            action.triggered.connect(lambda _=False, run=slot: run())
            self.table.addAction(action)
        separator = QAction(self.table)
        separator.setSeparator(True)
        self.table.addAction(separator)
        mock = QAction("Open as mock server", self.table)  # all of History, not the selected call
        mock.setToolTip("Add a server to the workspace that answers History's calls as recorded (mcp-lens replay)")
        mock.triggered.connect(self.mockRequested.emit)
        self.table.addAction(mock)
        # A kept History file that could not be read whole: said here, where the calls are missing, until
        # the app ends (a status bar message is gone by the time the user opens this tab).
        self.damage = plain_label(wrap=True)
        self.damage.setAccessibleName("History file damaged")
        self.damage.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.damage)
        layout.addWidget(self.table)

    def say_damaged(self, text: str) -> None:
        """Say above the calls that the kept History file was damaged (and where it was set aside)."""
        set_plain(self.damage, f"⚠ {text[:1].upper()}{text[1:]}.")
        self.damage.show()

    def update_call(self, record: CallRecord) -> None:
        if record not in self.records:
            self.records.insert(0, record)
            self.table.insertRow(0)
        row = self.records.index(record)
        duration = f"{record.duration_ms:.0f} ms" if record.duration_ms is not None else "…"
        values = (
            str(record.id),
            time.strftime("%H:%M:%S", time.localtime(record.started)),
            record.tool,
            duration,
            record.outcome_text,
            json.dumps(record.arguments, ensure_ascii=False)[:300],
        )
        for column, value in enumerate(values):
            self.table.setItem(row, column, QTableWidgetItem(item_text(value)))
        grid = 1 if self.table.showGrid() else 0
        for column in range(len(values) - 1):  # as ResizeToContents measures a cell, this row's only
            width = self.table.sizeHintForIndex(self.table.model().index(row, column)).width() + grid
            if width > self.table.columnWidth(column):
                self.table.setColumnWidth(column, width)

    def selected(self) -> CallRecord | None:
        rows = self.table.selectionModel().selectedRows()
        return self.records[rows[0].row()] if rows else None

    def _emit(self, signal: Signal) -> None:
        record = self.selected()
        if record is not None:
            signal.emit(record)

    def _on_selection(self) -> None:
        chosen = self.selected() is not None
        for button in self.call_buttons:
            button.setEnabled(chosen)
        self._emit(self.recordSelected)

    def copy_cli(self) -> str | None:
        """Copy as `mcp-lens --cli`: the server as configured (every header; a secret's value redacted,
        and `copied` says so), then the call."""
        record = self.selected()
        if record is None:
            return None
        params = self.redactor.json({"name": record.tool, "arguments": record.arguments})
        text = cli_line(self.cli_target, "tools/call", params)
        if text is not None:
            QGuiApplication.clipboard().setText(text)
            hidden = redacted_parts(self.cli_target or ())
            if REDACTED in json.dumps(params, ensure_ascii=False):
                hidden.append("a value in the call's arguments")
            self.copied.emit(f"Copied an mcp-lens --cli command.{redaction_note(hidden)}")
        return text


def redacted_parts(words: Iterable[str]) -> list[str]:
    """What each redacted word of an `mcp-lens --cli` target is: "the Authorization header", "the URL's
    token", "the GITHUB_TOKEN variable", "the --api-key argument" (in order, each once)."""
    parts: list[str] = []
    previous = ""
    for word in words:
        if REDACTED in word:
            parts += _what_is_redacted(previous, word)
        previous = word
    return list(dict.fromkeys(parts))


def _what_is_redacted(flag: str, word: str) -> list[str]:
    if flag == "--header":
        return [f"the {word.partition(':')[0].strip()} header"]
    if flag == "-e":
        return [f"the {word.partition('=')[0]} variable"]
    if flag == "--server-url":
        try:
            parts = urlsplit(word)
            names = [f"the URL's {name}" for name, value in parse_qsl(parts.query) if REDACTED in value]
            return (["the URL's password"] if REDACTED in parts.netloc else []) + names or ["a part of the URL"]
        except ValueError:
            return ["a part of the URL"]
    if word.startswith("-") and "=" in word:  # --token=<redacted>
        return [f"the {word.partition('=')[0]} argument"]
    if flag.startswith("-") and word == REDACTED:  # --api-key <redacted>
        return [f"the {flag} argument"]
    return ["a command-line argument"]


def redaction_note(parts: list[str]) -> str:
    """' The Authorization header and the URL's token are redacted: put your values back before running it.'
    (empty when nothing is)."""
    if not parts:
        return ""
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    verb = "is" if len(parts) == 1 else "are"
    values = "your value" if len(parts) == 1 else "your values"
    return f" {listed[0].upper()}{listed[1:]} {verb} redacted: put {values} back before running it."
