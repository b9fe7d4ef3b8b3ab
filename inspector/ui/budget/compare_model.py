"""Servers side by side: one column per source, summary rows on top, then tools aligned by name."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from inspector.budget.breakdown import SHAPES, BudgetReport
from inspector.ui.budget.common import fmt_share, fmt_window
from inspector.ui.budget.pickers import SHAPE_LABELS
from inspector.ui.widgets.plain_text import item_text, safe_tooltip

LOADING, READY, FAILED = "loading", "ready", "failed"


@dataclass
class CompareSource:
    """One column: the connected server, a saved profile fetched briefly, or a snapshot file."""

    label: str
    kind: str  # "current" | "profile" | "snapshot"
    key: str  # profile name or file path; "" for the current server
    state: str = LOADING
    detail: str = "loading…"
    tools: list[dict[str, Any]] = field(default_factory=list)
    reports: dict[str, BudgetReport] = field(default_factory=dict)  # every shape, counted with `tokenizer`
    tokenizer: str = ""
    host: tuple[str, int] = ("", 0)  # the host view counted with the reports (pane.host_key())

    def cost_of(self, shape: str) -> dict[str, int]:
        report = self.reports.get(shape)
        return {cost.name: cost.total for cost in report.tools} if report else {}


class CompareModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.sources: list[CompareSource] = []
        self.shape = "mcp"
        self.window = 128_000
        self.host = ""  # the label of the host whose view stands in its shape's row
        self._rows: list[tuple[str, str]] = []  # (kind, key): ("summary", what) | ("tool", name)
        self._costs: list[dict[str, int]] = []

    def refresh(self, shape: str | None = None, window: int | None = None, host: str | None = None) -> None:
        """`host`: the label of the host whose view stands in `shape`'s place ("" for none)."""
        self.beginResetModel()
        self.shape = shape or self.shape
        self.window = window or self.window
        self.host = self.host if host is None else host
        self._costs = [source.cost_of(self.shape) for source in self.sources]
        summary = ["source", "status", "tools", *(f"tokens:{s}" for s in SHAPES), "share"]
        biggest: dict[str, int] = {}
        for costs in self._costs:
            for name, total in costs.items():
                biggest[name] = max(biggest.get(name, 0), total)
        names = sorted(biggest, key=lambda n: (-biggest[n], n))
        self._rows = [("summary", key) for key in summary] + [("tool", name) for name in names]
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 1 + len(self.sources)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return "" if section == 0 else item_text(self.sources[section - 1].label)
        if role == Qt.ItemDataRole.ToolTipRole and section > 0:
            source = self.sources[section - 1]
            return safe_tooltip(f"{source.label}\n{source.kind}: {source.key or 'the connected server'}")
        return None

    def _shape_label(self, shape: str) -> str:
        """The shape's words; the chosen host's view stands in its shape's row, and says so."""
        words = SHAPE_LABELS.get(shape, shape)
        return f"{self.host} ({words})" if self.host and shape == self.shape else words

    def _row_label(self, kind: str, key: str) -> str:
        if kind == "tool":
            return key
        if key.startswith("tokens:"):
            return f"Tokens — {self._shape_label(key.split(':', 1)[1])}"
        return {
            "source": "Source",
            "status": "Status",
            "tools": "Tools",
            "share": f"Share of {fmt_window(self.window)} ({self._shape_label(self.shape)})",
        }[key]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        kind, key = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.FontRole and kind == "summary":
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column > 0 and key not in ("source", "status"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column > 0 and key == "status":
            return safe_tooltip(self.sources[column - 1].detail)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if column == 0:
            return item_text(self._row_label(kind, key))
        source = self.sources[column - 1]
        if kind == "tool":
            total = self._costs[column - 1].get(key)
            if source.state != READY:
                return ""
            return f"{total:,}" if total is not None else "— absent"
        return item_text(self._summary(source, key))

    def _summary(self, source: CompareSource, key: str) -> str:
        if key == "source":
            return {"current": "connected now", "profile": "saved server", "snapshot": "snapshot file"}[source.kind]
        if key == "status":
            return {LOADING: "… ", FAILED: "✖ failed: "}.get(source.state, "✔ ") + source.detail
        if source.state != READY:
            return ""
        if key == "tools":
            return f"{len(source.tools):,}"
        if key.startswith("tokens:"):
            report = source.reports.get(key.split(":", 1)[1])
            if report is None:
                return "—"
            return f"{report.total:,}" + (f"  (+{report.overhead:,} overhead)" if report.overhead else "")
        report = source.reports.get(self.shape)
        return fmt_share(report.share(self.window)) if report else "—"
