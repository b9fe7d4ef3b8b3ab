"""`RowHeader`: a field's name (bold; struck out when deprecated) and its dim type/status summary.

One painted widget instead of two labels: a big form has hundreds of rows and every widget costs
construction, polish and layout time. Text is drawn with `QPainter.drawText`, so it is plain text.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

GAP = 8


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


class RowHeader(QWidget):
    """Name and summary on one line; the summary is elided when space runs out."""

    def __init__(self, name: str, summary: str, name_font: QFont, dim: QPalette) -> None:
        super().__init__()
        self.name = _one_line(name)
        self.summary = _one_line(summary)
        self.name_font = name_font
        self._dim = dim.color(QPalette.ColorRole.WindowText)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        """The name (as a label's `text()` would be)."""
        return self.name

    def set_name(self, name: str) -> None:
        name = _one_line(name)
        if name != self.name:
            self.name = name
            self.updateGeometry()
            self.update()

    def set_summary(self, summary: str) -> None:
        summary = _one_line(summary)
        if summary != self.summary:
            self.summary = summary
            self.updateGeometry()
            self.update()

    def _name_width(self) -> int:
        return QFontMetrics(self.name_font).horizontalAdvance(self.name) if self.name else 0

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        width = self._name_width() + (GAP + metrics.horizontalAdvance(self.summary) if self.summary else 0)
        return QSize(width, max(metrics.height(), QFontMetrics(self.name_font).height()))

    def minimumSizeHint(self) -> QSize:
        return QSize(min(self._name_width(), 120), self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        baseline = QFontMetrics(self.name_font).ascent()
        x = 0
        if self.name:
            painter.setFont(self.name_font)
            metrics = QFontMetrics(self.name_font)
            painter.drawText(
                QPoint(0, baseline), metrics.elidedText(self.name, Qt.TextElideMode.ElideRight, self.width())
            )
            x = self._name_width() + GAP
        if self.summary and x < self.width():
            painter.setFont(self.font())
            painter.setPen(self._dim)
            shown = self.fontMetrics().elidedText(self.summary, Qt.TextElideMode.ElideRight, self.width() - x)
            painter.drawText(QPoint(x, baseline), shown)
        painter.end()
