"""`RowHeader`: a field's name (bold; struck out when deprecated) and its dim type/status summary;
`ErrorText`: a field's errors on the same line, so showing one never moves the fields below.

One painted widget instead of two labels: a big form has hundreds of rows and every widget costs
construction, polish and layout time. Text is drawn with `QPainter.drawText`, so it is plain text.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from inspector.content.visible import visible
from inspector.ui.widgets.plain_text import plain_tooltip

GAP = 8


def _one_line(text: str) -> str:
    """Server text on one visible line (control, bidi and invisible characters shown as escapes)."""
    return visible(" ".join(text.split()) if "\n" in text or "\r" in text else text, one_line=True)


class RowHeader(QWidget):
    """Name and summary on one line; the summary is elided when space runs out."""

    def __init__(self, name: str, summary: str, name_font: QFont, dim: QPalette) -> None:
        super().__init__()
        self.name = _one_line(name)
        self.summary = _one_line(summary)
        self.name_font = name_font
        self._dim = dim.color(QPalette.ColorRole.WindowText)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._name_accessibly()

    def _name_accessibly(self) -> None:
        """What a screen reader (and a journey test) reads: "name: summary"."""
        self.setAccessibleName(f"{self.name}: {self.summary}" if self.name else self.summary)

    def text(self) -> str:
        """The name (as a label's `text()` would be)."""
        return self.name

    def set_name(self, name: str) -> None:
        name = _one_line(name)
        if name != self.name:
            self.name = name
            self._name_accessibly()
            self.updateGeometry()
            self.update()

    def set_summary(self, summary: str) -> None:
        summary = _one_line(summary)
        if summary != self.summary:
            self.summary = summary
            self._name_accessibly()
            self.updateGeometry()
            self.update()

    def _name_width(self) -> int:
        return QFontMetrics(self.name_font).horizontalAdvance(self.name) if self.name else 0

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        width = self._name_width() + (GAP + metrics.horizontalAdvance(self.summary) + 2 if self.summary else 0)
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


class ErrorText(QLabel):
    """One line of plain text, elided to the width it gets; `text()` and the tooltip keep all of it."""

    def __init__(self, palette: QPalette) -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setPalette(palette)
        self.setObjectName("fieldError")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_messages(self, messages: list[str]) -> None:
        text = "; ".join(_one_line(m) for m in messages)
        if text != self.text():
            self.setText(text)
            self.setToolTip(plain_tooltip("Problem", text) if text else "")

    def minimumSizeHint(self) -> QSize:
        return QSize(min(super().sizeHint().width(), 80), super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        metrics = self.fontMetrics()
        shown = metrics.elidedText(self.text(), Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(QPoint(0, metrics.ascent() + max(0, (self.height() - metrics.height()) // 2)), shown)
        painter.end()
