"""The stacked bar per tool (description / schema / rest), its legend and a chart of the biggest tools."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QHelpEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QToolTip, QWidget

from inspector.budget.breakdown import ToolCost
from inspector.ui.budget.common import SEGMENTS
from inspector.ui.budget.tools_model import COST_ROLE
from inspector.ui.widgets.flow_layout import FlowLayout, group
from inspector.ui.widgets.plain_text import item_text, plain_tooltip


def segments(cost: ToolCost) -> list[tuple[int, QColor]]:
    values = (cost.description_tokens, cost.schema_tokens, cost.rest_tokens)
    return [(max(0, value), color) for value, (_name, color) in zip(values, SEGMENTS, strict=True)]


def paint_stack(painter: QPainter, rect: QRectF, cost: ToolCost, scale_max: int) -> None:
    """Paint `cost` as a stacked bar in `rect`; the full width stands for `scale_max` tokens."""
    if scale_max <= 0:
        return
    x = rect.left()
    for value, color in segments(cost):
        width = rect.width() * value / scale_max
        if width > 0:
            painter.fillRect(QRectF(x, rect.top(), width, rect.height()), color)
            x += width


class StackedBarDelegate(QStyledItemDelegate):
    """Paints the Breakdown column; bars share one scale (the biggest tool) so rows compare."""

    def __init__(self, scale_of: Any, parent: Any = None) -> None:
        super().__init__(parent)
        self.scale_of = scale_of

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex):
        cost = index.data(COST_ROLE)
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        if not isinstance(cost, ToolCost):
            return
        painter.save()
        rect = QRectF(option.rect).adjusted(4, 5, -4, -5)
        paint_stack(painter, rect, cost, self.scale_of())
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(180, 22)


LEGEND_TIPS = {
    "description": "Tokens of the tool's description",
    "schema": "Tokens of the input and output schemas",
    "rest": "Everything else: name, title, annotations and the JSON around them",
}


class Legend(QWidget):
    """Swatches that name the bar's colours."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = FlowLayout(self, spacing=14)  # wraps rather than clips or widens the window when narrow
        for name, color in SEGMENTS:
            swatch = QLabel()
            swatch.setFixedSize(12, 12)
            swatch.setStyleSheet(f"background: {color.name()}; border: 1px solid #00000040;")
            text = QLabel(name)
            text.setTextFormat(Qt.TextFormat.PlainText)
            entry = group(swatch, text)
            entry.setToolTip(LEGEND_TIPS[name])
            layout.addWidget(entry)


class TopToolsChart(QWidget):
    """A horizontal bar chart of the biggest tools, stacked like the table's bars. Painted, not QtCharts."""

    def __init__(self, limit: int = 12, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.limit = limit
        self.costs: list[ToolCost] = []
        self.names: list[str] = []  # each cost's name as drawn
        self.title = "Biggest tools"
        self.elide = Qt.TextElideMode.ElideRight  # the start of a name identifies it; the tooltip has it whole
        self.prefixed = False  # a host prefixes every name alike ("mcp__server__"): said once, in the title
        self._rows: list[tuple[float, float, str]] = []  # each drawn bar's top, bottom and whole name
        self.setMinimumHeight(80)  # the title and three bars: the Budget tab fits a 1024×700 window

    def set_costs(self, costs: list[ToolCost], title: str = "Biggest tools") -> None:
        self.costs = sorted(costs, key=lambda cost: cost.total, reverse=True)[: self.limit]
        self.names = [item_text(cost.name) for cost in self.costs]  # a server's names: drawn visibly, never obeyed
        self.title = title
        self.update()

    def prefix(self) -> str:
        """The host's prefix every drawn name shares, up to its last "__" ("mcp__server__"); "" without one."""
        if not self.prefixed or not self.names:
            return ""
        first, last = min(self.names), max(self.names)  # what these two share, every name between shares
        common = first[: next((i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first))]
        return common[: common.rfind("__") + 2] if "__" in common else ""

    def name_at(self, point: QPoint) -> str | None:
        """The whole name of the bar drawn at `point`, if any."""
        return next((name for top, bottom, name in self._rows if top <= point.y() < bottom), None)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            name = self.name_at(event.pos())
            if name is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), plain_tooltip("Tool", name), self)
            return True
        return super().event(event)

    def sizeHint(self) -> QSize:
        return QSize(420, 320)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text_color = palette.color(QPalette.ColorRole.Text)
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        painter.setPen(text_color)
        prefix = self.prefix()
        title = f"{self.title}, names after {prefix}" if prefix else self.title
        painter.drawText(
            8, 6 + metrics.ascent(), metrics.elidedText(title, Qt.TextElideMode.ElideRight, self.width() - 16)
        )
        self._rows = []
        if not self.costs:
            painter.drawText(8, 12 + line + metrics.ascent(), "No tools to chart")
            return
        top = 14 + line
        available = self.height() - top - 6
        row = max(line + 2, min(2 * line, available / max(1, len(self.costs))))
        shown = [c for i, c in enumerate(self.costs) if top + (i + 1) * row <= self.height()]
        names = [n[len(prefix) :] for n in self.names[: len(shown)]]
        label_width = (
            min(max(metrics.horizontalAdvance(n) for n in names) + 12, int(self.width() * 0.45)) if shown else 0
        )
        value_width = metrics.horizontalAdvance("999,999") + 10
        bar_left = 8 + label_width
        bar_width = max(10, self.width() - bar_left - value_width - 8)
        scale = max(c.total for c in self.costs)
        for i, cost in enumerate(shown):
            y = top + i * row
            name = metrics.elidedText(names[i], self.elide, label_width - 8)
            self._rows.append((y, y + row, self.names[i]))
            painter.setPen(text_color)
            baseline = int(y + (row + metrics.ascent() - metrics.descent()) / 2)
            painter.drawText(8, baseline, name)
            bar = QRectF(bar_left, y + row * 0.18, bar_width, row * 0.64)
            paint_stack(painter, bar, cost, scale)
            painter.setPen(text_color)
            end = bar_left + bar_width * cost.total / scale if scale else bar_left
            painter.drawText(int(end + 4), baseline, f"{cost.total:,}")
