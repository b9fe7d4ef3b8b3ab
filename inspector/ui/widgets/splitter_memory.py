"""Splitters that remember where the user left them (QSettings), restored when the widget is built."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter


def remember(settings: QSettings, key: str, splitter: QSplitter) -> None:
    """Restore `splitter` from `settings[key]` (if saved) and save it whenever the user moves it."""
    saved = settings.value(key)
    if isinstance(saved, QByteArray | bytes) and saved:
        splitter.restoreState(QByteArray(saved))
    splitter.splitterMoved.connect(lambda *_: settings.setValue(key, splitter.saveState()))
