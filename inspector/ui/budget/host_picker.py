"""The Budget tab's host picker and the host's view as a report the tab's views show.

Choosing a host recounts the list as that host sends it (`inspector.budget.hosts.host_view`): the tools
table shows the host's names and figures, and the host's findings join the lints, each saying whether its
rule is confirmed and where it comes from; so do the host's verdicts (`inspector.budget.acceptance`): how
many tools it accepts, changes and refuses, and a lint for each one it refuses or changes by a schema rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QComboBox, QWidget

from inspector.budget.acceptance import ACCEPTED, REFUSED, HostAcceptance, acceptance
from inspector.budget.breakdown import BudgetCounter, BudgetReport
from inspector.budget.host_rules import DESCRIPTION_MAX, HOSTS, NAME_MAX, NAME_PATTERN, TOOL_CAP, TOOL_SEARCH, Host
from inspector.budget.hosts import HostFinding, host_diff, host_view
from inspector.budget.lints import Lint
from inspector.budget.snapshot import SnapshotDiff, diff_tools
from inspector.ui.budget.common import compact_combo, fmt_share, fmt_window
from inspector.words import counted

NO_HOST = ""
SETTING = "budget/host"
SEARCH_SETTING = "budget/toolSearch"


class HostPicker(QComboBox):
    """`hostChanged(choice)` ("" for the raw list, else `choice()`); the choice persists under ``budget/host``.

    `tool_search` is its companion for hosts with tool search (Claude Code): on (the host's default),
    auto (the threshold) or off; shown only for such a host, remembered under ``budget/toolSearch``.
    """

    hostChanged = Signal(str)

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setObjectName("budgetHost")
        self.setAccessibleName("Host")
        self.setToolTip(
            "Count the list as a host sends it: renamed, truncated, capped or deferred by that host's rules "
            "(each with its source; unconfirmed rules say so)"
        )
        self.addItem("None (raw list)", NO_HOST)
        for host in HOSTS.values():
            self.addItem(host.label, host.name)
        compact_combo(self, 12)
        index = self.findData(str(settings.value(SETTING, NO_HOST)))
        self.setCurrentIndex(max(0, index))
        self.tool_search = QComboBox()
        self.tool_search.setObjectName("budgetToolSearch")
        self.tool_search.setAccessibleName("Tool search")
        self.tool_search.setToolTip(
            "Claude Code's tool search (ENABLE_TOOL_SEARCH): on defers every tool (only names load); auto loads "
            "them while they fit within 10% of the window and defers the rest; off loads them all"
        )
        for label, mode in (("Tool search on", "on"), ("Tool search auto", "auto"), ("Tool search off", "off")):
            self.tool_search.addItem(label, mode)
        self.tool_search.setCurrentIndex(max(0, self.tool_search.findData(str(settings.value(SEARCH_SETTING, "on")))))
        self._show_tool_search()
        self.currentIndexChanged.connect(self._changed)
        self.tool_search.currentIndexChanged.connect(self._changed)

    def host_name(self) -> str:
        return str(self.currentData() or NO_HOST)

    def host(self) -> Host | None:
        """The chosen host's rules; None for the raw list."""
        return HOSTS.get(self.host_name())

    def choice(self) -> str:
        """The host, with ``:mode`` for a host with tool search (``claude-code:auto``); "" for the raw list."""
        name, host = self.host_name(), self.host()
        if host is None or host.rule(TOOL_SEARCH) is None:
            return name
        return f"{name}:{self.tool_search.currentData()}"

    def _show_tool_search(self) -> None:
        host = self.host()
        self.tool_search.setVisible(host is not None and host.rule(TOOL_SEARCH) is not None)

    def set_host(self, name: str) -> None:
        self.setCurrentIndex(max(0, self.findData(name)))

    def _changed(self) -> None:
        self.settings.setValue(SETTING, self.host_name())
        self.settings.setValue(SEARCH_SETTING, self.tool_search.currentData())
        self._show_tool_search()
        self.hostChanged.emit(self.choice())


@dataclass
class HostReport(BudgetReport):
    """A `BudgetReport` of a host's view: tools named as the host names them, host findings among the lints."""

    host: str = ""
    host_label: str = ""
    raw_total: int = 0
    raw_names: dict[str, str] = field(default_factory=dict)  # host name → the server's name

    @property
    def delta(self) -> int:
        return self.grand_total - self.raw_total


def finding_lint(finding: HostFinding) -> Lint:
    where = f" — {finding.rule.source} (checked {finding.rule.checked})" if finding.rule is not None else ""
    return Lint(
        f"host-{finding.kind}",
        finding.severity,
        finding.tool,
        "$.tools",
        f"[{finding.status}] {finding.message}{where}",
    )


SAID_BY_HOST_VIEW = {NAME_MAX, NAME_PATTERN, DESCRIPTION_MAX, TOOL_CAP}  # `host_view` finds these already


def acceptance_lints(judged: HostAcceptance) -> list[Lint]:
    """The host's verdicts as lints: first how many tools it accepts, changes and refuses, then each reason the
    host view's own findings do not already say (schema rules, OpenAI's description limit)."""
    counts = judged.counts()
    total = len(judged.verdicts)
    label = judged.host.label
    head = (
        f"{label} accepts every tool as is ({total})"
        if counts[ACCEPTED] == total
        else f"{label} refuses {counts[REFUSED]} of {counted(total, 'tool')}, changes {counts['changed']}, "
        f"accepts {counts[ACCEPTED]} as is"
    )
    lints = [Lint("host-acceptance", "error" if counts[REFUSED] else "info", None, "$.tools", head)]
    for verdict in judged.verdicts:
        for reason in verdict.reasons:
            if reason.rule.key in SAID_BY_HOST_VIEW:
                continue
            where = f" — {reason.rule.source} (checked {reason.rule.checked})"
            lints.append(
                Lint(
                    f"host-{reason.outcome}",
                    "error" if reason.outcome == REFUSED else "warning",
                    verdict.tool,
                    "$.tools",
                    f"[{reason.rule.status}] {label} {reason.outcome} {verdict.tool!r}: {reason.message}{where}",
                )
            )
    return lints


def host_report(
    counter: BudgetCounter, tools: list[dict[str, Any]], host: str, server: str, window: int, *, raw_names: bool = False
) -> HostReport:
    """Count ``tools`` as ``host`` (a `HostPicker.choice`, ``name[:tool search mode]``) sends them for
    ``server`` (worker thread: no Qt here); ``raw_names`` keeps the server's tool names on the rows (Compare
    lines tools up by name across servers)."""
    name, _, mode = host.partition(":")
    view = host_view(tools, name, server, counter=counter, window=window, tool_search=mode or None)
    base = view.report
    costs = [replace(t.cost, name=t.name) for t in view.tools] if raw_names else base.tools
    same = {f.name: getattr(base, f.name) for f in fields(BudgetReport)}  # figure words, labels, …
    judged = acceptance_lints(acceptance(tools, view.host, server))
    same.update(
        tools=costs, lints=judged[:1] + [finding_lint(f) for f in view.findings] + judged[1:] + list(base.lints)
    )
    return HostReport(
        **same,
        host=view.host.name,
        host_label=view.host.label,
        raw_total=view.raw_total,
        raw_names={t.host_name: t.name for t in view.tools},
    )


def host_totals_text(report: HostReport, window: int, how: str) -> str:
    delta = report.delta
    change = (
        "the same as the raw tools/list"
        if delta == 0
        else f"{abs(delta):,} {'fewer' if delta < 0 else 'more'} than the raw tools/list ({report.raw_total:,})"
    )
    prefix = next((h[: -len(raw)] for h, raw in report.raw_names.items() if h != raw and h.endswith(raw)), "")
    named = f" (named {prefix}…)" if prefix else ""  # the table elides the prefix: say it once here
    return (
        f"{counted(len(report.tools), 'tool')} · {counted(report.grand_total, 'token', grouped=True)} as "
        f"{report.host_label} sends them{named} · {change}"
        f" · {fmt_share(report.share(window))} of a {fmt_window(window)} window · {how}"
    )


def host_group(picker: HostPicker) -> QWidget:
    """The picker with its "Host" label, for the pickers' flow layout."""
    from PySide6.QtWidgets import QLabel

    from inspector.ui.widgets.flow_layout import group

    return group(QLabel("Host"), picker, picker.tool_search)


def report_for(
    counter: BudgetCounter,
    tools: list[dict[str, Any]],
    shape: str,
    host: str,
    server: str,
    window: int,
    *,
    raw_names: bool = False,
) -> BudgetReport:
    """``tools`` counted in ``shape``, or as ``host`` sends them when one is chosen (Compare and the lab)."""
    if host:
        return host_report(counter, tools, host, server, window, raw_names=raw_names)
    return counter.report(tools, shape)


def diff_for(
    counter: BudgetCounter,
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    shape: str,
    host: str,
    server: str,
    window: int,
) -> SnapshotDiff:
    """The Diff view's comparison: in ``shape``, or of the two lists as ``host`` sends them."""
    if host:
        name, _, mode = host.partition(":")
        return host_diff(old, new, name, server, counter=counter, window=window, tool_search=mode or None)
    return diff_tools(old, new, counter, shape)
