"""Run against…: a record's client side sent to another server (a server of the workspace, or a command
or URL typed here), each answer judged against the recorded one (`inspector/replay/against`): the
requests with their verdicts, the recorded and the new answer side by side with the changed paths
marked, and Save as collection. The run is an asyncio task on the app's loop (progress, Cancel).

Everything a record or a server holds is shown as plain text."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.core.era import CLIENT_CAPABILITIES_META_KEY
from inspector.replay.against import Run, TargetFailed, run_against_async
from inspector.replay.compare import Verdict
from inspector.replay.record import LEGACY, MODERN, Replay, ReplayError, open_record
from inspector.replay.report import asked, summary
from inspector.ui.replay.rows_model import RowsModel
from inspector.ui.replay.side_by_side import SideBySide
from inspector.ui.replay.to_collection import save_run
from inspector.ui.widgets.async_tasks import TaskSet, error_text
from inspector.ui.widgets.plain_text import item_text, set_plain, window_title
from inspector.ui.widgets.row_table import one_row_at_a_time
from inspector.ui.widgets.screen_fit import fit_screen
from inspector.words import counted

COLUMNS = ("#", "Request", "Verdict", "Recorded ms", "New ms")
TYPED = "A command or URL…"
VERDICT_TEXT = {"identical": "identical", "equal": "equal after volatile rules", "different": "different"}
POLL_MS = 100  # how often the table takes the verdicts judged since


def _ms(value: float | None) -> str:
    return f"{value:,.1f}" if value is not None else "—"  # as the CLI says it (0.3 ms is not 0)


def stretch_request_column(table: QTableView) -> None:
    """The request takes the room; the number, verdict and times fit their text."""
    header = table.horizontalHeader()
    header.setResizeContentsPrecision(50)  # sized from the rows in view and 50 more, not the first 1,000
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform rows: none measured
    for column in range(table.model().columnCount()):
        mode = QHeaderView.ResizeMode.Stretch if column == 1 else QHeaderView.ResizeMode.ResizeToContents
        header.setSectionResizeMode(column, mode)


def fit_content_columns(table: QTableView) -> None:
    """Size the number, verdict and time columns to the rows now there (sized to contents once, when the
    table was empty, they kept the header's width: "equal after volatile rules" read "equal…")."""
    for column in range(table.model().columnCount()):
        if table.horizontalHeader().sectionResizeMode(column) == QHeaderView.ResizeMode.ResizeToContents:
            table.resizeColumnToContents(column)


def client_capabilities(verdicts: list[Verdict]) -> list[str]:
    """The client capabilities the record's handshake declared (initialize's, or server/discover's `_meta`),
    but the extensions, which `mcp-lens run` declares too."""
    for verdict in verdicts:
        params = verdict.params if isinstance(verdict.params, dict) else {}
        if verdict.method == "initialize":
            declared = params.get("capabilities")
        elif verdict.method == "server/discover":
            meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
            declared = meta.get(CLIENT_CAPABILITIES_META_KEY)
        else:
            continue
        names = [str(name) for name in declared] if isinstance(declared, dict) else []
        return [name for name in names if name != "extensions"]  # mcp-lens run declares the same extensions
    return []


def verdict_cells(verdict: Verdict) -> tuple[str, ...]:
    """A verdict's row: number, request, verdict (and why there was no answer), both latencies."""
    said = VERDICT_TEXT.get(verdict.verdict, verdict.verdict) + (f" ({verdict.note})" if verdict.note else "")
    return (str(verdict.number), asked(verdict), said, _ms(verdict.recorded_latency_ms), _ms(verdict.latency_ms))


def typed_target(text: str) -> list[str] | str | None:
    """What the user typed: an http(s) URL, else a command line split the POSIX way (never run by a shell)."""
    text = text.strip()
    if not text:
        return None
    if text.startswith(("http://", "https://")):
        return text
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    return words or None


class RunAgainstWindow(QWidget):
    """One record's regression run. `servers()` gives the workspace's servers (name → profile) offered as
    targets; a typed command or URL is the other choice."""

    def __init__(
        self,
        record: str | Path,
        server: str | None,
        servers: Callable[[], dict[str, Any]],
        parent: QWidget | None = None,
        signed_in: Callable[[Any], str | None] | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.record = Path(record)
        self.server = server
        self._servers = servers
        self._signed_in = signed_in  # a workspace server's stored sign-in (its access token), as a connect sends it
        self.tasks = TaskSet(self)
        self.destroyed.connect(self.tasks.cancel_all)  # the app quit mid-run: the new server is stopped too
        self.run: Run | None = None
        self.replay: Replay | None = None
        self.total = 0
        self.era: str | None = None  # the record's era (`record.LEGACY`, `record.MODERN`), once it is open
        self.setWindowTitle(window_title(f"Run against — {self.record.name} — MCP Lens"))
        self.target_combo = QComboBox(self)
        self.target_combo.setAccessibleName("Run against")
        self.target_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.target_combo.currentIndexChanged.connect(self._target_changed)
        self.target_edit = QLineEdit(self)
        self.target_edit.setAccessibleName("Command or URL")
        self.target_edit.setPlaceholderText("a command (split like a shell line, never run by one) or http(s)://…")
        self.run_button = QPushButton("Run", self)
        self.run_button.setAccessibleName("Run the record")
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setAccessibleName("Cancel the run")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setAccessibleName("Run progress")
        self.progress.setFormat("%v of %m requests")
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Run summary")
        self.model = RowsModel(COLUMNS, verdict_cells)
        self.table = QTableView(self)
        self.table.setAccessibleName("Requests and verdicts")
        self.table.setModel(self.model)
        one_row_at_a_time(self.table)
        stretch_request_column(self.table)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self.sides = SideBySide("Recorded", "New", self)
        self.save_button = QPushButton("Save as collection…", self)
        self.save_button.setToolTip("Each request of this run as a collection step expecting the recorded answer")
        self.save_button.clicked.connect(self.ask_save)
        self.save_button.setEnabled(False)
        close = QPushButton("Close", self)
        close.clicked.connect(self.close)
        for keys in (QKeySequence(Qt.Key.Key_Escape), *QKeySequence.keyBindings(QKeySequence.StandardKey.Close)):
            QShortcut(keys, self, context=Qt.ShortcutContext.WindowShortcut).activated.connect(self.close)
        top = QHBoxLayout()
        top.addWidget(QLabel("Against:", self))
        top.addWidget(self.target_combo)
        top.addWidget(self.target_edit, 1)
        top.addWidget(self.run_button)
        top.addWidget(self.cancel_button)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.sides)
        split.setSizes([200, 360])
        bottom = QHBoxLayout()
        bottom.addWidget(self.save_button)
        bottom.addStretch(1)
        bottom.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self._take)
        self.fill_targets()
        self.resize(1000, 680)
        fit_screen(self)

    # -- the target ----------------------------------------------------------------------------
    def fill_targets(self) -> None:
        """The workspace's servers, then the typed command or URL."""
        self.target_combo.clear()
        for name, profile in self._servers().items():
            self.target_combo.addItem(item_text(name), profile)
        self.target_combo.addItem(TYPED, None)
        self._target_changed()

    def _target_changed(self) -> None:
        self.target_edit.setEnabled(self.target_combo.currentData() is None)

    def target(self) -> list[str] | str | Any | None:
        profile = self.target_combo.currentData()
        if profile is None:
            return typed_target(self.target_edit.text())
        if getattr(profile, "transport", "stdio") in ("stdio", "http"):
            return profile  # its env and working folder, or its headers and secrets, too
        return None

    # -- the run -------------------------------------------------------------------------------
    def start(self) -> None:
        target = self.target()
        if target is None:
            set_plain(
                self.summary, "Choose a stdio or Streamable HTTP server, or type a command or an http or https URL."
            )
            return
        self.sides.clear()
        self.run = Run()
        self.model.reset(self.run.verdicts)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.save_button.setEnabled(False)
        self.progress.setRange(0, 0)
        set_plain(self.summary, f"Opening {self.record.name}…")
        self.tasks.start(self._run(target, self.run), self._ended)
        self.timer.start()

    async def _run(self, target: Any, run: Run) -> Run:
        replay = await asyncio.to_thread(open_record, self.record, self.server)
        self.replay = replay
        self.total = len(replay)
        self.era = replay.era
        token = None
        if self._signed_in is not None and getattr(target, "transport", None) == "http":
            token = self._signed_in(target)
        try:
            return await run_against_async(replay, target, run=run, bearer_token=token)
        finally:
            self.replay = None
            replay.close()

    def cancel(self) -> None:
        """Stop the run; what was judged stays listed."""
        self.tasks.cancel_all()
        self._take()
        self._idle(f"Cancelled after {len(self.run.verdicts) if self.run else 0} of {self.total} requests.")

    def _ended(self, outcome: Any) -> None:
        self._take()
        self.select_first_difference()  # what the user came for: the first answer that changed
        if isinstance(outcome, BaseException):
            reasons = (ReplayError, TargetFailed, OSError, ValueError)
            text = str(outcome) if isinstance(outcome, reasons) else error_text(outcome)
            self._idle(f"The run stopped: {text}")
            return
        self._idle(summary(outcome))  # it says where and why a run stopped

    def _idle(self, text: str) -> None:
        self.timer.stop()
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.save_button.setEnabled(bool(self.run and self.run.verdicts))
        self.progress.setRange(0, max(self.total, 1))
        self.progress.setValue(self.model.shown)
        set_plain(self.summary, text)

    def _take(self) -> None:
        """Add the rows judged since the last look, and move the progress bar."""
        if self.run is None:
            return
        verdicts = self.run.verdicts
        if self.total:
            self.progress.setRange(0, self.total)
            self.progress.setValue(len(verdicts))
            set_plain(self.summary, f"Sent {len(verdicts)} of {self.total} requests…")
        if self.model.take():
            fit_content_columns(self.table)

    def select_first_difference(self) -> None:
        verdicts = self.run.verdicts if self.run else []
        row = next((n for n, v in enumerate(verdicts) if not v.passed), None)
        if row is not None or verdicts:
            self.table.setCurrentIndex(self.model.index(row if row is not None else 0, 0))

    def _show_selected(self) -> None:
        row = self.table.currentIndex().row()
        verdicts = self.run.verdicts if self.run else []
        if 0 <= row < len(verdicts):
            verdict = verdicts[row]
            self.sides.show(verdict.recorded, verdict.new, verdict.changes)

    # -- save ----------------------------------------------------------------------------------
    def ask_save(self) -> QFileDialog:
        dialog = QFileDialog(self, "Save as collection", str(self.record.with_suffix(".collection.json")))
        dialog.setObjectName("saveRunCollectionDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setNameFilters(["Collections (*.json)", "All files (*)"])
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda name: self.save_collection(Path(name)))
        dialog.open()
        return dialog

    def save_collection(self, path: Path) -> int:
        verdicts = self.run.verdicts if self.run else []
        try:
            count = save_run(path, f"Replay of {self.record.stem}", verdicts)
        except OSError as exc:
            set_plain(self.summary, f"Could not write {path}: {exc.strerror or exc}")
            return 0
        era = {LEGACY: " --protocol-era legacy", MODERN: " --protocol-era modern"}.get(self.era or "", "")
        saved = counted(count, "step")
        said = f"Saved {saved} to {path}: mcp-lens run {path.name}{era} -- COMMAND runs them."
        if declared := client_capabilities(verdicts):
            said += (
                f" The record's client declared {', '.join(declared)}; mcp-lens run declares none, so a server"
                " that lists tools by what its client declares may answer tools/list differently."
            )
        set_plain(self.summary, said)
        return count

    def closeEvent(self, event: QCloseEvent) -> None:
        self.tasks.cancel_all()
        self.timer.stop()
        super().closeEvent(event)
