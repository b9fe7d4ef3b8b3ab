"""The Budget tab: what the connected server's tool list costs in the context window.

Sub-views: the tools table with the chart and the lints, Compare (servers side by side), Diff
(snapshots) and the Description lab. Counting runs off the UI thread (`engine.ReportRunner`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.breakdown import BudgetReport
from inspector.budget.host_rules import NAME_PREFIX
from inspector.budget.hosts import host_encoding
from inspector.budget.skills_cost import host_skills_cost, host_skills_words, skills_cost, skills_words
from inspector.budget.snapshot import SnapshotDiff
from inspector.budget.tokenizers import describe_figure
from inspector.ui.budget.claude_bar import CLAUDE, ClaudeBar
from inspector.ui.budget.common import fmt_share, fmt_window
from inspector.ui.budget.engine import ANTHROPIC, Job, ReportRunner, offline_or_fallback
from inspector.ui.budget.host_picker import (
    HostPicker,
    HostReport,
    diff_for,
    host_group,
    host_totals_text,
    report_for,
)
from inspector.ui.budget.overview import BudgetOverview
from inspector.ui.budget.pickers import SHAPE_LABELS, BudgetPickers
from inspector.ui.session import SessionController
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import item_text, plain_label, plain_tooltip
from inspector.words import counted

SHORT_VIEW = 48  # px: the least height of a list or text box in the pane


def exactness(report: BudgetReport) -> tuple[bool, str]:
    """Whether the count is exact for the shape's model family, and the words that say what it is (the
    same words as ``mcp-lens tokens``: `describe_figure`)."""
    return describe_figure(report)


PREVIOUS = "Previous count, counting again: "  # the figures a recount will replace


def totals_text(report: BudgetReport, tools: int, window: int) -> str:
    _exact, how = exactness(report)
    if isinstance(report, HostReport):
        return host_totals_text(report, window, how)
    overhead = f" + {report.overhead:,} fixed tool-use overhead" if report.overhead else ""
    share = fmt_share(report.share(window))
    return (
        f"{counted(tools, 'tool')} · {counted(report.total, 'token', grouped=True)} as "
        f"{SHAPE_LABELS.get(report.shape, report.shape)}{overhead}"
        f" · {share} of a {fmt_window(window)} window · {how}"
    )


class BudgetPane(QWidget):
    """`reportChanged(report)` after every recount; `report` is None until the first one."""

    reportChanged = Signal(object)

    def __init__(
        self,
        session: SessionController,
        settings: QSettings,
        profiles: Callable[[], list[Any]] = list,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("budgetPane")
        self.session = session
        self.settings = settings
        self.profiles = profiles
        self.tools: list[dict[str, Any]] = []
        # The tools of another live session by server name (set by the workspace): Compare uses them
        # instead of connecting a second time.
        self.live_tools: Callable[[str], list[dict[str, Any]] | None] = lambda _name: None
        self.server = ""
        self.report: BudgetReport | None = None
        self.skills: list[Any] | None = None  # the server's skills/list entries, once the Skills tab listed them
        self.report_server: str | None = None  # the server whose list `report` counted
        self.last_seconds = 0.0
        self.stale = False
        self._dirty = False

        self.pickers = BudgetPickers(settings)
        self.host_picker = HostPicker(settings)
        self.pickers.layout().addWidget(host_group(self.host_picker))
        self.claude = ClaudeBar(settings, self)
        self.pickers.layout().addWidget(self.claude)  # beside the host when there is room: one row less
        self.count_button = QPushButton("Count with Anthropic")
        self.count_button.setObjectName("budgetCountOnline")
        self.count_button.setToolTip("Sends the tool list to Anthropic's count_tokens API (uses ANTHROPIC_API_KEY)")
        self.server_label = plain_label("No server connected", selectable=True)
        self.server_label.setMaximumWidth(260)  # a long server name is clipped, never widens the window
        font = self.server_label.font()
        font.setBold(True)
        self.server_label.setFont(font)
        # Two lines when it needs them (a host's figures are long), then elided: whole in its tooltip.
        self.totals = ElidedLabel("Connect to a server to see what its tool list costs.", lines=2)
        self.totals.setObjectName("budgetTotals")
        self.totals.setAccessibleName("Budget totals")
        self.note = ElidedLabel()  # one line, whole in its tooltip: the table below keeps its rows
        self.note.setObjectName("budgetNote")
        self.note.setAccessibleName("Budget note")
        italic = self.note.font()
        italic.setItalic(True)
        self.note.setFont(italic)
        self.status = plain_label(selectable=True)
        self.status.setObjectName("budgetStatus")
        self.status.setAccessibleName("Budget status")
        self.runner = ReportRunner(self)
        self.runner.host_of = lambda: (self.host_picker.choice(), self.server, self.window_tokens())
        self.overview = BudgetOverview()
        self.views = QTabWidget()
        self.views.setObjectName("budgetViews")
        self.views.setDocumentMode(True)
        self.views.addTab(self.overview, "Tools")
        self._build_layout()
        self._add_views()
        for kind in (QTableView, QPlainTextEdit):  # tables and text boxes may shrink to a few lines,
            for view in self.views.findChildren(kind):  # so that the window still fits a small screen
                if view.minimumHeight() == 0:
                    view.setMinimumHeight(SHORT_VIEW)

        self.pickers.changed.connect(self.recompute)
        self.host_picker.hostChanged.connect(self._host_changed)
        self._show_host_shape()
        self.claude.changed.connect(self.recompute)
        self.overview.editRequested.connect(self.edit_in_lab)
        self.pickers.windowChanged.connect(self._window_changed)
        self.count_button.clicked.connect(lambda: self.recompute(explicit=True))
        self.runner.ready.connect(self._on_report)
        self.runner.failed.connect(self._on_failed)
        self.runner.busyChanged.connect(self._on_busy)
        session.toolsChanged.connect(self._on_listing)
        session.stateChanged.connect(self._on_state)
        self._update_count_button()

    def _build_layout(self) -> None:
        self.top = QHBoxLayout()
        self.top.addWidget(self.pickers, 1)
        self.top.addWidget(self.count_button)
        head = QHBoxLayout()
        head.addWidget(self.server_label)
        head.addWidget(self.totals, 1)
        head.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)  # the tab's frame is margin enough
        layout.setSpacing(2)  # tight rows: the tools table keeps four rows in an 800×700 window
        layout.addLayout(self.top)
        layout.addWidget(self.claude.result)
        layout.addLayout(head)
        layout.addWidget(self.note)
        layout.addWidget(self.views, 1)

    def _add_views(self) -> None:
        from inspector.ui.budget.compare_view import CompareView
        from inspector.ui.budget.diff_view import DiffView
        from inspector.ui.budget.lab import DescriptionLab
        from inspector.ui.budget.snapshots import SnapshotActions

        self.compare = CompareView(self)
        self.diff = DiffView(self)
        self.lab = DescriptionLab(self)
        self.snapshots = SnapshotActions(self)
        self.views.addTab(self.compare, "Compare")
        self.views.addTab(self.diff, "Diff")
        self.views.addTab(self.lab, "Description lab")
        self.actions_by_name: dict[str, QAction] = {}
        for key, text, slot, tip in (
            ("save", "Save tool list snapshot…", self.snapshots.save_dialog, "Ctrl+Shift+S"),
            ("diff", "Diff snapshots…", self.snapshots.diff_dialog, "Ctrl+Shift+F"),
            ("lab", "Description lab", lambda: self.views.setCurrentWidget(self.lab), "Ctrl+Shift+L"),
            ("compare", "Compare servers", lambda: self.views.setCurrentWidget(self.compare), "Ctrl+Shift+M"),
        ):
            action = QAction(text, self)
            action.setShortcut(QKeySequence(tip))
            action.triggered.connect(slot)
            self.addAction(action)
            self.actions_by_name[key] = action
        corner = QWidget()  # beside the view tabs, not in the top row: the pane stays narrow
        buttons = QHBoxLayout(corner)
        buttons.setContentsMargins(0, 0, 0, 2)
        for key, label in (("save", "Snapshot…"), ("diff", "Diff…")):
            action = self.actions_by_name[key]
            button = QPushButton(label)
            button.setToolTip(f"{action.text()} ({action.shortcut().toString()})")
            button.clicked.connect(action.trigger)
            buttons.addWidget(button)
        self.views.setCornerWidget(corner, Qt.Corner.TopRightCorner)

    def edit_in_lab(self, tool: str) -> None:
        tool = getattr(self.report, "raw_names", {}).get(tool, tool)  # a host's name → the server's
        self.views.setCurrentWidget(self.lab)
        self.lab.select(tool)
        self.lab.editor.setFocus()

    # -- inputs ------------------------------------------------------------------------------
    def _on_listing(self, listing: Any) -> None:
        profile = self.session.profile
        tools = [tool for tool in getattr(listing, "tools", []) if isinstance(tool, dict)]
        self.set_tools(tools, profile.name if profile is not None else "server")

    def _on_state(self, state: str, _detail: str) -> None:
        if state != "connected" and self.tools:
            self.server_label.setText(f"{item_text(self.server)} (last list; {state})")

    def set_tools(self, tools: list[dict[str, Any]], server: str) -> None:
        same_server = server == self.server
        if not same_server:
            self.claude.server_changed()
        self.tools, self.server = tools, server
        self.server_label.setText(item_text(server))  # a name from a config file: one visible line
        self.server_label.setToolTip(plain_tooltip("Server", item_text(server)))
        self.recompute()
        self.lab.set_tools(tools, keep_edits=same_server)
        self.compare.current_changed()

    # -- counting ----------------------------------------------------------------------------
    def tokenizer_name(self) -> str:
        """The tokenizer's key: its name, or ``claude:MODEL`` for the Claude model chosen."""
        name = self.pickers.tokenizer_name()
        return f"{CLAUDE}:{self.claude.model_id()}" if name == CLAUDE else name

    def shape(self) -> str:
        """The chosen shape, or the chosen host's (a host decides how it serialises the list)."""
        host = self.host_picker.host()
        return host.shape if host is not None else self.pickers.shape_name()

    def host_context(self) -> tuple[str, str, int]:
        """(host, server, window): the host chosen ("" for none), the server's name it prefixes, the window."""
        return self.host_picker.choice(), self.server, self.window_tokens()

    def host_key(self) -> tuple[str, int]:
        """What a host's figures depend on besides the list: the host and, with one, the window."""
        host = self.host_picker.choice()
        return (host, self.window_tokens()) if host else ("", 0)

    def count(self, counter: Any, tools: list[dict[str, Any]]) -> BudgetReport:
        """``tools`` as the tab counts them now: in the chosen shape, or as the chosen host sends them."""
        return report_for(counter, tools, self.shape(), *self.host_context())

    def diff_lists(self, counter: Any, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> SnapshotDiff:
        return diff_for(counter, old, new, self.shape(), *self.host_context())

    def _host_changed(self, _host: str) -> None:
        self._show_host_shape()
        chosen = self.pickers.tokenizer_name()
        wanted = host_encoding(self.host_picker.host(), chosen)  # a Claude host: Claude's counter
        if wanted and wanted != chosen and self.pickers.set_tokenizer(wanted):
            return  # the picker's change recounts
        self.recompute()

    def _show_host_shape(self) -> None:
        """While a host is chosen the Shape picker shows the host's shape, disabled (the user's own is kept)."""
        host = self.host_picker.host()
        box = self.pickers.shape
        shape = host.shape if host is not None else str(self.settings.value("budget/shape", "mcp"))
        box.blockSignals(True)  # not a choice of the user's: nothing saved, nothing recounted
        box.setCurrentIndex(max(0, box.findData(shape)))
        box.blockSignals(False)
        box.setEnabled(host is None)
        # A host's prefix is the same on every name: elide it, keep the end that tells tools apart.
        prefixed = host is not None and host.rule(NAME_PREFIX) is not None
        mode = Qt.TextElideMode.ElideLeft if prefixed else Qt.TextElideMode.ElideMiddle
        self.overview.table.setTextElideMode(mode)
        self.overview.chart.prefixed = prefixed  # the chart says the prefix once and draws what follows
        self.overview.chart.update()

    def window_tokens(self) -> int:
        return self.pickers.window_tokens()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._dirty:
            self.recompute()

    def recompute(self, *, explicit: bool = False) -> None:
        """Count again; while the tab is hidden this waits until it is shown (no work for unseen figures)."""
        self._update_count_button()
        self._dirty = not self.isVisible() and not explicit
        if self._dirty:
            return
        if self.tokenizer_name() == ANTHROPIC and not explicit:
            self.stale = True
            self.totals.setText(
                "The Anthropic counter sends the tool list to api.anthropic.com: press “Count with Anthropic”."
            )
            return
        self.stale = False
        self.runner.request(Job(list(self.tools), self.tokenizer_name(), self.shape(), server=self.claude.server_key()))
        if self.runner.busy:
            self._say_counting()
        self.compare.settings_changed()
        self.lab.settings_changed()

    def _window_changed(self) -> None:
        if self.host_picker.host_name():  # a host's deferral threshold is a share of the window: recount
            self.recompute()
            return
        if self.report is not None and not self.stale:
            self._show_totals(self.report)  # the share of the new window, the skills figure kept
        self.compare.settings_changed()

    def _update_count_button(self) -> None:
        self.count_button.setVisible(self.tokenizer_name() == ANTHROPIC)
        self.claude.refresh()

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self.status.setText("counting…")
            self._say_counting()

    def _say_counting(self) -> None:
        """Until this server's first count is in, the totals say that it is being counted; a recount (another
        tokenizer, host or shape) marks the figures shown as the previous count until the new one is in."""
        if self.report is None or self.report_server != self.server:
            self.totals.setText(f"Counting {counted(len(self.tools), 'tool', grouped=True)}…")
        elif not self.totals.text().startswith(PREVIOUS):
            self.totals.setText(PREVIOUS + totals_text(self.report, len(self.report.tools), self.window_tokens()))

    def set_skills(self, entries: list[Any] | None) -> None:
        """The server's skills as listed (the Skills tab's `skills/list`): their cost joins the totals."""
        self.skills = entries
        if self.report is not None and not self.stale:
            self._show_totals(self.report)

    def _show_totals(self, report: BudgetReport) -> None:
        text = totals_text(report, len(report.tools), self.window_tokens())
        if self.skills:
            name = self.tokenizer_name()
            counter = self.runner.counters.get(offline_or_fallback(name), self.claude.server_key())
            how = exactness(report)[1] if name != ANTHROPIC else f"estimate — {offline_or_fallback(name)}, offline"
            if isinstance(report, HostReport):  # the host's own rule for its skills listing, or "not known"
                cost = host_skills_cost(self.skills, counter.count, report.host, self.window_tokens())
                text += " · " + host_skills_words(cost, how)
            else:
                text += " · " + skills_words(skills_cost(self.skills, counter.count), how)
        self.totals.setText(text)

    def _on_report(self, report: BudgetReport, seconds: float) -> None:
        self.report, self.last_seconds = report, seconds
        self.report_server = self.server
        self.status.setText(f"counted in {seconds * 1000:.0f} ms")
        self._show_totals(report)
        self.note.setText(getattr(report, "note", "") or "")
        self.overview.show_report(report)
        self.reportChanged.emit(report)

    def _on_failed(self, message: str) -> None:
        self.status.setText("")
        self.totals.setText(f"Could not count: {message}. Pick another tokenizer, or check the message above.")
