"""Splitters that remember where the user left them (QSettings), restored when the widget is built, and
`saved_state`: a remembered geometry or state read back only when it is bytes (a damaged settings file
holds text there, which `restoreGeometry` would raise on)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter


def saved_state(settings: QSettings, key: str) -> QByteArray | None:
    """`settings[key]` when it holds a saved geometry or state (bytes), else None (absent or damaged)."""
    saved = settings.value(key)
    return QByteArray(saved) if isinstance(saved, QByteArray | bytes) and saved else None


def remember(settings: QSettings, key: str, splitter: QSplitter) -> None:
    """Restore `splitter` from `settings[key]` (if saved) and save it whenever the user moves it."""
    if (saved := saved_state(settings, key)) is not None:
        splitter.restoreState(saved)
    splitter.splitterMoved.connect(lambda *_: settings.setValue(key, splitter.saveState()))
