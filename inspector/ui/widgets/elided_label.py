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
    with `lines` > 1 wrapped at spaces onto up to that many lines where the layout has the height (it asks
    for them, and can make do with one), the last one elided."""

    def __init__(self, text: Any = "", parent: QWidget | None = None, *, lines: int = 1) -> None:
        self.lines = max(1, lines)
        self._wanted = 1  # the lines its text needs at its width, up to `lines`
        super().__init__(text, parent, one_line=True)
        tall = QSizePolicy.Policy.Maximum if self.lines > 1 else QSizePolicy.Policy.Fixed
        self.setSizePolicy(QSizePolicy.Policy.Ignored, tall)

    def wrapped(self, width: int, lines: int | None = None) -> list[str]:
        """The lines painted in `width` pixels: words on up to `lines` lines, the last one elided."""
        metrics, most = self.fontMetrics(), lines or self.lines
        rows: list[str] = []
        rest = self.text()
        while rest and len(rows) < most - 1 and metrics.horizontalAdvance(rest) > width:
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

    def _shown_lines(self) -> int:
        """How many lines its height holds (at least one), up to `lines`."""
        return max(1, min(self.lines, self.contentsRect().height() // max(1, self.fontMetrics().height())))

    def _fit_height(self) -> None:
        """Ask the layout for the lines its text needs at its width (up to `lines`)."""
        if self.lines > 1:
            wanted = len(self.wrapped(self.contentsRect().width())) if self.width() > 0 else 1
            if wanted != self._wanted:
                self._wanted = wanted
                self.updateGeometry()

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
        return QSize(width, self._wanted * metrics.height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        margins = self.contentsMargins()
        width = min(metrics.horizontalAdvance(self.text()), metrics.averageCharWidth() * LEAST_CHARS)
        return QSize(width + margins.left() + margins.right(), metrics.height() + margins.top() + margins.bottom())

    def elided(self) -> bool:
        """Whether the text is cut on screen (its tooltip then says it whole)."""
        if self.lines > 1:
            return self.wrapped(self.contentsRect().width(), self._shown_lines())[-1].endswith("…")
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.setPen(self.palette().color(self.foregroundRole()))
        if self.lines > 1:
            height = self.fontMetrics().height()
            for row, line in enumerate(self.wrapped(rect.width(), self._shown_lines())):
                box = rect.adjusted(0, row * height, 0, 0)
                box.setHeight(height)
                painter.drawText(box, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), line)
            return
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)
