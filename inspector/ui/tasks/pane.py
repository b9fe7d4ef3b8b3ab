"""The Tasks tab: every task of this connection (id, tool, status, message, TTL, poll interval, created),
the selected task's input (answered through the app's own dialogs), Cancel, and its final result in the
result widgets. A thin adapter over the core `TaskRunner`."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Signal
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QHeaderView, QPushButton, QTableView, QVBoxLayout, QWidget

from inspector.core.errors import LensError
from inspector.core.operations import Event
from inspector.core.tasks import LEGACY, MODERN, TaskRunner, TrackedTask, task_form
from inspector.ui.results import ResultView
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.tasks.model import TaskTableModel, status_text
from inspector.ui.widgets.fit_columns import fit_columns
from inspector.ui.widgets.layout_parts import named_splitter
from inspector.ui.widgets.plain_text import plain_label

FORM_WORDS = {LEGACY: "2025-11-25 tasks (experimental core)", MODERN: "2026-07-28 tasks extension"}


class TasksPane(QWidget):
    statusMessage = Signal(str)
    countChanged = Signal(int)  # tasks still running
    taskChanged = Signal(object)  # TrackedTask: started, moved on or finished (the Tools tab's History follows)

    def __init__(self, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.runner = self._new_runner()
        self.jobs: set[asyncio.Task[Any]] = set()
        self._said_done: set[int] = set()  # tasks (by id()) whose end the status bar has told
        self._shown: tuple[int, int, int] | None = None  # which task's result the result view shows
        self.tools: dict[str, Any] = {}  # tool name → its tools/list entry (for outputSchema checks)
        self.model = TaskTableModel()
        self.table = QTableView()
        self.table.setAccessibleName("Task list")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(0, 250)
        fit_columns(self.table)  # every column in sight in a narrow window
        self.form_label = plain_label(wrap=True, selectable=True)  # wraps: the tab fits a narrow window
        self.form_label.setAccessibleName("Task support")
        self.answer_button = QPushButton("Answer input…")
        self.answer_button.setAccessibleName("Answer input")
        self.cancel_button = QPushButton("Cancel task")
        self.cancel_button.setAccessibleName("Cancel task")
        self.list_button = QPushButton("List server tasks")
        self.list_button.setAccessibleName("List server tasks")
        self.list_button.setToolTip("tasks/list (2025-11-25 form)")
        self.detail = plain_label(wrap=True, selectable=True)
        self.detail.setAccessibleName("Task detail")
        self.result = ResultView()
        self._build_layout()
        self.answer_button.clicked.connect(self.answer_selected)
        self.cancel_button.clicked.connect(self.cancel_selected)
        self.list_button.clicked.connect(self.list_server_tasks)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        session.serverEvent.connect(self._on_event)
        session.stateChanged.connect(self._on_state)
        session.connected.connect(self._on_connected)
        session.toolsChanged.connect(self._on_tools)
        self._show_selected()
        self._on_state()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.addWidget(self.form_label, 1)
        for button in (self.answer_button, self.cancel_button, self.list_button):
            bar.addWidget(button)
        top = QWidget()
        column = QVBoxLayout(top)
        column.setContentsMargins(0, 0, 0, 0)
        column.addLayout(bar)
        column.addWidget(self.table, 1)
        lower = QWidget()
        below = QVBoxLayout(lower)
        below.setContentsMargins(0, 0, 0, 0)
        below.addWidget(self.detail)
        below.addWidget(self.result, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(named_splitter("tasksSplitter", top, lower, sizes=[400, 600], vertical=True))

    # -- the connection ------------------------------------------------------------------------
    def _new_runner(self) -> TaskRunner:
        runner = TaskRunner(self.session, form=self.form, handlers=lambda: self.session.handlers)
        runner.listeners.append(self._changed)
        return runner

    def form(self) -> str | None:
        """The task form the connected server speaks (None: no tasks, or not connected)."""
        if self.session.state != CONNECTED:
            return None
        negotiation = self.session.core.negotiation
        return task_form(negotiation.era if negotiation is not None else "legacy", self.session.capabilities)

    def _on_state(self, *_args: object) -> None:
        if self.session.state == CONNECTED:
            form = self.form()
            self.form_label.setText(f"This server runs tools as tasks: {FORM_WORDS[form]}" if form else "")
            if not form:
                self.form_label.setText("This server does not advertise task support.")
        self._update_buttons()

    def _on_connected(self, *_args: object) -> None:
        """A new connection: its tasks are its own (the previous server's are gone with it)."""
        for job in list(self.jobs):
            job.cancel()
        self.runner = self._new_runner()
        self.model.reset()
        self._show_selected()
        self._on_state()

    def _on_tools(self, listing: Any) -> None:
        self.tools = {t["name"]: t for t in getattr(listing, "tools", []) if isinstance(t, dict) and "name" in t}

    def _on_event(self, event: Event) -> None:
        if event.kind == "notification":
            self.runner.on_notification(event.data.get("method", ""), event.data.get("params") or {})

    # -- tasks ---------------------------------------------------------------------------------
    def start(self, name: str, arguments: dict[str, Any]) -> bool:
        """Call ``name`` as a task; False (and why, in the status bar) when this server has no tasks."""
        if self.form() is None:
            self.statusMessage.emit(f"{name}: this server does not advertise task support")
            return False
        self._spawn(self.runner.call(name, arguments, tool=self.tools.get(name)), f"{name} as a task")
        self.statusMessage.emit(f"{name} is running as a task: see the Tasks tab")
        return True

    def _spawn(self, coro: Any, what: str) -> None:
        async def run() -> None:
            try:
                await coro
            except LensError as exc:
                self.statusMessage.emit(f"{what} failed: {exc.message}")
                self._show_selected()

        job = asyncio.ensure_future(run())
        self.jobs.add(job)
        job.add_done_callback(self.jobs.discard)

    def _changed(self, task: TrackedTask) -> None:
        new = task not in self.model.rows
        if task.done and id(task) not in self._said_done:  # the "running as a task" message is stale now
            self._said_done.add(id(task))
            self.statusMessage.emit(f"{task.tool} task {task.status}")
        self.model.touch(task)
        if new:  # the newest task is the one shown
            row = self.model.rows.index(task)
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
        if task is self.selected():
            self._show_selected()
        self.countChanged.emit(sum(1 for t in self.model.rows if not t.done))
        self.taskChanged.emit(task)

    def selected(self) -> TrackedTask | None:
        row = self.table.selectionModel().currentIndex().row()
        return self.model.rows[row] if 0 <= row < len(self.model.rows) else None

    def _show_selected(self) -> None:
        task = self.selected()
        self._update_buttons()
        if task is None:
            self._shown = None
            self.detail.setText("No task yet. Call a tool with “Run as task” in the Tools tab.")
            self.result.clear()
            return
        words = [f"{task.tool or '?'} · {status_text(task)}"]
        if task.status_message:
            words.append(task.status_message)
        if task.input_needed:
            words.append("The task needs input: press “Answer input…”.")
        self.detail.setText("\n".join(words))
        shown = (task.local_id, id(task.result), id(task.error))
        if shown == self._shown:
            return
        self._shown = shown
        if task.result is not None:
            self.result.show_result(task.result, self.tools.get(task.tool or ""))
        elif task.error is not None:
            self.result.show_error(task.error)
        else:
            self.result.clear()

    def _update_buttons(self) -> None:
        task = self.selected() if hasattr(self, "model") else None
        live = self.session.state == CONNECTED
        self.answer_button.setEnabled(live and task is not None and task.input_needed)
        self.cancel_button.setEnabled(live and task is not None and not task.done and not task.task_id.startswith("("))
        self.list_button.setEnabled(live and self.form() == LEGACY)

    def answer_selected(self) -> None:
        task = self.selected()
        if task is not None and task.input_needed:
            self._spawn(self.runner.answer(task), f"answering task {task.task_id}")

    def cancel_selected(self) -> None:
        task = self.selected()
        if task is not None and not task.done:
            self._spawn(self.runner.cancel(task), f"cancelling task {task.task_id}")

    def list_server_tasks(self) -> None:
        self._spawn(self.runner.list(), "tasks/list")
