"""A one-line plain-text label that elides what does not fit and shows its whole text as a tooltip.

For a summary line above a table: it takes one line's height whatever the window's width, so the table
below keeps its rows on a small screen, and nothing it says is lost (the tooltip, `text()`).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from inspector.ui.widgets.plain_text import PlainLabel, safe_tooltip

LEAST_CHARS = 6  # the narrowest it gets: a few characters and the ellipsis


class ElidedLabel(PlainLabel):
    """`text()` is the whole (visible, cut) text; the label paints it on one line, elided at the right, or
    with `lines` > 1 wrapped at spaces onto up to that many lines (as tall as it needs), the last elided."""

    def __init__(self, text: Any = "", parent: QWidget | None = None, *, lines: int = 1) -> None:
        self.lines = max(1, lines)
        super().__init__(text, parent, one_line=True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def wrapped(self, width: int) -> list[str]:
        """The lines painted in `width` pixels: words on up to `lines` lines, the last one elided."""
        metrics, text = self.fontMetrics(), self.text()
        rows: list[str] = []
        rest = text
        while rest and len(rows) < self.lines - 1 and metrics.horizontalAdvance(rest) > width:
            words, line = rest.split(" "), ""
            for count in range(1, len(words) + 1):
                candidate = " ".join(words[:count])
                if count > 1 and metrics.horizontalAdvance(candidate) > width:
                    break
                line = candidate
            rows.append(line)
            rest = rest[len(line) :].lstrip(" ")
        rows.append(metrics.elidedText(rest, Qt.TextElideMode.ElideRight, width))
        return rows

    def _fit_height(self) -> None:
        """As tall as the lines its text needs at its width (up to `lines`): a layout's Fixed height."""
        if self.lines > 1:
            margins = self.contentsMargins()
            rows = len(self.wrapped(self.contentsRect().width())) if self.width() > 0 else 1
            height = rows * self.fontMetrics().height() + margins.top() + margins.bottom()
            if self.minimumHeight() != height or self.maximumHeight() != height:
                self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def setText(self, text: Any) -> None:
        super().setText(text)
        self.setToolTip(safe_tooltip(self.text()) if self.text() else "")
        self.updateGeometry()
        self._fit_height()

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
        if self.lines > 1:
            return self.wrapped(self.contentsRect().width())[-1].endswith("…")
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.setPen(self.palette().color(self.foregroundRole()))
        if self.lines > 1:
            height = self.fontMetrics().height()
            for row, line in enumerate(self.wrapped(rect.width())):
                box = rect.adjusted(0, row * height, 0, 0)
                box.setHeight(height)
                painter.drawText(box, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), line)
            return
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)
