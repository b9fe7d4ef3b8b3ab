"""A painted chart for Compare: per server, its list's tokens in each shape (fixed overhead hatched)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QWidget

from inspector.budget.breakdown import SHAPES
from inspector.ui.budget.compare_model import READY, CompareSource
from inspector.ui.budget.pickers import SHAPE_LABELS
from inspector.ui.widgets.plain_text import item_text

SHAPE_COLORS = {"mcp": QColor("#58a6ff"), "openai": QColor("#3fb950"), "anthropic": QColor("#d2a8ff")}


class CompareChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sources: list[CompareSource] = []
        self.setMinimumWidth(260)

    def set_sources(self, sources: list[CompareSource]) -> None:
        self.sources = [s for s in sources if s.state == READY and s.reports]
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(380, 400)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.Text)
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        painter.setPen(text)
        y = 6 + metrics.ascent()
        painter.drawText(8, y, "Tokens per server and shape")
        y += line // 2
        x = 8
        for shape in SHAPES:  # legend
            painter.fillRect(QRectF(x, y + 3, 10, 10), SHAPE_COLORS[shape])
            label = SHAPE_LABELS[shape]
            painter.drawText(x + 14, y + metrics.ascent(), label)
            x += 14 + metrics.horizontalAdvance(label) + 12
        y += line + 8
        if not self.sources:
            painter.drawText(8, y + metrics.ascent(), "Add servers to compare them here.")
            return
        scale = max(r.total + r.overhead for s in self.sources for r in s.reports.values()) or 1
        value_width = metrics.horizontalAdvance("999,999 + 999") + 8
        width = max(20, self.width() - 16 - value_width)
        bar = max(8, min(line, (self.height() - y) / max(1, len(self.sources)) / 3 - 6))
        for source in self.sources:
            if y + line + 3 * (bar + 3) > self.height():
                break
            painter.setPen(text)
            name = metrics.elidedText(item_text(source.label), Qt.TextElideMode.ElideMiddle, self.width() - 16)
            painter.drawText(8, int(y + metrics.ascent()), name)
            y += line + 2
            for shape in SHAPES:
                report = source.reports.get(shape)
                if report is None:
                    continue
                body = width * report.total / scale
                extra = width * report.overhead / scale
                painter.fillRect(QRectF(8, y, body, bar), SHAPE_COLORS[shape])
                if extra > 0:
                    painter.fillRect(
                        QRectF(8 + body, y, extra, bar), QBrush(SHAPE_COLORS[shape], Qt.BrushStyle.BDiagPattern)
                    )
                painter.setPen(text)
                value = f"{report.total:,}" + (f" + {report.overhead:,}" if report.overhead else "")
                painter.drawText(
                    int(8 + body + extra + 4), int(y + (bar + metrics.ascent() - metrics.descent()) / 2), value
                )
                y += bar + 3
            y += 10
