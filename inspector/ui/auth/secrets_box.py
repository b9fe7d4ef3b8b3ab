"""The Auth tab's "Keep secrets in a file (user-only, not encrypted)" box, shown only when no OS keyring
works here (`config/secret_keeping`), and the words for where a token is kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QWidget

from inspector.config.secret_keeping import NO_KEYRING_SESSION, PLAIN_FILE_NOTE, TICK_LABEL, files_ticked, real_keyring


def secrets_file_box(on_toggled: Callable[[bool], None], parent: QWidget) -> QCheckBox:
    """The box, made inside `parent`: shown before it has one, a widget becomes a window of its own (a stray
    checkbox window that took the keyboard from the main window)."""
    box = QCheckBox(TICK_LABEL, parent)
    box.setAccessibleName(TICK_LABEL)
    box.setToolTip("Without a keyring, tokens otherwise last until MCP Lens quits.")  # our own words
    box.setChecked(files_ticked())
    box.setVisible(real_keyring() is None)
    box.toggled.connect(on_toggled)
    return box


def where_kept(backend: Any) -> str:
    """Where the Auth tab says the token is kept (a sentence for a session without a keyring)."""
    name = getattr(backend, "name", "")
    if name == "session":
        where = f"this session only. {NO_KEYRING_SESSION}"
        return f"{where} {PLAIN_FILE_NOTE}" if backend.read_plain_file else where
    return {"file": "a private file (0600) in the config folder", "keyring": "the system keyring"}.get(name, name)
