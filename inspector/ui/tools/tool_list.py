"""The workbench's tool list: search, title and name, annotation badges, a marker for findings, and with a host
chosen in the host check, a line saying whether that host accepts the tool (`inspector.budget.acceptance`)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QSettings,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QListView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from inspector.apps.ui_resource import has_interface, visibility
from inspector.budget.acceptance import ACCEPTED, CHANGED, REFUSED, Judge, Verdict
from inspector.budget.host_rules import HOSTS
from inspector.core.icons import icons_of
from inspector.core.tasks import task_support
from inspector.ui.tools.host_check import HostCheck
from inspector.ui.widgets.icon_images import IconSource
from inspector.ui.widgets.plain_text import TITLE_CHARS, plain_tooltip, shown
from inspector.words import counted

ICON_SIDE = 18  # the server's icon beside each tool's name
HINTS = (
    ("readOnlyHint", "read-only"),
    ("destructiveHint", "destructive"),
    ("idempotentHint", "idempotent"),
    ("openWorldHint", "open-world"),
)


TASK_BADGES = {"required": "task only", "optional": "can run as a task"}  # execution.taskSupport
VERDICT_MARKS = {ACCEPTED: "✓", CHANGED: "≈", REFUSED: "✗"}
JUDGED_PER_TURN = 200  # tools judged per event-loop turn
MEASURED_HEADS = 200  # the longest rows by characters measured for the list's width (5,000 took ~10 ms)
SEARCH_KEPT_CHARS = 10_000  # a longer description is not kept lower-cased for the search (a second 1 MB)


def badges(tool: Any) -> list[str]:
    annotations = tool.get("annotations") if isinstance(tool, dict) else None
    out = [label for key, label in HINTS if annotations.get(key) is True] if isinstance(annotations, dict) else []
    if (support := task_support(tool)) in TASK_BADGES:
        out.append(TASK_BADGES[support])
    if isinstance(tool, dict) and "_meta" in tool:  # (most tools have none: 5,000 rows are built on connect)
        if has_interface(tool):
            out.append("has an app")  # MCP Apps: its result comes with a ui:// interface (the App tab)
        if visibility(tool) == ("app",):
            out.append("for apps only")  # hidden from the model by hosts that render apps
    return out


@dataclass(slots=True)
class ToolRow:
    """One tool as the list shows it; `tool` is the server's raw definition."""

    name: str
    title: str
    description: str
    badges: list[str]
    findings: list[str]
    tool: Any
    haystack: str
    verdict: Verdict | None = None  # what the host of the host check does with it
    host_label: str = ""

    @classmethod
    def from_tool(cls, tool: Any, findings: list[str]) -> ToolRow:
        if not isinstance(tool, dict):
            return cls("(not an object)", "", "", [], findings, tool, "")
        name = str(tool.get("name") or "(no name)")
        title = str(tool.get("title") or (tool.get("annotations") or {}).get("title") or "")
        description = str(tool.get("description") or "")
        searched = description if len(description) <= SEARCH_KEPT_CHARS else ""  # a long one: lower-cased when searched
        return cls(name, title, description, badges(tool), findings, tool, f"{name}\n{title}\n{searched}".lower())

    def matches(self, words: list[str]) -> bool:
        """Whether every word is in the name, title or description (lower-case words)."""
        missing = [word for word in words if word not in self.haystack]
        if not missing or len(self.description) <= SEARCH_KEPT_CHARS:
            return not missing
        text = self.description.lower()
        return all(word in text for word in missing)

    def head(self) -> str:
        """The first line: title and name, and a mark when the tool has findings."""
        head = f"{self.title} ({self.name})" if self.title and self.title != self.name else self.name
        return head + ("  ⚠" if self.findings else "")

    def label(self) -> str:
        """The row's text: the head, the annotation badges on a second line when there are any, and the host
        check's verdict on the last line when a host is chosen."""
        lines = [self.head()]
        if self.badges:
            lines.append(f"    {' · '.join(self.badges)}")
        if self.verdict is not None:
            lines.append(f"    {self.verdict_line()}")
        return "\n".join(lines)

    def verdict_line(self) -> str:
        """``✗ OpenAI strict: refused: …`` ("" without a host check)."""
        if self.verdict is None:
            return ""
        return f"{VERDICT_MARKS[self.verdict.outcome]} {self.host_label}: {self.verdict.summary()}"

    def verdict_detail(self) -> list[str]:
        """The verdict and each rule behind it with its source, for the tooltip."""
        if self.verdict is None:
            return []
        lines = ["", self.verdict_line()]
        for reason in self.verdict.reasons:
            lines.append(
                f"  • {reason.message} — {reason.rule.summary} [{reason.rule.status}; {reason.rule.source}; "
                f"checked {reason.rule.checked}]"
            )
        return lines


def findings_by_tool(listing: Any) -> dict[int, list[str]]:
    """Findings of a `ToolListing` grouped by the index of the tool they are about."""
    grouped: dict[int, list[str]] = {}
    for finding in getattr(listing, "findings", ()):
        if finding.path.startswith("$.tools["):
            try:
                index = int(finding.path[len("$.tools[") :].split("]", 1)[0])
            except ValueError:
                continue
            grouped.setdefault(index, []).append(str(finding))
    return grouped


class ToolListModel(QAbstractListModel):
    judged = Signal()  # every row has its verdict (or no host is chosen)

    def __init__(self) -> None:
        super().__init__()
        self.all: list[ToolRow] = []
        self.visible: list[ToolRow] = []
        self._query = ""
        self.icons: IconSource | None = None  # the server's tool icons, when the list is given a source
        self.host = ""  # the host check's host, "" for none
        self._judging: tuple[Judge, list[ToolRow], int] | None = None  # the judge, its rows, the next row
        self._turn = QTimer(self, singleShot=True, interval=0)
        self._turn.timeout.connect(self._judge_some)
        self.server_name = "server"  # as a host names the server (Claude Code's mcp__<server>__ prefix)
        self.most_lines = 1  # the most lines a row's text has: every row is given their height

    def _count_lines(self) -> None:
        badged = any(row.badges for row in self.all)
        self.most_lines = 1 + badged + bool(self.host)

    def set_listing(self, listing: Any) -> None:
        grouped = findings_by_tool(listing)
        self.beginResetModel()
        self.all = [ToolRow.from_tool(tool, grouped.get(i, [])) for i, tool in enumerate(listing.tools)]
        self._judge()
        self._count_lines()
        self._apply()
        self.endResetModel()

    def set_host(self, host: str, server_name: str | None = None) -> None:
        """Judge every tool by ``host``'s rules ("" for none)."""
        self.beginResetModel()
        self.host = host if host in HOSTS else ""
        if server_name:
            self.server_name = server_name
        self._judge()
        self._count_lines()
        self.endResetModel()

    def _judge(self) -> None:
        """Judge the rows by the host check's host: a long list a slice per event-loop turn (a slice takes
        ~10 ms; 5,000 tools at once would hold the window ~0.3 s), `judged` emitted when all are."""
        label = HOSTS[self.host].label if self.host else ""
        for row in self.all:
            row.verdict, row.host_label = None, label
        rows = [r for r in self.all if isinstance(r.tool, dict)]
        self._judging = (Judge([r.tool for r in rows], self.host, self.server_name), rows, 0) if self.host else None
        self._judge_some(emit=False)

    def _judge_some(self, emit: bool = True) -> None:
        if self._judging is None:
            self.judged.emit()
            return
        judge, rows, start = self._judging
        stop = min(start + JUDGED_PER_TURN, len(rows))
        for index in range(start, stop):
            rows[index].verdict = judge.verdict(index)
        if emit and self.visible:
            self.dataChanged.emit(self.index(0), self.index(len(self.visible) - 1), [Qt.ItemDataRole.DisplayRole])
        self._judging = (judge, rows, stop) if stop < len(rows) else None
        if self._judging is not None:
            self._turn.start()
        else:
            self.judged.emit()

    def judging(self) -> bool:
        return self._judging is not None

    def refused(self) -> int:
        return sum(1 for row in self.all if row.verdict is not None and row.verdict.outcome == REFUSED)

    def set_query(self, query: str) -> None:
        self.beginResetModel()
        self._query = query.strip().lower()
        self._apply()
        self.endResetModel()

    def _apply(self) -> None:
        words = self._query.split()
        self.visible = [row for row in self.all if row.matches(words)]

    def row_of(self, name: str) -> int:
        return next((i for i, row in enumerate(self.visible) if row.name == name), -1)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.visible)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.visible[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return shown(row.label(), limit=3 * TITLE_CHARS)  # (badges and the host's verdict on lines below)
        if role == Qt.ItemDataRole.ToolTipRole:
            text = row.description[:600] or "(no description)"  # the whole name first: the list may cut it
            head = shown(row.head(), limit=2 * TITLE_CHARS)
            return plain_tooltip("Tool", "\n".join([head, "", text, *row.findings, *row.verdict_detail()]))
        if role == Qt.ItemDataRole.DecorationRole:
            return self.icons.icon(row.tool, ICON_SIDE) if self.icons is not None else None
        if role == Qt.ItemDataRole.ForegroundRole and "destructive" in row.badges:
            return QColor(200, 60, 60)
        if role == Qt.ItemDataRole.UserRole:
            return row
        return None


class RowDelegate(QStyledItemDelegate):
    """Every row as tall as the tallest row's text: the list's rows share one size (`setUniformItemSizes`), which
    Qt takes from the last row, and a read-only tool's verdict line would be cut under a last row without badges."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        model = index.model()
        text = index.data(Qt.ItemDataRole.DisplayRole)
        missing = getattr(model, "most_lines", 1) - (str(text).count("\n") + 1 if text else 1)
        if missing > 0:
            size.setHeight(size.height() + missing * option.fontMetrics.lineSpacing())
        return size


class ToolList(QWidget):
    """Search box over a list of tools. Emits `toolSelected(ToolRow | None)`."""

    toolSelected = Signal(object)

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit()
        self.search.setObjectName("toolSearch")
        self.search.setAccessibleName("Search tools")
        self.search.setPlaceholderText("Search tools (name, title, description)")
        self.search.setClearButtonEnabled(True)
        self.host_check = HostCheck(settings)
        self.model = ToolListModel()
        self.model.host = self.host_check.host_name()
        self.view = QListView()
        self.view.setObjectName("toolList")
        self.view.setAccessibleName("Tool list")
        self.view.setModel(self.model)
        self.view.setItemDelegate(RowDelegate(self.view))
        # A name too long for the list is cut at its end (its tooltip has it whole), never mid-word, and the
        # list never scrolls sideways: its width is the splitter's (`ToolWorkbench.fit_tool_list`).
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setAlternatingRowColors(True)
        # Every row is one line with an icon: without this Qt asks each row's size (~8 data() calls a row,
        # seconds for 5,000 tools) before it paints the first.
        self.view.setUniformItemSizes(True)
        self.view.setIconSize(QSize(ICON_SIDE, ICON_SIDE))
        self.count = QLabel("No tools listed yet.")
        self.count.setWordWrap(True)  # the list stays narrow enough for a small window
        self.count.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search)
        layout.addWidget(self.host_check)
        layout.addWidget(self.view)
        layout.addWidget(self.count)
        self.search.textChanged.connect(self._on_search)
        self.host_check.hostChanged.connect(self._on_host)
        self.model.judged.connect(self._on_judged)
        self.view.selectionModel().currentChanged.connect(self._on_current)
        self._current: str | None = None
        self._listed = 0  # whether a listing came (the count line says "No tools listed yet." until then)

    def use_icons(self, icons: IconSource) -> None:
        """Show the server's tool icons from `icons` (redrawn when one arrives)."""
        self.model.icons = icons
        icons.changed.connect(self._icons_changed)

    def _icons_changed(self) -> None:
        if self.model.visible:
            last = self.model.index(len(self.model.visible) - 1)
            self.model.dataChanged.emit(self.model.index(0), last, [Qt.ItemDataRole.DecorationRole])

    def set_listing(self, listing: Any, server_name: str | None = None) -> None:
        """Show a new listing; the selection stays on the same tool name when it still exists. ``server_name``
        is the name hosts give the server (Claude Code prefixes tool names with it)."""
        if server_name:
            self.model.server_name = server_name
        if self.model.icons is not None:
            self.model.icons.note("tools", getattr(listing, "tools", ()))
        keep = self._current
        self.model.set_listing(listing)
        self._reselect(keep)
        self._listed = 1
        self._count()

    def set_server_name(self, name: str) -> None:
        """The name hosts give this server (Claude Code prefixes tool names with it)."""
        if name and name != self.model.server_name:
            self.model.set_host(self.model.host, name)

    def _on_host(self, host: str) -> None:
        keep = self._current
        self.model.set_host(host)
        self._reselect(keep)
        if self._listed:
            self._count()

    def _on_judged(self) -> None:
        if self._listed:
            self._count()

    def _count(self) -> None:
        flagged = sum(1 for row in self.model.all if row.findings)
        extra = f", {flagged} with findings" if flagged else ""
        if self.model.host:
            label = HOSTS[self.model.host].label
            extra += (
                f", judging for {label}…" if self.model.judging() else f", {self.model.refused()} refused by {label}"
            )
        self.count.setText(f"{counted(len(self.model.all), 'tool')}{extra}")

    def fitting_width(self) -> int:
        """The width at which every row shows whole (the view's frame, margins and scroll bar included)."""
        metrics = self.view.fontMetrics()
        heads = heapq.nlargest(MEASURED_HEADS, (row.head() for row in self.model.all), key=len)
        text = max((metrics.horizontalAdvance(head) for head in heads), default=0)
        if self.model.icons is not None and any(icons_of(row.tool) for row in self.model.all):
            text += ICON_SIDE + 6  # the icon and its gap
        style = self.view.style()
        chrome = 2 * self.view.frameWidth() + style.pixelMetric(style.PixelMetric.PM_ScrollBarExtent)
        return text + chrome + 4 * style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin) + 8

    def clear(self) -> None:
        self.model.set_listing(type("Empty", (), {"tools": [], "findings": []})())
        self.count.setText("No tools listed yet.")
        self._listed = 0
        self._current = None
        self.toolSelected.emit(None)

    def current(self) -> ToolRow | None:
        index = self.view.currentIndex()
        return self.model.data(index, Qt.ItemDataRole.UserRole) if index.isValid() else None

    def select(self, name: str) -> bool:
        return self._reselect(name)

    def _reselect(self, name: str | None) -> bool:
        row = self.model.row_of(name) if name else -1
        if row < 0:
            if self._current is not None:
                self._current = None
                self.toolSelected.emit(None)
            return False
        self.view.setCurrentIndex(self.model.index(row))
        return True

    def _on_search(self, text: str) -> None:
        keep = self._current
        self.model.set_query(text)
        if keep and not self._reselect(keep) and self.model.visible:
            self.view.setCurrentIndex(self.model.index(0))

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        row = self.model.data(current, Qt.ItemDataRole.UserRole) if current.isValid() else None
        self._current = row.name if row else None
        self.toolSelected.emit(row)
