"""File › Compare sessions…: two records lined up by request (`inspector/replay/diff.diff_records`): what
was asked, what each answered, where they differ, the latency of each side by side, and below the tool
lists' and capabilities' differences. Records are opened on a thread; everything shown is plain text."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.content.visible import visible
from inspector.replay.diff import Pair, RecordDiff, diff_records, to_text
from inspector.replay.record import ReplayError, open_record
from inspector.traffic import jsonl
from inspector.ui.replay.rows_model import RowsModel
from inspector.ui.replay.run_window import stretch_request_column
from inspector.ui.replay.side_by_side import SideBySide
from inspector.ui.widgets.async_tasks import TaskSet, error_text
from inspector.ui.widgets.plain_text import item_text, set_plain
from inspector.ui.widgets.row_table import one_row_at_a_time
from inspector.ui.widgets.screen_fit import fit_screen
from inspector.ui.widgets.session_files import FILTERS

COLUMNS = ("#", "Request", "Verdict", "A ms", "B ms")
_WINDOW = "compareSessionsWindow"


def _ms(value: float | None) -> str:
    return f"{value:.0f}" if value is not None else "—"


def asked(pair: Pair) -> str:
    """The request in one line: its method and params."""
    if pair.params in (None, {}):
        return pair.method
    return f"{pair.method} {json.dumps(pair.params, ensure_ascii=False, default=str)}"


def pair_cells(pair: Pair) -> tuple[str, ...]:
    """A pair's row: A's request number (or "B only"), the request, the verdict, both latencies."""
    return (str(pair.number or "B only"), asked(pair), pair.verdict, _ms(pair.a_ms), _ms(pair.b_ms))


def compared(a: Path | list[Any], b: Path | list[Any]) -> RecordDiff:
    """Open both records (a record of several servers: its first) and line them up (blocking). A live
    server's log (its entries) is written to a user-only temporary record first, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="mcp-lens-compare-"))  # 0700
    try:
        first = _open(_as_record(a, folder / "a.jsonl"))
        try:
            second = _open(_as_record(b, folder / "b.jsonl"))
            try:
                return diff_records(first, second)
            finally:
                second.close()
        finally:
            first.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _as_record(source: Path | list[Any], path: Path) -> Path:
    if isinstance(source, Path):
        return source
    jsonl.save(path, source)
    return path


def _open(path: Path) -> Any:
    try:
        return open_record(path)
    except ReplayError as exc:
        servers = getattr(exc, "servers", None)
        if servers:
            return open_record(path, servers[0])
        raise


class CompareWindow(QWidget):
    """Choose record A and record B, Compare: the requests side by side, then the lists' differences."""

    def __init__(
        self,
        settings: QSettings | None = None,
        parent: QWidget | None = None,
        logs: Callable[[], dict[str, Any]] = dict,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self._logs = logs  # the workspace's live servers: name → its traffic store
        self.setWindowTitle("Compare sessions — MCP Lens")
        self.settings = settings
        self.tasks = TaskSet(self)
        self.diff: RecordDiff | None = None
        self.edits: dict[str, QLineEdit] = {}
        self.sources: dict[str, QComboBox] = {}
        self.browses: dict[str, QPushButton] = {}
        grid = QGridLayout()
        for row, side in enumerate(("A", "B")):
            edit = QLineEdit(self)
            edit.setAccessibleName(f"Record {side}")
            edit.setPlaceholderText("a traffic record (.jsonl): an export, a --record file, a tapped session")
            browse = QPushButton("Choose…", self)
            browse.setAccessibleName(f"Choose record {side}")
            browse.clicked.connect(lambda _=False, s=side: self.choose(s))
            source = QComboBox(self)
            source.setAccessibleName(f"Source {side}")
            source.setToolTip("A record file, or the traffic log of a server of the workspace")
            source.currentIndexChanged.connect(lambda _=0, e=edit, b=browse, c=source: _file_chosen(c, e, b))
            grid.addWidget(QLabel(f"{side}:", self), row, 0)
            grid.addWidget(source, row, 1)
            grid.addWidget(edit, row, 2)
            grid.addWidget(browse, row, 3)
            self.edits[side] = edit
            self.sources[side] = source
            self.browses[side] = browse
        self.compare_button = QPushButton("Compare", self)
        self.compare_button.setAccessibleName("Compare the records")
        self.compare_button.clicked.connect(self.start)
        grid.addWidget(self.compare_button, 0, 4, 2, 1)
        grid.setColumnStretch(2, 1)
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Comparison summary")
        self.model = RowsModel(COLUMNS, pair_cells)
        self.table = QTableView(self)
        self.table.setAccessibleName("Requests of both records")
        self.table.setModel(self.model)
        one_row_at_a_time(self.table)
        stretch_request_column(self.table)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self.sides = SideBySide("A", "B", self)
        self.lists = QPlainTextEdit(self)
        self.lists.setReadOnly(True)
        self.lists.setAccessibleName("Tool list and capability differences")
        below = QTabWidget(self)
        below.addTab(self.sides, "Answers")
        below.addTab(self.lists, "Tools and capabilities")
        self.below = below
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(below)
        split.setSizes([220, 340])
        close = QPushButton("Close", self)
        close.clicked.connect(self.close)
        for keys in (QKeySequence(Qt.Key.Key_Escape), *QKeySequence.keyBindings(QKeySequence.StandardKey.Close)):
            QShortcut(keys, self, context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)
        self.fill_sources()
        self.resize(1000, 680)
        fit_screen(self)

    def fill_sources(self) -> None:
        """A record file, then each server of the workspace (its traffic log as it is now)."""
        for side, source in self.sources.items():
            chosen = source.currentData()
            source.blockSignals(True)
            source.clear()
            source.addItem("Record file", None)
            for name in self._logs():
                source.addItem(item_text(f"Live: {name}"), name)
            source.setCurrentIndex(max(0, source.findData(chosen)))
            source.blockSignals(False)
            _file_chosen(source, self.edits[side], self.browses[side])

    def _source(self, side: str) -> Path | list[Any] | None:
        name = self.sources[side].currentData()
        if name is not None:
            store = self._logs().get(name)
            return list(store) if store is not None else None
        text = self.edits[side].text().strip()
        return Path(text) if text else None

    def choose(self, side: str) -> QFileDialog:
        dialog = QFileDialog(self, f"Record {side}", str(Path.home()), FILTERS)
        dialog.setObjectName(f"compareRecord{side}Dialog")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.edits[side].setText)
        dialog.open()
        return dialog

    def start(self) -> None:
        a, b = self._source("A"), self._source("B")
        if a is None or b is None:
            set_plain(self.summary, "Choose two records (or two servers' logs) to compare.")
            return
        self.compare_button.setEnabled(False)
        set_plain(self.summary, "Reading both records…")
        self.tasks.start(asyncio.to_thread(compared, a, b), self._done)

    def _done(self, outcome: Any) -> None:
        self.compare_button.setEnabled(True)
        if isinstance(outcome, BaseException):
            text = str(outcome) if isinstance(outcome, (ReplayError, OSError, ValueError)) else error_text(outcome)
            set_plain(self.summary, f"Cannot compare: {text}")
            return
        self.show_diff(outcome)

    def show_diff(self, diff: RecordDiff) -> None:
        self.diff = diff
        differ = sum(1 for pair in diff.pairs if pair.verdict == "different")
        only = sum(1 for pair in diff.pairs if pair.a is None or pair.b is None)
        lists = _lists_lines(diff)
        tools = " The tool lists differ." if diff.tools is not None and not diff.tools.unchanged else ""
        caps = " The capabilities differ." if diff.capabilities else ""
        text = f"{len(diff.pairs)} requests lined up: {differ} answered differently, {only} made by one side only."
        set_plain(self.summary, text + tools + caps)
        self.model.reset(diff.pairs)
        self.lists.setPlainText(visible("\n".join(lists) or "The tool lists and the capabilities are the same."))
        row = next((n for n, pair in enumerate(diff.pairs) if pair.verdict == "different"), 0)
        if diff.pairs:
            self.table.setCurrentIndex(self.model.index(row, 0))

    def _show_selected(self) -> None:
        row = self.table.currentIndex().row()
        if self.diff is not None and 0 <= row < len(self.diff.pairs):
            pair = self.diff.pairs[row]
            self.sides.show(pair.a, pair.b, pair.changes)


def _file_chosen(source: QComboBox, edit: QLineEdit, browse: QPushButton) -> None:
    """A record file is typed or chosen; a live server's log needs neither."""
    is_file = source.currentData() is None
    edit.setEnabled(is_file)
    browse.setEnabled(is_file)


def _lists_lines(diff: RecordDiff) -> list[str]:
    """The text report's lines after its requests and before its last line: tools and capabilities."""
    lines = to_text(diff).split("\n")  # not splitlines: a U+2028 or U+0085 in a server's text is not a line of ours
    skip = 2 + sum(1 + len(pair.changes) for pair in diff.pairs)
    return lines[skip:-1]


def show_compare_window(window: Any) -> CompareWindow:
    """Open (or raise) File › Compare sessions… of `window`."""
    existing = window.findChild(CompareWindow, _WINDOW)
    if existing is not None:
        existing.fill_sources()
        existing.show()
        existing.raise_()
        return existing
    spaces = getattr(window, "spaces", {})
    compare = CompareWindow(getattr(window, "settings", None), window, lambda: {n: s.store for n, s in spaces.items()})
    compare.setObjectName(_WINDOW)
    compare.show()
    return compare
