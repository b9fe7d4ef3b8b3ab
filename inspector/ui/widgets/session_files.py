"""File › Export session and File › Open session: the file dialog and the error box, both opened without blocking.

`QFileDialog.open()` returns at once and reports the choice through `fileSelected`: the event loop
(and the session's traffic) keeps running while the dialog is up, and a test drives the dialog as a
person does (type a path, press Return).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from inspector.ui.widgets.plain_text import plain_message_box

FILTERS = "Traffic records (*.jsonl);;All files (*)"
FOLDER_KEY = "session/folder"  # where the last session was exported to or opened from


def suggested_name(server: str | None, now: float | None = None) -> str:
    """A file name for an export: the server's name (made file-safe) and the local time."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", server or "").strip("-.")[:60]
    return f"{safe or 'session'}-{stamp}.jsonl"


def ask_session_path(
    parent: QWidget,
    settings: QSettings,
    on_chosen: Callable[[Path], None],
    *,
    save: bool,
    suggested: str = "session.jsonl",
) -> QFileDialog:
    """Open the Export (``save=True``) or Open dialog; `on_chosen(path)` runs once a file is chosen."""
    folder = settings.value(FOLDER_KEY)
    start = str(folder) if isinstance(folder, str) and Path(folder).is_dir() else str(Path.home())
    dialog = QFileDialog(parent, "Export session" if save else "Open session", start, FILTERS)
    dialog.setObjectName("exportSessionDialog" if save else "openSessionDialog")
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if save:
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setDefaultSuffix("jsonl")
        dialog.selectFile(suggested)
    else:
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)

    def chosen(name: str) -> None:
        path = Path(name)
        settings.setValue(FOLDER_KEY, str(path.parent))
        on_chosen(path)

    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def show_error(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """A critical message as plain text (it may quote a file's contents), shown over `parent` without blocking.

    With no window to show it over, it blocks (`exec()`): a box without a parent would be gone as soon
    as the caller drops it.
    """
    owner = parent or QApplication.activeWindow()
    box = plain_message_box(QMessageBox.Icon.Critical, title, text, owner)
    if owner is None:
        box.exec()
        return box
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
