"""A one-line plain-text label that elides what does not fit and shows its whole text as a tooltip.

For a summary line above a table: it takes one line's height whatever the window's width, so the table
below keeps its rows on a small screen, and nothing it says is lost (the tooltip, `text()`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from inspector.ui.widgets.plain_text import PlainLabel, safe_tooltip

LEAST_CHARS = 6  # the narrowest it gets: a few characters and the ellipsis


class ElidedLabel(PlainLabel):
    """`text()` is the whole (visible, cut) text; the label paints it on one line, elided at the right."""

    def __init__(self, text: Any = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent, one_line=True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def setText(self, text: Any) -> None:
        super().setText(text)
        self.setToolTip(safe_tooltip(self.text()) if self.text() else "")
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        width = metrics.horizontalAdvance(self.text()) + margins.left() + margins.right()
        return QSize(width, metrics.height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        hint = self.sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().averageCharWidth() * LEAST_CHARS), hint.height())

    def elided(self) -> bool:
        """Whether the text is cut on screen (its tooltip then says it whole)."""
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)
