"""Ctrl+Enter runs a tab's main action while focus is inside the tab.

The window's menu also binds Ctrl+Return (Connect), and two live shortcuts with one key are
ambiguous in Qt (neither fires). Claiming the key in `ShortcutOverride` (which travels up from the
focus widget) turns it into a plain key press inside the tab, which then reaches `keyPressEvent`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent

RUN_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def is_run_key(event: QEvent) -> bool:
    if not isinstance(event, QKeyEvent) or event.key() not in RUN_KEYS:
        return False
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return modifiers == Qt.KeyboardModifier.ControlModifier


class RunKeyFilter(QObject):
    """Installed on a tab: Ctrl+Enter anywhere inside it calls `action`."""

    def __init__(self, tab: QObject, action: Callable[[], None], what: str = "Run the tab's main action") -> None:
        super().__init__(tab)
        self.action = action
        self.what = what  # for Help › Keyboard shortcuts
        tab.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and is_run_key(event):
            event.accept()
            return True
        if event.type() == QEvent.Type.KeyPress and is_run_key(event):
            self.action()
            return True
        return super().eventFilter(watched, event)
