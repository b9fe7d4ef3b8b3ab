"""A saved traffic record (JSONL), re-opened read-only in its own window."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow, QWidget

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.session_files import show_error
from inspector.ui.traffic.view import TrafficView


class ViewerWindow(QMainWindow):
    """Shows `store` in a read-only `TrafficView` (no re-send, no clear). Use `ViewerWindow.open(path)`."""

    def __init__(
        self,
        store: TrafficStore,
        path: str | os.PathLike[str],
        meta: dict[str, Any] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.meta = meta or {}
        self.store = store
        self.view = TrafficView(store, self, read_only=True)
        self.view.model.flush()
        self.setCentralWidget(self.view)
        self.setWindowTitle(f"{self.path.name} — MCP Lens (read-only)")
        self.resize(1100, 700)
        self.statusBar().showMessage(f"{len(store):,} entries from {self.path}")

    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QWidget | None = None) -> ViewerWindow | None:
        """Load and show the record; on a bad or unreadable file show the reason (without blocking) and return None."""
        try:
            store, meta = jsonl.load(path)
        except (jsonl.RecordFormatError, OSError, UnicodeError) as exc:
            show_error(parent, "Cannot open traffic record", str(exc))  # plain text: it quotes the file
            return None
        window = cls(store, path, meta, parent)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        return window
