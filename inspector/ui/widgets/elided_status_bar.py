"""A status bar whose message is elided ("…") when it is longer than the room beside the permanent widgets:
Qt's own cuts it mid-word ("kept in the fi"). `currentMessage()` and the tooltip keep all of it."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizeGrip, QStatusBar, QWidget

from inspector.ui.widgets.plain_text import plain_tooltip


class ElidedStatusBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._whole = ""  # the message as given
        self._shown = ""  # the message as painted (elided to the room)

    def show_message(self, text: str, heading: str) -> None:
        """Show `text` until the next message, elided to fit; the tooltip holds all of it under `heading`."""
        self._whole = text
        self.setToolTip(plain_tooltip(heading, text))
        self._fit()
        QTimer.singleShot(
            0, self, self._refit
        )  # once the permanent widgets have their new sizes (never after deletion)

    def currentMessage(self) -> str:
        """The whole message while ours is shown (a menu hint Qt shows in its place is returned as it is)."""
        shown = super().currentMessage()
        return self._whole if shown and shown == self._shown else shown

    def room(self) -> int:
        """The width the message is painted in: up to the first permanent widget or the size grip."""
        self.layout().activate()
        right = self.width() - 12
        for child in self.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if child.isVisible() and (isinstance(child, QSizeGrip) or child.x() > 6):
                right = min(right, child.x() - 2)
        return max(0, right - 6)

    def _fit(self) -> None:
        self._shown = self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight, self.room())
        super().showMessage(self._shown)

    def _refit(self) -> None:
        if self._whole and super().currentMessage() == self._shown:
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit()
