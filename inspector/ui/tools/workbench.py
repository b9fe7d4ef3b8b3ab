"""The Tools tab: pick a tool, fill its form, call it, watch progress, read the result, re-run from history."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPoint, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QMessageBox,
    QPushButton,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.config.redact import Redactor
from inspector.core.history import CallRecord
from inspector.core.history_file import HistoryDamaged, load_history, save_history
from inspector.core.resources import ReadOutcome, check_read_result
from inspector.core.tasks import task_support
from inspector.ui.apps.app_tab import AppTab
from inspector.ui.form.tool_form import ToolForm
from inspector.ui.results import ResultView
from inspector.ui.results.common import STYLES
from inspector.ui.results.resource_view import ResourceContentsView
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.tools.call_panels import CallsPanel, HistoryView
from inspector.ui.tools.header import ToolHeader
from inspector.ui.tools.questions import ask_about_problems, ask_destructive
from inspector.ui.tools.tool_list import ToolList, ToolRow
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.icon_images import IconSource
from inspector.ui.widgets.layout_parts import bare_column, buddy_label, named_splitter, scrolled
from inspector.ui.widgets.plain_text import plain_label
from inspector.ui.widgets.run_keys import RunKeyFilter
from inspector.ui.widgets.splitter_memory import remember

FORM_SHARE = 0.68  # the most of the height beside the tool list that the form side takes (until the user drags)
MIN_FORM_SHARE = 0.4  # ... and the least, however short the form
RESULT_LEAST_LINES = 3  # on a short window the result side may shrink to its tabs and this many lines, so that
# the form's first field shows whole (at 1024×700 its 130 px minimum left the form a sliver of its box)
RESULT_LINES = 6  # after a call the result side keeps room for this many lines (one showed at 1280×860), and
HISTORY_ROWS = 4  # History this many rows (one showed at 1024×700): the form side scrolls if it must
APP_FORM_SHARE = 0.2  # while an MCP App shows below, the form side (it scrolls) keeps a fifth (until the user drags)
TOOL_LIST_SHARE = 0.4  # the tool list widens to show whole names, up to this share of the tab's width
FORMS_KEPT = 50  # the forms of the tools last shown, each as the user left it (this server, this session)
PRELOAD_THREAD = "preload-jsonschema"
NO_TOOL = "Choose a tool in the list: its arguments form shows here, with Call below."


class ToolWorkbench(QWidget):
    statusMessage = Signal(str)  # why a Call did nothing (no tool selected, not connected)

    def __init__(self, session: SessionController, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.settings = settings
        self.row: ToolRow | None = None
        self.form: ToolForm | None = None
        self.forms: dict[str, ToolForm] = {}  # tool name → its form as last left, the most recent last
        self.shown_record: CallRecord | None = None
        self._task_calls: list[CallRecord] = []  # calls run as tasks, until their task is known
        self._task_records: dict[int, CallRecord] = {}  # TrackedTask.local_id → its History record
        self.history_file: Path | None = None  # where this server's History is kept (`keep_history`)
        self.history_redactor = Redactor()
        self._history_save = QTimer(self, singleShot=True, interval=500)  # a burst of calls: one write
        self._history_save.timeout.connect(self._save_history)
        self.question: QMessageBox | None = None  # the open "problems with the arguments" question
        self.confirm = self._ask_destructive  # replaceable, so tests can answer for the user

        self.tools = ToolList(settings)
        self.header = ToolHeader()
        icons = IconSource.of(session)  # the server's tool icons, shared with the other tabs
        self.tools.use_icons(icons)
        self.header.use_icons(icons)
        self.form_box = QVBoxLayout()
        self.no_tool = plain_label(NO_TOOL, wrap=True, style=STYLES["note"], selectable=True)
        self.no_tool.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.call_button = QPushButton("Call  (Ctrl+Enter)")
        self.call_button.setObjectName("callButton")
        self.timeout = QDoubleSpinBox(minimum=0.5, maximum=86_400, value=60, suffix=" s", decimals=1)
        self.timeout.setToolTip("Timeout without a response or a progress notification")
        self.timeout.setAccessibleName("Timeout")
        self.max_total = QDoubleSpinBox(minimum=0, maximum=86_400, value=0, suffix=" s", decimals=1)
        self.max_total.setSpecialValueText("no limit")
        self.max_total.setToolTip("Hard limit that progress does not reset")
        # Shown for some tools only, right under Call at the end of the Result tabs' bar (room no other row
        # costs): in the call bar it raised the bar's minimum width (the tool list narrowed when such a tool
        # was chosen), or, let shrink, lost its label at 1024×700; a row of its own took an app's height.
        self.as_task = QCheckBox("As task")
        self.as_task.setAccessibleName("Run as task")
        self.as_task.setToolTip("Run as task: the call returns a task; its status and result show in the Tasks tab")
        self.task_note = plain_label(wrap=True, style=STYLES["note"], selectable=True)
        self.task_note.setAccessibleName("Task note")
        self.task_form: Callable[[], str | None] = lambda: None  # the Tasks tab says which form the server speaks
        self.run_task: Callable[[str, dict[str, Any]], bool] | None = None  # the Tasks tab starts task calls
        self.ask_first = QCheckBox("Ask before calling (destructive)")
        self.ask_first.toggled.connect(self._remember_ask_first)
        self.calls = CallsPanel()
        self.result = ResultView()
        self.result_caption = ElidedLabel()  # one line, elided, whole in its tooltip: a long tool name never widens it
        self.result_caption.setAccessibleName("Whose result")
        self.resource = ResourceContentsView()
        self.app_tab = AppTab(session)  # a tool's MCP App beside its result
        self.history = HistoryView()
        self._build_layout()
        self._sized_by_user = {
            name: settings.contains(f"splitters/workbench{name.title()}") for name in ("tools", "form")
        }
        remember(settings, "splitters/workbenchTools", self.split)
        remember(settings, "splitters/workbenchForm", self.right)
        self.split.splitterMoved.connect(lambda *_: self._sized_by_user.update(tools=True))
        self.right.splitterMoved.connect(lambda *_: self._sized_by_user.update(form=True))
        self.right.installEventFilter(self)  # the form keeps its share of the height until the user drags
        self.lower.currentChanged.connect(lambda _: self.share_height())  # an app below takes the height

        self.tools.toolSelected.connect(self.show_tool)
        self.tools.model.judged.connect(self.header.show_verdict)  # the Host check's verdicts arrive per slice
        self.call_button.clicked.connect(self.call_current)
        self.run_keys = RunKeyFilter(self, self.call_current, "Call the selected tool")  # Ctrl+Enter inside the tab
        session.callUpdated.connect(self._on_call)
        session.toolsChanged.connect(self.set_listing)
        session.stateChanged.connect(self._update_call_button)
        self.history.rerunRequested.connect(self.rerun)
        self.history.rerunWithAnswersRequested.connect(self.rerun_with_answers)
        self.history.editRequested.connect(self.edit)
        self.history.recordSelected.connect(lambda record: self._show_record(record, switch=False))
        self.history.copied.connect(self.statusMessage)
        self.history.saveRequested.connect(self.save_to_collection)
        self.result.saveRequested.connect(lambda: self.shown_record and self.save_to_collection(self.shown_record))
        self.result.readResourceRequested.connect(self.read_resource)
        self.resource.readResourceRequested.connect(self.read_resource)
        self.show_tool(None)

    def _build_layout(self) -> None:
        call_bar = QHBoxLayout()
        call_bar.addWidget(self.call_button)
        call_bar.addWidget(buddy_label("Timeout", self.timeout))
        call_bar.addWidget(self.timeout)
        call_bar.addWidget(buddy_label("Max", self.max_total))
        call_bar.addWidget(self.max_total)
        call_bar.addStretch(1)
        # A second row, shown only when the tool asks first or needs a task: the form keeps the height.
        self.options_row = QWidget()
        options = QHBoxLayout(self.options_row)
        options.setContentsMargins(0, 0, 0, 0)
        options.addWidget(self.ask_first)
        options.addWidget(self.task_note)
        options.addStretch(1)
        # The header and the form scroll together above a Call row that stays put at the bottom of the form
        # side: a two-line title, a progress row or a short window never moves Call under the pointer, and a
        # long description never raises the window's minimum height.
        form_side, form_layout = bare_column()
        form_layout.addWidget(self.header)
        form_layout.addWidget(self.no_tool, 1)
        form_layout.addLayout(self.form_box, 1)
        self.form_scroll = scrolled(form_side)
        self.form_scroll.setObjectName("formSide")
        self.form_scroll.setMinimumHeight(2 * self.fontMetrics().height())  # a squeezed form scrolls: an app gets more
        top, top_layout = bare_column()
        top_layout.addWidget(self.form_scroll, 1)
        top_layout.addWidget(self.calls)  # calls in flight: above the Call row, which stays where it is
        top_layout.addLayout(call_bar)
        top_layout.addWidget(self.options_row)
        self.result_page, page = bare_column()
        page.setSpacing(0)
        page.addWidget(self.result_caption)
        page.addWidget(self.result, 1)
        self.result_caption.setContentsMargins(6, 4, 6, 0)
        self.lower = QTabWidget()
        self.lower.setObjectName("resultTabs")
        self.lower.addTab(self.result_page, "Result")
        self.lower.addTab(self.app_tab, "App")
        self.lower.addTab(self.resource, "Resource")  # what a resource link in a result read: beside it, not over it
        self.lower.addTab(self.history, "History")
        self.lower.setTabVisible(self.lower.indexOf(self.resource), False)
        self.lower.setTabVisible(self.lower.indexOf(self.app_tab), False)
        self.lower.setCornerWidget(self.as_task, Qt.Corner.TopRightCorner)
        least = self.lower.tabBar().sizeHint().height() + RESULT_LEAST_LINES * self.fontMetrics().lineSpacing()
        self.lower.setMinimumHeight(least)  # below its pages' hints: they are squeezed, the form first
        share = round(1000 * FORM_SHARE)
        self.right = named_splitter("workbenchRight", top, self.lower, sizes=[share, 1000 - share], vertical=True)
        self.right.setStretchFactor(0, 1)
        self.split = named_splitter("workbenchSplitter", self.tools, self.right, sizes=[260, 740], stretch=(0, 1))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.split)

    # -- tools -------------------------------------------------------------------------------
    def set_listing(self, listing: Any) -> None:
        profile = getattr(self.session, "profile", None)
        self.tools.set_listing(listing, getattr(profile, "name", None))
        self.fit_tool_list()
        if getattr(listing, "tools", None):
            preload_schema_checker()

    def fit_tool_list(self) -> None:
        """Widen the tool list so whole names show (up to `TOOL_LIST_SHARE`), unless the user sized it."""
        sizes = self.split.sizes()
        total = sum(sizes)
        if self._sized_by_user["tools"] or total < 400:
            return
        width = max(min(self.tools.fitting_width(), int(total * TOOL_LIST_SHARE)), sizes[0])
        self.split.setSizes([width, total - width])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.right and event.type() == QEvent.Type.Resize:
            self.share_height()
            QTimer.singleShot(0, self, self.share_height)  # again once the splitter has shared out its new size
        return super().eventFilter(watched, event)

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab from the tool list goes to the form's first field, from its last field to Call (Qt's
        order would pass Call and the whole result area first: the form is made after them)."""
        fields = self.form.fields() if self.form is not None else []
        focus = self.focusWidget()
        target = None
        if next and fields and focus is self.tools.view:
            target = fields[0]
        elif next and fields and focus is fields[-1]:
            target = self.call_button
        elif not next and fields and focus is self.call_button:
            target = fields[-1]
        elif not next and fields and focus is fields[0]:
            target = self.tools.view
        if target is None or not target.isEnabled():
            return super().focusNextPrevChild(next)
        if target in fields:
            self.form_scroll.ensureWidgetVisible(target)
        target.setFocus(Qt.FocusReason.TabFocusReason if next else Qt.FocusReason.BacktabFocusReason)
        return True

    def share_height(self) -> None:
        """Until the user drags the splitter: the form side gets what the form needs, between
        `MIN_FORM_SHARE` and `FORM_SHARE` of the height (`APP_FORM_SHARE` while an app shows below),
        and on a short window at least what shows its first field whole (the result side then keeps its
        tabs and a few lines); the result side gets the rest."""
        sizes = self.right.sizes()
        total = sum(sizes)
        if self._sized_by_user["form"] or total <= 0:
            return
        share = FORM_SHARE
        first = 0
        if self.lower.currentWidget() is self.app_tab:
            share = APP_FORM_SHARE
        elif self.form is not None and self.form.isVisible():
            around = sizes[0] - self.form_scroll.height()  # the Call row and what else is outside the scroll
            share = min(FORM_SHARE, max(MIN_FORM_SHARE, (around + self._form_side_needs()) / total))
            first = min(around + self._first_field_needs(), total - self.lower.minimumHeight())
        top = max(round(total * share), first)
        if (lower := self._lower_needs()) is not None:  # a result or History shown: the form side yields
            wanted, least = lower
            top = min(top, max(total - wanted, min(first, total - least)))
        if top != sizes[0]:
            self.right.setSizes([top, total - top])
        self._keep_field_in_view()

    def _keep_field_in_view(self) -> None:
        """A squeezed form side (a short window, a result below) scrolls to the field being typed into, or the
        first field: the box the user typed in stays in sight, not only the header above it."""
        fields = self.form.fields() if self.form is not None and self.form.isVisible() else []
        if not fields:
            return
        focus = self.focusWidget()
        field = next((f for f in fields if focus is not None and (f is focus or f.isAncestorOf(focus))), fields[0])
        if field.isVisibleTo(self.form):
            self.form_scroll.ensureWidgetVisible(field, 0, 4)

    def _lower_needs(self) -> tuple[int, int] | None:
        """What the result side wants (its whole content) and the least it keeps (`RESULT_LINES` lines, or
        rows of History) while a call's result or History shows; None otherwise (it takes what is left)."""
        page = self.lower.currentWidget()
        tabs = self.lower.tabBar().sizeHint().height() + 2 * self.lower.style().pixelMetric(
            QStyle.PixelMetric.PM_DefaultFrameWidth, None, self.lower
        )
        if page is self.result_page and self.shown_record is not None and self.result.state != "empty":
            caption = 0 if self.result_caption.isHidden() else self.result_caption.sizeHint().height()
            column = self.result.layout()
            margins = column.contentsMargins()
            header = column.itemAt(0).sizeHint().height() + column.spacing()
            chrome = tabs + caption + margins.top() + margins.bottom() + header + 2 * self.result.scroll.frameWidth()
            least = chrome + RESULT_LINES * self.result.fontMetrics().lineSpacing()
            return chrome + self.result.content.sizeHint().height(), least
        if page is self.history:
            table = self.history.table
            column = self.history.layout()
            chrome = tabs + column.itemAt(0).sizeHint().height() + column.spacing() + 2 * table.frameWidth()
            chrome += table.horizontalHeader().sizeHint().height() + 8
            row = table.verticalHeader().defaultSectionSize()
            return chrome + row * max(table.rowCount(), HISTORY_ROWS), chrome + row * HISTORY_ROWS
        return None

    def _form_side_needs(self) -> int:
        """The height the header and the whole form take (from size hints: the form may not be laid out yet)."""
        assert self.form is not None
        header = self.header.sizeHint().height() if self.header.isVisible() else 0
        tabs = self.form.tabs.tabBar().sizeHint().height() + 4 * self.form.scroll.frameWidth()
        spacing = self.form_scroll.widget().layout().spacing()
        return header + spacing + tabs + self.form.view.sizeHint().height() + 8

    def _first_field_needs(self) -> int:
        """The height the header, the form's tabs and its first field take (0 without a laid-out field)."""
        assert self.form is not None
        fields = self.form.fields()
        if not fields or not fields[0].isVisibleTo(self.form):
            return 0
        inner = self.form.scroll.widget()
        if inner is None or not inner.isAncestorOf(fields[0]):
            return 0
        bottom = fields[0].mapTo(inner, QPoint(0, fields[0].height())).y()
        header = self.header.sizeHint().height() if self.header.isVisible() else 0
        tabs = self.form.tabs.tabBar().sizeHint().height() + 4 * self.form.scroll.frameWidth()
        spacing = self.form_scroll.widget().layout().spacing()
        return header + spacing + tabs + bottom + 8

    def clear(self) -> None:
        self.tools.clear()
        self.result.clear()
        self.app_tab.clear()
        self.lower.setTabVisible(self.lower.indexOf(self.app_tab), False)
        self.shown_record = None
        self._caption()

    def _update_call_button(self, *_state: object) -> None:
        self.call_button.setEnabled(self.session.state == CONNECTED and self.row is not None)
        self._update_task_choice()

    def _update_task_choice(self) -> None:
        """ "Run as task": offered when the server runs tasks and the tool does not forbid it; a tool whose
        ``execution.taskSupport`` is ``required`` always runs as one, and says so before the call."""
        support = task_support(self.row.tool) if self.row is not None else None
        form = self.task_form() if self.row is not None else None
        offered = form is not None and support != "forbidden"
        self.as_task.setVisible(offered)
        self.as_task.setEnabled(offered and support != "required")
        if support == "required":
            self.as_task.setChecked(True)
        note = ""
        if support == "required":
            note = "This tool runs only as a task (taskSupport: required): its status and result show in the Tasks tab."
            if form is None and self.session.state == CONNECTED:
                note = "This tool requires a task, but the server does not advertise task support: a call may fail."
        self.task_note.setText(note)
        self.task_note.setVisible(bool(note))
        self._update_options_row()

    def _update_options_row(self) -> None:
        self.options_row.setVisible(not self.ask_first.isHidden() or not self.task_note.isHidden())

    def show_tool(self, row: ToolRow | None) -> None:
        """Show a tool's form. Each tool keeps its own form for the session (what was typed, the JSON
        tab, unparsed input), as long as its schema does not change; a re-listed tool keeps it too."""
        same = self.row is not None and row is not None and self.row.name == row.name
        if same and self.form is not None and _schema(self.row) == _schema(row):
            self.row = row
            return
        self.row = row
        if self.form is not None:
            self.form.hide()
            self.form = None
        self.header.show_row(row)
        self.no_tool.setVisible(row is None)
        self._caption()
        self._update_call_button()
        if row is None:
            self.ask_first.hide()
            self._update_task_choice()
            return
        self.form = self._form_for(row)
        self.form.show()
        self.form_scroll.widget().layout().activate()  # the splitter settles now, not under the user's typing
        self.share_height()
        QTimer.singleShot(0, self, self.share_height)  # again once the new form is laid out
        self.as_task.setChecked(False)
        self._update_task_choice()
        destructive = "destructive" in row.badges
        self.ask_first.setVisible(destructive)
        self._update_options_row()
        self.ask_first.setChecked(destructive and self._ask_setting(row.name))

    def _form_for(self, row: ToolRow) -> ToolForm:
        """The tool's form as it was left, or a new one (for a new tool, or one whose schema changed)."""
        schema = _schema(row)
        schema = schema if isinstance(schema, dict) else None
        form = self.forms.pop(row.name, None)
        if form is not None and form.schema != schema:
            self._drop(form)
            form = None
        if form is None:
            form = ToolForm(schema)
            form.setObjectName("toolForm")
            form.hide()
            self.form_box.addWidget(form, 1)
        self.forms[row.name] = form
        while len(self.forms) > FORMS_KEPT:
            self._drop(self.forms.pop(next(iter(self.forms))))
        return form

    def _drop(self, form: ToolForm) -> None:
        self.form_box.removeWidget(form)
        form.deleteLater()

    # -- calling -----------------------------------------------------------------------------
    def call_current(self) -> CallRecord | None:
        """Call the selected tool with the form's arguments. With problems (a field that does not parse,
        a missing required field, a schema violation) nothing is sent yet: a question lists them, and the
        call goes ahead only after "Send anyway" (returns None then)."""
        if self.session.state != CONNECTED:
            self.statusMessage.emit("Not connected: connect to a server (Ctrl+Shift+Enter) or reconnect (Ctrl+R) first")
            return None
        if self.row is None or self.form is None:
            self.statusMessage.emit("Select a tool to call first")
            return None
        if self.question is not None:
            self.question.raise_()
            self.question.activateWindow()
            return None
        arguments = self.form.arguments()
        issues = self.form.validate()
        if issues:
            row = self.row

            def answered(send: bool) -> None:
                self.question = None
                if send and self.row is row and self.session.state == CONNECTED:
                    self._confirm_and_call(row, arguments)

            self.question = ask_about_problems(self, row.name, issues, arguments, answered)
            return None
        return self._confirm_and_call(self.row, arguments)

    def _confirm_and_call(self, row: ToolRow, arguments: Any) -> CallRecord | None:
        asks = "destructive" in row.badges and self.ask_first.isChecked()
        if asks and not self.confirm(row.name, arguments):
            return None
        return self._call(row.name, arguments)

    def _call(self, name: str, arguments: Any, replay: dict[str, Any] | None = None) -> CallRecord | None:
        max_total = self.max_total.value() or None
        args = arguments if isinstance(arguments, dict) else {}
        if not self.as_task.isHidden() and self.as_task.isChecked() and self.run_task is not None:
            if self.run_task(name, args):  # the Tasks tab runs it; History lists it, and its outcome once known
                record = CallRecord(name, args, handle=None, as_task=True)
                self._task_calls.append(record)
                self.history.update_call(record)
            return None
        timeout = self.timeout.value()
        record = self.session.call_tool(name, args, timeout=timeout, max_total=max_total, replay=replay)
        if record is not None:
            self.shown_record = record
            self.result.clear()
            self._caption()
        return record

    def _ask_destructive(self, name: str, arguments: Any) -> bool:
        accepted, stop_asking = ask_destructive(self, name, arguments)
        if stop_asking:
            self.ask_first.setChecked(False)
        return accepted

    def _ask_setting(self, name: str) -> bool:
        return self.settings.value(f"confirm/{name}", True, type=bool)

    def _remember_ask_first(self, on: bool) -> None:
        if self.row is not None and "destructive" in self.row.badges:
            self.settings.setValue(f"confirm/{self.row.name}", on)

    def _on_call(self, record: CallRecord) -> None:
        self.calls.update_call(record)
        self.history.update_call(record)
        if record.done and record is self.shown_record:
            self._show_record(record)
        if record.done:
            self._history_save.start()

    def task_changed(self, task: Any) -> None:
        """A task moved on (the Tasks tab's): the History row of the call that started it follows."""
        record = self._task_records.get(task.local_id)
        if record is None:
            record = next((r for r in self._task_calls if r.tool == task.tool and r.arguments == task.arguments), None)
            if record is None:
                return
            self._task_calls.remove(record)
            self._task_records[task.local_id] = record
        if task.done and not record.done:
            record.finish(task.result, task.error)
            if task.status not in ("completed",) and task.error is None:
                record.outcome = task.status  # failed, cancelled: the task's own word
            del self._task_records[task.local_id]
            self._history_save.start()
        self.history.update_call(record)

    def keep_history(self, path: Path, redactor: Redactor) -> None:
        """Keep this server's History in `path` (redacted with `redactor`); the first time, list the calls
        kept there from earlier sessions."""
        first = self.history_file is None
        self.history_file, self.history_redactor = path, redactor
        if first:
            try:
                kept = load_history(path)
            except HistoryDamaged as exc:  # set aside, not saved over; the user is told; the intact calls listed
                self.statusMessage.emit(str(exc))
                self.history.say_damaged(str(exc))
                kept = exc.kept
            for record in reversed(kept):  # oldest first: the newest ends on top
                self.history.update_call(record)

    def _save_history(self) -> None:
        if self.history_file is None:
            return
        try:
            save_history(self.history_file, self.history.records, self.history_redactor)
        except OSError as exc:
            self.statusMessage.emit(f"History not saved to {self.history_file}: {exc.strerror or exc}")

    def _show_record(self, record: CallRecord, *, switch: bool = True) -> None:
        """Show a call's result in the Result tab, and that tab unless `switch` is False (a row picked in
        History: the History tab stays, with Re-run and Copy as CLI at hand)."""
        self.shown_record = record
        self._caption()
        if not record.done:
            self.result.clear()
            return
        if record.earlier and record.result is None:  # from an earlier session, its result not kept
            self.result.clear()
            return
        tool = self.tools.model.all and next((r.tool for r in self.tools.model.all if r.name == record.tool), None)
        if record.result is not None:
            self.result.show_result(record.result, tool, elapsed_ms=record.duration_ms)
        elif record.error is not None:  # the server's JSON-RPC error, or a failure on our side said as such
            self.result.show_error(record.error)
        if switch:
            self.lower.setCurrentWidget(self.result_page)
        self.share_height()
        QTimer.singleShot(0, self, self.share_height)  # again once the result is laid out
        tools = [r.tool for r in self.tools.model.all if isinstance(r.tool, dict)]
        has_app = self.app_tab.show_call(record, tool, tools)
        self.lower.setTabVisible(self.lower.indexOf(self.app_tab), has_app)
        if has_app and switch:
            self.lower.setCurrentWidget(self.app_tab)

    def save_to_collection(self, record: CallRecord) -> None:
        """Save to collection…: the call as a collection step (a dialog asks which file and name)."""
        from inspector.checks.collection import reach_of
        from inspector.checks.secret_references import secret_references, with_references
        from inspector.ui.collections.save_dialog import save_call

        tool = next((r.tool for r in self.tools.model.all if r.name == record.tool), None)
        profile = self.session.profile
        # the server's secrets as ${NAME} references (as in its recorded entry), any other secret redacted
        secrets = secret_references(profile) if profile is not None else {}
        raw = {"name": record.tool, "arguments": record.arguments}
        params = self.history_redactor.json(with_references(raw, secrets))
        server = profile.name if profile is not None else None
        reach = reach_of(profile) if profile is not None else None  # an unsaved server still runs in `mcp-lens run`
        save_call(
            self,
            self.settings,
            "tools/call",
            params,
            server,
            result=record.result,
            tool=tool,
            reach=reach,
            secrets=secrets,
        )

    def _caption(self) -> None:
        """Name the tool (and the time of the call) whose result is shown, so it is never taken for another's."""
        record = self.shown_record
        if record is None:
            self.result_caption.hide()
            return
        when = "%Y-%m-%d %H:%M:%S" if record.earlier else "%H:%M:%S"
        called = time.strftime(when, time.localtime(record.started))
        text = f"Result of {record.tool} · called at {called}" if record.done else f"Calling {record.tool}…"
        if record.as_task and record.result is None and record.error is None:
            text = f"{record.tool} runs as a task ({record.outcome}): its status and result are in the Tasks tab"
        elif record.earlier:
            text += " · an earlier session"
            if record.result is None:
                text += f": {record.error_text}" if record.error_text else ": its result was not kept"
        if self.row is not None and self.row.name != record.tool:
            text += " (not the selected tool)"
        self.result_caption.setText(text)
        self.result_caption.show()

    def rerun(self, record: CallRecord) -> CallRecord | None:
        return self._call(record.tool, record.arguments)

    def rerun_with_answers(self, record: CallRecord) -> CallRecord | None:
        """Re-run the whole exchange, answering the server's input requests as that call was answered."""
        return self._call(record.tool, record.arguments, replay=dict(record.answers))

    def edit(self, record: CallRecord) -> None:
        if self.tools.select(record.tool) and self.form is not None:
            self.form.set_arguments(record.arguments)

    def read_resource(self, uri: str) -> None:
        """A resource link was clicked: read it into the Resource tab; the result it came from stays as it is."""
        started = time.perf_counter()
        task = self.session.send_request("resources/read", {"uri": uri})
        if task is None:
            return
        source = self.shown_record.tool if self.shown_record is not None else None
        reason = f"a link in the result of {source}" if source else "a link"
        self.resource.clear()
        self.resource.status_label.setText("Reading…")
        self.resource.detail_label.setText(uri)
        self.lower.setTabVisible(self.lower.indexOf(self.resource), True)
        self.lower.setCurrentWidget(self.resource)

        def done(method: str, outcome: Any) -> None:
            if method != "resources/read":
                return
            self.session.requestFinished.disconnect(done)
            if isinstance(outcome, dict):
                elapsed = (time.perf_counter() - started) * 1000
                self.resource.show_read(ReadOutcome(uri, outcome, check_read_result(outcome), elapsed), reason=reason)
            elif isinstance(outcome, BaseException):
                self.resource.show_error(outcome)
                self.resource.uri = uri

        self.session.requestFinished.connect(done)


def _schema(row: ToolRow | None) -> Any:
    return row.tool.get("inputSchema") if row is not None and isinstance(row.tool, dict) else None


def preload_schema_checker() -> None:
    """Import jsonschema on a worker thread once a server lists tools: the form checks a tool's schema
    when the tool is first selected, and importing jsonschema there (~100 ms) stalled the window."""
    if "jsonschema.validators" in sys.modules or any(t.name == PRELOAD_THREAD for t in threading.enumerate()):
        return

    def load() -> None:
        import jsonschema.validators  # noqa: F401

    threading.Thread(target=load, name=PRELOAD_THREAD, daemon=True).start()
