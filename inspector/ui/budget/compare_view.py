"""Compare: several servers side by side (the connected one, saved servers, snapshot files)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QProgressBar,
    QPushButton,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.breakdown import SHAPES
from inspector.budget.snapshot import SnapshotError, load_snapshot
from inspector.ui.budget.common import copy_buttons
from inspector.ui.budget.compare_chart import CompareChart
from inspector.ui.budget.compare_model import FAILED, LOADING, READY, CompareModel, CompareSource
from inspector.ui.budget.engine import Counters, describe_error, figure_words, offline_or_fallback
from inspector.ui.budget.fetch import FetchError, fetch_tools
from inspector.ui.budget.host_picker import report_for
from inspector.ui.widgets.layout_parts import named_splitter
from inspector.ui.widgets.plain_text import item_text, plain_label, safe_title
from inspector.words import noun

if TYPE_CHECKING:
    from inspector.ui.budget.pane import BudgetPane


class CompareView(QWidget):
    def __init__(self, pane: BudgetPane) -> None:
        super().__init__()
        self.pane = pane
        self.model = CompareModel(self)
        self.counters = Counters()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.fetch_timeout = 30.0
        self._count_lock: asyncio.Lock | None = None

        self.add_current_button = QPushButton("Add connected server")
        self.add_current_button.clicked.connect(self.add_current)
        self.add_profile_button = QToolButton()
        self.add_profile_button.setText("Add saved server")
        self.add_profile_button.setToolTip(
            "A saved server's tools: from its live session if it is connected, else by connecting briefly"
        )
        self.add_profile_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.profile_menu = QMenu(self)
        self.profile_menu.aboutToShow.connect(self._fill_profile_menu)
        self.add_profile_button.setMenu(self.profile_menu)
        self.add_snapshot_button = QPushButton("Add snapshot…")
        self.add_snapshot_button.clicked.connect(self._choose_snapshot)
        self.remove_button = QPushButton("Remove column")
        self.remove_button.setToolTip("Remove the column of the selected cell")
        self.remove_button.clicked.connect(self.remove_selected)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        self.message = plain_label(
            "Add servers to compare: the connected one, saved servers (connected briefly), or snapshot files.",
            selectable=True,
        )
        self.message.setWordWrap(True)
        self.table = QTableView()
        self.table.setObjectName("budgetCompare")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        header.setDefaultSectionSize(230)
        self.table.setColumnWidth(0, 260)

        csv_button, md_button = copy_buttons(lambda: self.model, self)
        bar = QHBoxLayout()  # two rows of buttons: the pane stays narrow enough for a small window
        for widget in (self.add_current_button, self.add_profile_button, self.add_snapshot_button):
            bar.addWidget(widget)
        bar.addWidget(self.progress)
        bar.addStretch(1)
        edit_bar = QHBoxLayout()
        edit_bar.addWidget(self.remove_button)
        edit_bar.addStretch(1)
        edit_bar.addWidget(csv_button)
        edit_bar.addWidget(md_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(edit_bar)
        layout.addWidget(self.message)
        self.chart = CompareChart()
        self.chart.setObjectName("budgetCompareChart")
        self.split = named_splitter("budgetCompareSplit", self.table, self.chart, sizes=[760, 340], stretch=(3, 1))
        layout.addWidget(self.split, 1)

    # -- sources -----------------------------------------------------------------------------
    def add_current(self) -> CompareSource | None:
        if not self.pane.tools:
            self.message.setText("No connected server with tools: connect first, or add a saved server.")
            return None
        existing = next((s for s in self.model.sources if s.kind == "current"), None)
        source = existing or CompareSource(self.pane.server, "current", "")
        if existing is None:
            self.model.sources.append(source)
        self._set_tools(source, self.pane.tools, "connected")
        return source

    def add_profile(self, profile: Any) -> CompareSource:
        """A saved server's list: from its live session when it has one, else by connecting briefly."""
        live = self.pane.live_tools(profile.name)
        shown = item_text(profile.name)  # a name from a config file: one visible line
        source = CompareSource(shown, "profile", profile.name, detail=f"connecting to {shown}…")
        self.model.sources.append(source)
        if live is not None:
            self._set_tools(source, live, "its live session (no second connection)")
            return source
        self._refresh()
        self._spawn(self._fetch(source, profile))
        return source

    def add_snapshot(self, path: str | Path) -> CompareSource:
        path = Path(path)
        source = CompareSource(path.name, "snapshot", str(path))
        self.model.sources.append(source)
        try:
            snapshot = load_snapshot(path)
        except (SnapshotError, OSError) as exc:
            self._fail(source, describe_error(exc))
        else:
            source.label = item_text(f"{snapshot.server} @ {snapshot.taken_at[:16]}")
            self._set_tools(source, snapshot.tools, f"snapshot {path.name}")
        return source

    def remove_selected(self) -> None:
        index = self.table.currentIndex()
        if index.isValid() and index.column() > 0:
            del self.model.sources[index.column() - 1]
            self._refresh()

    def clear(self) -> None:
        self.model.sources.clear()
        self._refresh()

    # -- hooks from the pane -----------------------------------------------------------------
    def current_changed(self) -> None:
        """The connected server's list changed (list_changed or a new connection)."""
        source = next((s for s in self.model.sources if s.kind == "current"), None)
        if source is not None:
            source.label = item_text(self.pane.server)
            self._set_tools(source, self.pane.tools, "connected")

    def settings_changed(self) -> None:
        """Recount the columns whose tokenizer no longer matches; always refresh shape and window."""
        wanted = offline_or_fallback(self.pane.tokenizer_name())
        for source in self.model.sources:
            if source.state == READY and (source.tokenizer != wanted or source.host != self.pane.host_key()):
                self._set_tools(source, source.tools, source.detail)
        self._refresh()

    # -- work --------------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self._busy()
        task.add_done_callback(lambda _t: self._busy())

    def _busy(self) -> None:
        busy = any(s.state == LOADING for s in self.model.sources) or any(not t.done() for t in self.tasks)
        self.progress.setVisible(busy)

    def busy(self) -> bool:
        return any(s.state == LOADING for s in self.model.sources)

    async def _fetch(self, source: CompareSource, profile: Any) -> None:
        try:
            tools, name = await fetch_tools(profile, self.fetch_timeout)
        except FetchError as exc:
            self._fail(source, f"{exc} — check the server's settings in the Servers list")
            return
        except Exception as exc:  # a broken server must not take the view down
            self._fail(source, describe_error(exc))
            return
        if source in self.model.sources:
            source.label = item_text(profile.name if name == profile.name else f"{profile.name} ({name})")
            self._set_tools(source, tools, "listed, then disconnected")

    def _set_tools(self, source: CompareSource, tools: list[dict[str, Any]], detail: str) -> None:
        source.tools, source.state, source.detail = list(tools), LOADING, "counting…"
        self._refresh()
        self._spawn(self._count(source, detail))

    async def _count(self, source: CompareSource, detail: str) -> None:
        tools = source.tools
        name = offline_or_fallback(self.pane.tokenizer_name())
        host, window = source.host = self.pane.host_key()

        def count() -> dict[str, Any]:
            counter = self.counters.get(name)
            reports = {shape: counter.report(tools, shape) for shape in SHAPES}
            if host:  # the chosen host's view stands in its shape's place
                reports[self.pane.shape()] = report_for(counter, tools, "", host, source.label, window, raw_names=True)
            return reports

        if self._count_lock is None:
            self._count_lock = asyncio.Lock()
        try:
            async with self._count_lock:  # one worker at a time: the counters' caches are not shared safely
                reports = await asyncio.get_running_loop().run_in_executor(None, count)
        except Exception as exc:
            self._fail(source, f"could not count: {describe_error(exc)}")
            return
        if source.tools is tools:  # not replaced meanwhile
            source.reports, source.state, source.detail, source.tokenizer = reports, READY, detail, name
            self._refresh()

    def _fail(self, source: CompareSource, message: str) -> None:
        source.state, source.detail = FAILED, message
        self.message.setText(f"{source.label}: {message}")
        self._refresh()

    def _refresh(self) -> None:
        host = self.pane.host_picker.host()
        self.model.refresh(self.pane.shape(), self.pane.window_tokens(), host.label if host is not None else "")
        self.chart.set_sources(self.model.sources)
        header = self.table.horizontalHeader()
        few = self.model.columnCount() <= 5  # a handful of servers fill the width; more scroll
        for column in range(1, self.model.columnCount()):
            mode = QHeaderView.ResizeMode.Stretch if few else QHeaderView.ResizeMode.Interactive
            header.setSectionResizeMode(column, mode)
        self._busy()
        ready = [s for s in self.model.sources if s.state == READY]
        if ready and not any(s.state == FAILED for s in self.model.sources):
            counted = offline_or_fallback(self.pane.tokenizer_name())
            report = ready[0].reports.get(self.pane.shape()) if isinstance(ready[0].reports, dict) else None
            figure = f" ({figure_words(report)})" if report is not None else ""
            self.message.setText(
                f"{len(ready)} {noun(len(ready), 'source')} counted with {counted}{figure}; "
                "tool rows show tokens in the chosen shape, "
                "“— absent” where a server has no such tool."
            )

    # -- dialogs -----------------------------------------------------------------------------
    def _fill_profile_menu(self) -> None:
        self.profile_menu.clear()
        profiles = list(self.pane.profiles())
        if not profiles:
            self.profile_menu.addAction("No saved servers").setEnabled(False)
        for profile in profiles:
            live = " (connected)" if self.pane.live_tools(profile.name) is not None else ""
            action = self.profile_menu.addAction(safe_title(profile.name) + live)  # visible, "&" no mnemonic
            action.triggered.connect(lambda _=False, p=profile: self.add_profile(p))

    def _choose_snapshot(self) -> None:
        folder = str(self.pane.settings.value("budget/snapshotDir", ""))
        path, _ = QFileDialog.getOpenFileName(self, "Add snapshot", folder, "Snapshots (*.json);;All files (*)")
        if path:
            self.pane.settings.setValue("budget/snapshotDir", str(Path(path).parent))
            self.add_snapshot(path)
