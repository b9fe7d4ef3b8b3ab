"""The Collections tab: a collection file's steps, run against the workspace's open sessions (Run all,
Run step, Cancel), each step's pass or fail with the reason, its request and response bytes as plain
text, and its assertions edited as JSON (checked by `inspector.checks.collection` before saving)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from inspector.checks.collection import (
    Collection,
    CollectionError,
    checked_expect,
    encoding_note,
    env_references,
    load,
    steps_lost,
    update,
)
from inspector.checks.runner import PASSED, Runner, StepResult
from inspector.content.visible import visible
from inspector.ui.collections.answers_dialog import AnswersDialog
from inspector.ui.collections.live import reference_env, workspace_opener
from inspector.ui.collections.save_dialog import FILTER, plain, recent_files, remember, save_call
from inspector.ui.widgets.json_view import raw_text
from inspector.ui.widgets.plain_text import item_text, shown
from inspector.words import counted

_SHOWN_BYTES = 64 * 1024  # of each damaged stretch: enough to see what went wrong, never a stall
MARKS = {"passed": "✓", "failed": "✗", "unreachable": "⚠"}


def damaged_text(collection: Collection) -> str:
    """Each damaged stretch of the file: its line, what was lost, and its bytes as they are (``\\xNN`` for
    a byte that is not UTF-8, invisible characters shown)."""
    blocks = []
    for lost in collection.lost:
        more = len(lost.raw) - _SHOWN_BYTES
        tail = f"\n… {counted(more, 'more byte')} not shown" if more > 0 else ""
        blocks.append(f"line {lost.line}: {lost.said}\n{visible(raw_text(lost.raw[:_SHOWN_BYTES]))}{tail}")
    return "\n\n".join(blocks)


def wire_text(result: StepResult) -> str:
    """The step's exact messages, one block each, headed by direction and kind."""
    blocks = [f"#{item.seq} {item.direction} {item.kind}\n{item.raw.rstrip()}" for item in result.wire]
    return "\n\n".join(blocks) or "(nothing was sent)"


class CollectionsView(QWidget):
    """One window-level tab: a collection spans servers (each step names its server's profile)."""

    def __init__(self, settings: QSettings, spaces: Mapping[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings, self.spaces = settings, spaces
        self.path: Path | None = None
        self.collection: Collection | None = None
        self.results: dict[str, StepResult] = {}
        self.task: asyncio.Future[Any] | None = None
        self.answers: dict[str, str] = {}  # ${NAME} values typed when asked (`AnswersDialog`), never written

        self.file_label = plain(QLabel("No collection open", self))
        self.file_label.setAccessibleName("Collection file shown")
        bar = QHBoxLayout()
        self.open_button = self._button("Open…", "Open a collection", self.choose_file, bar)
        self.run_all_button = self._button("Run all", "Run all steps", self.run_all, bar)
        self.run_step_button = self._button("Run step", "Run the selected step", self.run_step, bar)
        self.cancel_button = self._button("Cancel", "Cancel the run", self.cancel, bar)
        self.running = plain(QLabel("", self))
        self.running.setAccessibleName("Run status")
        bar.addWidget(self.running, 1)

        self.steps = QListWidget(self)
        self.steps.setAccessibleName("Collection steps")
        self.steps.currentRowChanged.connect(self._show_step)
        self.damaged = QPlainTextEdit(self)  # a damaged file's lost stretches: line, what was lost, raw bytes
        self.damaged.setReadOnly(True)
        self.damaged.setAccessibleName("Damaged parts of the file")
        self.damaged.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.damaged.hide()
        self.step_label = plain(QLabel("", self))
        self.step_label.setAccessibleName("Step outcome")
        self.step_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.assertions = QPlainTextEdit(self)
        self.assertions.setAccessibleName("Step assertions")
        self.assertions.setPlaceholderText('[{"kind": "success"}]')
        assertion_bar = QHBoxLayout()
        self._button("Save assertions", "Save the step's assertions", self.save_assertions, assertion_bar)
        self.assertion_message = plain(QLabel("", self))
        self.assertion_message.setAccessibleName("Assertions message")
        assertion_bar.addWidget(self.assertion_message, 1)
        self.wire = QPlainTextEdit(self)
        self.wire.setReadOnly(True)
        self.wire.setAccessibleName("Step request and response")
        self.wire.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)

        detail = QWidget(self)
        column = QVBoxLayout(detail)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.step_label)
        column.addWidget(plain(QLabel("Assertions (a JSON list):", detail)))
        column.addWidget(self.assertions, 1)
        column.addLayout(assertion_bar)
        column.addWidget(plain(QLabel("Request and response (the exact bytes):", detail)))
        column.addWidget(self.wire, 2)
        listed = QWidget(self)
        left = QVBoxLayout(listed)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.steps, 2)
        left.addWidget(self.damaged, 1)
        split = QSplitter(self)
        split.addWidget(listed)
        split.addWidget(detail)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.file_label)
        layout.addLayout(bar)
        layout.addWidget(split, 1)
        self._update_buttons()

    def _button(self, text: str, name: str, slot: Any, row: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.setAccessibleName(name)
        button.setToolTip(name)
        button.clicked.connect(slot)
        row.addWidget(button)
        return button

    # -- the file -----------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        """Shown: the collection last saved to or opened, re-read (a step may have been added since)."""
        super().showEvent(event)
        recent = recent_files(self.settings)
        if self.task is None and recent and (self.path is None or str(self.path) == recent[0]):
            self.open(Path(recent[0]))

    def choose_file(self) -> None:
        start = str(self.path.parent) if self.path else str(Path.home())
        dialog = QFileDialog(self, "Open collection", start, FILTER)
        dialog.setObjectName("openCollectionDialog")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(lambda name: self.open(Path(name)))
        dialog.open()

    def open(self, path: Path) -> None:
        try:
            collection = load(path)
        except CollectionError as exc:
            self.running.setText(str(exc))
            return
        if path != self.path:
            self.results = {}
        self.path, self.collection = path, collection
        remember(self.settings, path)
        self.file_label.setText(shown(f"{collection.name} — {path}", one_line=True))
        if self.task is None:
            self.running.setText("")
        if collection.damage:  # opened from what was intact: said, steps lost named by line
            self.running.setText(self._damage_said(path, collection))
        elif collection.encoding is not None:  # an editor re-saved it as UTF-16: read as such, said
            self.running.setText(shown(f"{path.name}: {encoding_note(collection)}."))
        self.damaged.setPlainText(damaged_text(collection))
        self.damaged.setVisible(bool(collection.damage))
        row = max(self.steps.currentRow(), 0)
        self._fill()
        if collection.steps:
            self.steps.setCurrentRow(min(row, len(collection.steps) - 1))
        self._update_buttons()

    @staticmethod
    def _damage_said(path: Path, collection: Collection) -> str:
        """The file opened from what was intact: the steps shown and the lost ones named by line."""
        intact = counted(len(collection.steps), "intact step")
        wide = f" {encoding_note(collection)}." if collection.encoding else ""
        return shown(f"{path.name}: {intact} shown.{wide} " + " ".join(f"{d}." for d in collection.damage))

    def _fill(self) -> None:
        row = self.steps.currentRow()
        self.steps.blockSignals(True)
        self.steps.clear()
        for step in self.collection.steps if self.collection else []:
            result = self.results.get(step.id)
            mark = MARKS.get(result.status, "·") if result else "·"
            where = step.server or "the run’s server"
            self.steps.addItem(item_text(f"{mark} {step.name} — {step.method} on {where}"))
        if 0 <= row < self.steps.count():
            self.steps.setCurrentRow(row)
        self.steps.blockSignals(False)
        self._show_step(self.steps.currentRow())

    def _show_step(self, row: int) -> None:
        steps = self.collection.steps if self.collection else []
        if not 0 <= row < len(steps):
            self.step_label.setText("")
            self.assertions.setPlainText("")
            self.wire.setPlainText("")
            return
        step = steps[row]
        result = self.results.get(step.id)
        lines = [f"{step.name} ({step.id}): {step.method} on {step.server or 'the run’s server'}"]
        if result is None:
            lines.append("not run yet")
        else:
            ms = f" in {result.elapsed_ms:.0f} ms" if result.elapsed_ms is not None else ""
            lines.append(f"{result.status}{ms}" + (f": {result.reason}" if result.reason else ""))
            lines += [f"{'✓' if c.passed else '✗'} {c.kind}: {c.reason}" for c in result.checks]
        self.step_label.setText(shown("\n".join(lines)))
        self.assertions.setPlainText(json.dumps(step.expect, indent=2, ensure_ascii=False))
        self.assertion_message.setText("")
        self.wire.setPlainText(visible(wire_text(result)) if result else "")

    def save_assertions(self) -> None:
        """The edited assertions, checked as the file loader checks them, into the file."""
        row = self.steps.currentRow()
        if self.collection is None or self.path is None or not 0 <= row < len(self.collection.steps):
            return
        try:
            expect = json.loads(self.assertions.toPlainText() or "[]")
        except ValueError as exc:
            self.assertion_message.setText(f"Not JSON: {exc}")
            return
        step_id = self.collection.steps[row].id
        try:
            expect = checked_expect(self.collection.steps[row], expect, self.path.name)
            merged, found = update(self.path, lambda on_disk: _set_expect(on_disk, step_id, expect))
        except CollectionError as exc:
            self.assertion_message.setText(str(exc))
            return
        except OSError as exc:
            self.assertion_message.setText(f"Cannot write {self.path}: {exc.strerror or exc}")
            return
        self.collection = merged  # as the file holds it now: steps saved meanwhile included
        self._fill()
        if found:
            self.assertion_message.setText("Saved.")
        else:
            self.assertion_message.setText(f"Not saved: step {step_id} is no longer in {self.path.name}.")

    def save_request(self, method: str, params: dict[str, Any], server: str | None) -> None:
        """The traffic log's "Save to collection…" for a request sent to `server` (how to reach it recorded,
        so `mcp-lens run` reaches a server that is no saved profile)."""
        from inspector.checks.collection import reach_of
        from inspector.checks.secret_references import secret_references

        space = self.spaces.get(server) if server else None
        profile = getattr(getattr(space, "session", None), "profile", None)
        reach, secrets = (reach_of(profile), secret_references(profile)) if profile is not None else (None, None)
        save_call(self, self.settings, method, params, server, reach=reach, secrets=secrets)

    # -- running ------------------------------------------------------------------------------
    def run_all(self) -> None:
        if self.collection is not None:
            self._start(self.collection)

    def run_step(self) -> None:
        row = self.steps.currentRow()
        if self.collection is not None and 0 <= row < len(self.collection.steps):
            self._start(Collection(self.collection.name, [self.collection.steps[row]]))

    def _start(self, collection: Collection) -> None:
        if self.task is not None or not collection.steps:
            return
        env = {**reference_env(self.spaces), **self.answers}
        missing = [name for name in env_references(collection) if name not in env]
        if missing:  # asked for, as `mcp-lens run` names them: never sent as the text ${NAME}
            self._ask(collection, missing)
            return
        self.running.setText(f"Running {counted(len(collection.steps), 'step')}…")
        self.task = asyncio.ensure_future(self._run(collection, env))
        self._update_buttons()

    def _ask(self, collection: Collection, names: list[str]) -> None:
        dialog = AnswersDialog(names, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered() -> None:
            self.answers.update(dialog.values())
            self._start(collection)

        dialog.accepted.connect(answered)
        dialog.open()

    async def _run(self, collection: Collection, env: Mapping[str, str]) -> None:
        try:
            run = await Runner(workspace_opener(self.spaces), env=env).run(collection)
        except asyncio.CancelledError:
            self.running.setText("Cancelled.")
            return
        finally:
            self.task = None
            self._update_buttons()
        for result in run.steps:
            self.results[result.step.id] = result
        passed = sum(1 for r in run.steps if r.status == PASSED)
        said = f"{passed} of {len(run.steps)} passed in {run.elapsed_ms:.0f} ms"
        if self.collection is not None and self.collection.damage and self.path is not None:
            intact = self._damage_said(self.path, self.collection)
            said += f"; the file is damaged, {steps_lost(self.collection)} (of what was intact: {intact})"
        self.running.setText(said)
        self._fill()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _update_buttons(self) -> None:
        idle, has_steps = self.task is None, bool(self.collection and self.collection.steps)
        self.run_all_button.setEnabled(idle and has_steps)
        self.run_step_button.setEnabled(idle and has_steps)
        self.cancel_button.setEnabled(not idle)
        self.open_button.setEnabled(idle)


def _set_expect(collection: Collection, step_id: str, expect: list[dict[str, Any]]) -> bool:
    """Give step `step_id` these assertions; False if the file no longer has it."""
    step = collection.step(step_id)
    if step is not None:
        step.expect = expect
    return step is not None
