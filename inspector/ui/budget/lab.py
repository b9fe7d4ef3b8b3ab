"""Description lab: edit a tool's or a property's description and watch tokens and lints move as you type.

Edits live only here. Nothing is ever sent to the server; copy the result into the server's code.

The editor shows a description's control and bidi characters as escapes (`content.visible`): that shown
form is not an edit, so until the text differs from it the lab counts and copies the server's own text.
A description longer than `EDIT_MAX_CHARS` is not put in the editor (Qt took minutes to lay out 1 MB
with no break point): the lab shows its beginning read-only, in pieces, says why, and counts it on a
worker thread (a tokenizer took 2.3 s for 1 MB of one letter).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.breakdown import BudgetReport
from inspector.content.long_lines import in_pieces
from inspector.content.visible import visible
from inspector.ui.budget.common import compact_combo, copy_text, fmt_delta
from inspector.ui.budget.engine import Counters, describe_error, figure_words, offline_or_fallback
from inspector.ui.budget.host_picker import report_for
from inspector.ui.budget.lab_fields import TOOL_DESCRIPTION, Path, description_paths, read_at, with_text
from inspector.ui.budget.lints_view import LintsView
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.layout_parts import bare_column, named_splitter
from inspector.ui.widgets.plain_text import item_text, plain_label
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.ui.budget.pane import BudgetPane

DEBOUNCE_MS = 100
EDIT_MAX_CHARS = 20_000  # a longer description is shown (its beginning), counted and copied, not edited
BACKGROUND_TOOLS = 300  # a longer list's first count runs on a worker thread (~1 s for 5,000 tools)
BACKGROUND_CHARS = 100_000  # ... and so does a list this long as JSON (1 MB of one letter: 2.3 s)
NOTICE = (
    "Edits stay in this window: MCP Lens never changes the server. "
    "Copy the description or the tool's JSON into your server's code."
)


class DescriptionLab(QWidget):
    def __init__(self, pane: BudgetPane) -> None:
        super().__init__()
        self.pane = pane
        self.counters = Counters()
        self.tools: list[dict[str, Any]] = []
        self.edited: dict[int, dict[str, Any]] = {}  # tool index → edited copy
        self.paths: list[tuple[str, Path]] = []
        self.base: BudgetReport | None = None
        self.current: BudgetReport | None = None
        self.last_ms = 0.0
        self._loading = False
        self._dirty = True
        self._base_job: asyncio.Future[None] | None = None
        self._description_counts: dict[tuple[str, str], int] = {}  # (tokenizer, text) → tokens, a few kept
        self._description_job: asyncio.Future[None] | None = None
        self._preview_stale = False  # the Tool JSON is written when its tab shows (1 MB of JSON, else, per count)

        notice = plain_label("Note: " + NOTICE, wrap=True, selectable=True)
        notice.setObjectName("labNotice")
        font = notice.font()
        font.setBold(True)
        notice.setFont(font)
        self.tool_box = QComboBox()
        self.tool_box.setObjectName("labTool")
        compact_combo(self.tool_box, 16)
        self.field_box = QComboBox()
        self.field_box.setObjectName("labField")
        compact_combo(self.field_box, 16)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("labEditor")
        self.editor.setPlaceholderText("(no description — type one to see what it costs)")
        self.edit_note = plain_label(wrap=True, selectable=True, dim=True)
        self.edit_note.setObjectName("labEditNote")
        self.edit_note.hide()
        self.description_count = plain_label(selectable=True)
        self.tool_count = plain_label(selectable=True)
        self.list_count = plain_label(selectable=True)
        # one line, elided (whole in its tooltip): its full width took the lab past a 1024 px window
        self.timing = ElidedLabel()
        self.lints = LintsView()
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("labPreview")
        self.preview.setReadOnly(True)
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.preview.setPlaceholderText("The edited tool as JSON")
        self.preview.installEventFilter(self)
        self.copy_description = QPushButton("Copy description")
        self.copy_tool = QPushButton("Copy tool JSON")
        self.reset_field = QPushButton("Reset this description")
        self.reset_all = QPushButton("Reset all edits")
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self._build_layout(notice)

        self.tool_box.currentIndexChanged.connect(self._tool_changed)
        self.field_box.currentIndexChanged.connect(self._field_changed)
        self.editor.textChanged.connect(self._typed)
        self.timer.timeout.connect(self.update_counts)
        self.copy_description.clicked.connect(lambda: copy_text(self.description_text()))
        self.copy_tool.clicked.connect(lambda: copy_text(self.tool_json()))
        self.reset_field.clicked.connect(self.reset_current)
        self.reset_all.clicked.connect(self.reset_everything)

    def _build_layout(self, notice: QLabel) -> None:
        pick = QFormLayout()
        pick.addRow("Tool", self.tool_box)
        pick.addRow("Description", self.field_box)
        buttons = QGridLayout()  # two rows of two: the lab stays narrow enough for a small window
        for index, button in enumerate((self.copy_description, self.copy_tool, self.reset_field, self.reset_all)):
            buttons.addWidget(button, index // 2, index % 2)
        buttons.setColumnStretch(2, 1)
        left, left_layout = bare_column()
        left_layout.addLayout(pick)
        left_layout.addWidget(self.editor, 1)
        left_layout.addWidget(self.edit_note)
        left_layout.addLayout(buttons)
        counts = QFormLayout()
        counts.addRow("This description:", self.description_count)
        counts.addRow("This tool:", self.tool_count)
        whole = QHBoxLayout()  # the timing beside the total, not on a row of its own: the lab stays short
        whole.addWidget(self.list_count)
        whole.addWidget(self.timing, 1)
        counts.addRow("Whole list:", whole)
        right, right_layout = bare_column()
        right_layout.addLayout(counts)
        lower = QTabWidget()  # tabs rather than a splitter: the lab stays short enough for a small window
        lower.setObjectName("labLower")
        lower.setDocumentMode(True)
        lower.addTab(self.lints, "Lints")
        lower.addTab(self.preview, "Tool JSON")
        lower.setTabToolTip(1, "The edited tool, as JSON (what “Copy tool JSON” copies)")
        right_layout.addWidget(lower, 1)
        split = named_splitter("labSplit", left, right, sizes=[760, 540], stretch=(3, 2))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(notice)
        layout.addWidget(split, 1)

    # -- inputs ------------------------------------------------------------------------------
    def set_tools(self, tools: list[dict[str, Any]], *, keep_edits: bool = True) -> None:
        """A new list: with `keep_edits` (same server, list_changed) edits of tools that kept their name survive."""
        old_names = {i: str(t.get("name")) for i, t in enumerate(self.tools)}
        kept = {old_names[i]: tool for i, tool in self.edited.items()} if keep_edits else {}
        selected = old_names.get(self.tool_box.currentIndex())
        self.tools = list(tools)
        names = [str(tool.get("name", f"(tool {i})")) for i, tool in enumerate(tools)]
        self.edited = {i: kept[name] for i, name in enumerate(names) if name in kept}
        self._loading = True
        self.tool_box.clear()
        self.tool_box.addItems([item_text(name) for name in names])
        self._loading = False
        self.base = None
        index = names.index(selected) if selected in names else 0
        self.tool_box.setCurrentIndex(index if names else -1)
        self._tool_changed()

    def settings_changed(self) -> None:
        self.base = None
        if self.tools:
            self.update_counts()

    def select(self, tool: str, field: str = "Tool description") -> bool:
        index = self.tool_box.findText(item_text(tool))
        if index < 0:
            return False
        self.tool_box.setCurrentIndex(index)
        field_index = self.field_box.findText(item_text(field))
        if field_index >= 0:
            self.field_box.setCurrentIndex(field_index)
        return field_index >= 0

    # -- editing -----------------------------------------------------------------------------
    def tool_index(self) -> int:
        return self.tool_box.currentIndex()

    def path(self) -> Path:
        index = self.field_box.currentIndex()
        return self.paths[index][1] if 0 <= index < len(self.paths) else TOOL_DESCRIPTION

    def edited_tool(self) -> dict[str, Any] | None:
        index = self.tool_index()
        if not 0 <= index < len(self.tools):
            return None
        return self.edited.get(index, self.tools[index])

    def description_text(self) -> str:
        """The chosen description as it now stands: the server's own text until it is edited."""
        tool = self.edited_tool()
        return read_at(tool, self.path()) if tool is not None else ""

    def tool_json(self) -> str:
        tool = self.edited_tool()
        return json.dumps(tool, indent=2, ensure_ascii=False) if tool is not None else ""

    def _tool_changed(self) -> None:
        if self._loading:
            return
        tool = self.edited_tool()
        self._loading = True
        self.field_box.clear()
        self.paths = description_paths(tool) if tool is not None else []
        self.field_box.addItems([item_text(label) for label, _ in self.paths])
        self._loading = False
        self._field_changed()

    def _field_changed(self) -> None:
        if self._loading:
            return
        text = self.description_text()
        too_long = len(text) > EDIT_MAX_CHARS
        self._loading = True
        # shown with its escapes and bidi controls visible (counted as sent until the user edits it)
        self.editor.setPlainText(in_pieces(visible(text[:EDIT_MAX_CHARS])) if too_long else visible(text))
        self.editor.setReadOnly(too_long)
        self._loading = False
        self.edit_note.setText(
            f"This description is {len(text):,} characters: too long to edit here (the lab edits up to "
            f"{EDIT_MAX_CHARS:,}). Above is its beginning; its count is on the right and Copy description "
            "copies it whole."
            if too_long
            else ""
        )
        self.edit_note.setVisible(too_long)
        self.update_counts()

    def _typed(self) -> None:
        if self._loading:
            return
        index, tool = self.tool_index(), self.edited_tool()
        if tool is not None and not self.editor.isReadOnly():
            text, original = self.editor.toPlainText(), read_at(self.tools[index], self.path())
            if text == visible(original):  # the shown form of the server's text: not an edit
                text = original
            self.edited[index] = with_text(tool, self.path(), text)
            if self.edited[index] == self.tools[index]:
                del self.edited[index]
        self.timer.start()

    def reset_current(self) -> None:
        index = self.tool_index()
        if 0 <= index < len(self.tools) and index in self.edited:
            original = read_at(self.tools[index], self.path())
            self.edited[index] = with_text(self.edited[index], self.path(), original)
            if self.edited[index] == self.tools[index]:
                del self.edited[index]
        self._field_changed()

    def reset_everything(self) -> None:
        self.edited.clear()
        self._tool_changed()

    # -- counting ----------------------------------------------------------------------------
    def edited_tools(self) -> list[dict[str, Any]]:
        return [self.edited.get(i, tool) for i, tool in enumerate(self.tools)]

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._dirty:
            self.update_counts()

    def update_counts(self) -> None:
        """Recount the edited list (the counter caches unchanged strings, so this is incremental)."""
        self.timer.stop()
        self._dirty = not self.isVisible()
        if self._dirty:  # counted when the lab is shown: a new list must not cost the other tabs time
            return
        tool = self.edited_tool()
        if tool is None:
            for label in (self.description_count, self.tool_count, self.list_count, self.timing):
                label.setText("")
            self.lints.set_lints([])
            return
        name = offline_or_fallback(self.pane.tokenizer_name())
        shape = self.pane.shape()
        started = time.perf_counter()
        try:
            counter = self.counters.get(name)
            if self.base is None and _big(self.tools) and self._count_base_later(counter):
                return
            if self.base is None:
                self.base = self.pane.count(counter, self.tools)
            self.current = self.pane.count(counter, self.edited_tools())
            text = self.description_text()
            original = read_at(self.tools[self.tool_index()], self.path())
            was = self._description_tokens(name, original)
            tokens = was if text == original else self._description_tokens(name, text)
        except Exception as exc:
            self.description_count.setText(f"could not count: {describe_error(exc)}")
            return
        self.last_ms = (time.perf_counter() - started) * 1000
        index = self.tool_index()
        now_tool, base_tool = self.current.tools[index].total, self.base.tools[index].total
        if tokens is None or was is None:
            self.description_count.setText(f"counting {len(text):,} characters…")
        else:
            self.description_count.setText(_compare(tokens, was))
        self.tool_count.setText(f"{_compare(now_tool, base_tool)} as {shape}")
        self.list_count.setText(_compare(self.current.total, self.base.total))
        self.timing.setText(f"counted with {name} ({figure_words(self.current)}) in {self.last_ms:.1f} ms")
        tool_name = str(tool.get("name"))
        self.lints.set_lints([lint for lint in self.current.lints if lint.tool == tool_name])
        self._preview_stale = True
        if self.preview.isVisible():
            self._show_preview()

    def _show_preview(self) -> None:
        """The edited tool's JSON in the Tool JSON tab (long lines in pieces)."""
        self._preview_stale = False
        self.preview.setPlainText(in_pieces(visible(self.tool_json())))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.preview and event.type() == QEvent.Type.Show and self._preview_stale:
            self._show_preview()
        return super().eventFilter(watched, event)

    def _description_tokens(self, name: str, text: str) -> int | None:
        """Tokens in one description: counted here when short, on a worker thread past `EDIT_MAX_CHARS`
        (None until it is back; `update_counts` runs again then). Remembered for a few texts."""
        key = (name, text)
        if not text or key in self._description_counts:
            return self._description_counts.get(key, 0)
        tokenizer = self.counters.tokenizer(name)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if len(text) <= EDIT_MAX_CHARS or loop is None:
            return self._remember(key, tokenizer.count(text))
        if self._description_job is None or self._description_job.done():

            async def count() -> None:
                try:
                    tokens = await loop.run_in_executor(None, tokenizer.count, text)
                except Exception as exc:  # a tokenizer that cannot load
                    if shiboken6.isValid(self):
                        self.description_count.setText(f"could not count: {describe_error(exc)}")
                    return
                if shiboken6.isValid(self):
                    self._remember(key, tokens)
                    self.update_counts()

            self._description_job = asyncio.ensure_future(count())
        return None

    def _remember(self, key: tuple[str, str], tokens: int) -> int:
        if len(self._description_counts) >= 16:
            self._description_counts.clear()
        self._description_counts[key] = tokens
        return tokens

    def _count_key(self) -> tuple[str, str, tuple[str, str, int]]:
        """What a count depends on besides the list: the tokenizer, the shape, the host."""
        return offline_or_fallback(self.pane.tokenizer_name()), self.pane.shape(), self.pane.host_context()

    def _count_base_later(self, counter: Any) -> bool:
        """Count a big list's unedited state on a worker thread (the edits' recounts then reuse its cached
        pieces, a few ms); `update_counts` runs again once it is back. False without a running loop."""
        if self._base_job is not None and not self._base_job.done():
            return True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        tools, key = self.tools, self._count_key()
        shape, context = key[1], key[2]
        self.timing.setText(f"counting {counted(len(tools), 'tool', grouped=True)}…")

        async def count() -> None:
            try:
                report = await loop.run_in_executor(None, lambda: report_for(counter, tools, shape, *context))
            except Exception as exc:  # a tokenizer that cannot load, a broken list
                if shiboken6.isValid(self):
                    self.description_count.setText(f"could not count: {describe_error(exc)}")
                return
            if not shiboken6.isValid(self):  # the window closed meanwhile
                return
            if tools is self.tools and self.base is None and self._count_key() == key:
                self.base = report
            self.update_counts()

        self._base_job = asyncio.ensure_future(count())
        return True


def _big(tools: list[dict[str, Any]]) -> bool:
    """A list whose first count would stall the window: many tools, or long text."""
    return len(tools) > BACKGROUND_TOOLS or _json_longer_than(tools, BACKGROUND_CHARS)


def _json_longer_than(value: Any, limit: int) -> bool:
    """Whether ``value`` written as JSON is about ``limit`` characters or more, told without writing it (a
    1 MB description's JSON was another megabyte, twice, to answer this); every container read counts."""
    left = limit
    stack = [value]
    while stack and left >= 0:
        item = stack.pop()
        if isinstance(item, str):
            left -= len(item) + 2
        elif isinstance(item, dict):
            left -= 2 + 2 * len(item) + sum(len(str(key)) + 2 for key in item)
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            left -= 2 + len(item)
            stack.extend(item)
        else:
            left -= len(str(item))
    return left < 0


def _compare(now: int, was: int) -> str:
    if now == was:
        return f"{now:,} tokens (unchanged)"
    return f"{now:,} tokens (was {was:,}, {fmt_delta(now - was)})"
