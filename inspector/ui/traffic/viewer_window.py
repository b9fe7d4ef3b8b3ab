"""A traffic record (JSONL) opened read-only in its own window, followed while it grows.

The record stays on disk (`RecordStore`): the window indexes it in short slices on a timer, so the
first rows show at once however big the file, then keeps polling for lines appended since (a live
tap's record). New rows join the log; the view stays where the user scrolled unless they are at the end.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox, QToolButton, QWidget

from inspector.traffic import jsonl
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.view import TrafficView
from inspector.ui.widgets.elided_status_bar import ElidedStatusBar
from inspector.ui.widgets.plain_text import item_text, plain_message_box, plain_tooltip, safe_title, window_title
from inspector.ui.widgets.screen_fit import fit_screen
from inspector.ui.widgets.session_files import show_error
from inspector.words import counted

FIRST_SLICE_S = 0.15  # indexed before the window shows: more than a screenful
SLICE_S = 0.03  # indexed per timer tick while catching up (the UI stays responsive between slices)
POLL_MS = 250  # how often a caught-up record is checked for new lines


class ViewerWindow(QMainWindow):
    """Shows `store` in a read-only `TrafficView` (no re-send, no clear). Use `ViewerWindow.open(path)`.
    With a `RecordStore`, the window keeps indexing it and follows it as it grows."""

    def __init__(
        self,
        store: TrafficStore | RecordStore,
        path: str | os.PathLike[str],
        meta: dict[str, Any] | None = None,
        parent: QWidget | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.meta = meta or {}
        self.store = store
        self.view = TrafficView(store, self, read_only=True)  # type: ignore[arg-type]
        self.view.model.flush()
        for name in self.meta.get("servers") or ():  # a record of several servers: their column and filter
            if isinstance(name, str):
                self.view.add_server(name)
        self.setCentralWidget(self.view)
        self.setWindowTitle(window_title(f"{title or self.path.name} — MCP Lens (read-only)"))
        self.resize(1100, 700)
        fit_screen(self)  # a 1024×700 screen: no wider than it
        self.status_bar = ElidedStatusBar(self)  # a long line is elided, whole in its tooltip and under ⚠
        self.setStatusBar(self.status_bar)
        self.caught_up = not isinstance(store, RecordStore)
        self._problems_told = 0
        # The record's damaged lines (a cut last line among them), kept in view (a status message gives way
        # to menu hints): the count and numbers; each line's reason and first bytes in the tooltip and one
        # click away, with the whole status line.
        self.damaged_label = QToolButton(self)
        self.damaged_label.setAutoRaise(True)
        self.damaged_label.setAccessibleName("Damaged lines")
        self.damaged_label.clicked.connect(self.show_damaged)
        self.damaged_label.hide()
        self.statusBar().addPermanentWidget(self.damaged_label)
        close = QAction("Close", self)  # Ctrl+W (Escape clears the log's filter)
        close.setShortcuts(QKeySequence.StandardKey.Close)
        close.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        close.triggered.connect(self.close)
        self.addAction(close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.grow)
        if isinstance(store, RecordStore):
            self._timer.start(0)
            self.destroyed.connect(store.close)
        self._say()

    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QWidget | None = None) -> ViewerWindow | None:
        """Open the record and show its first rows; on a bad or unreadable file show the reason (without
        blocking) and return None."""
        store: RecordStore | None = None
        try:
            store = RecordStore(path)
            store.update(max_seconds=FIRST_SLICE_S)  # damaged lines are said in the status bar, never refused
        except (jsonl.RecordFormatError, OSError, UnicodeError) as exc:
            if store is not None:
                store.close()
            show_error(parent, "Cannot open traffic record", str(exc))  # plain text: it quotes the file
            return None
        window = cls(store, path, store.meta, parent)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        return window

    def grow(self) -> int:
        """Index the next slice of the record (or what was appended since); returns the entries added."""
        store = self.store
        if not isinstance(store, RecordStore) or store.index.fd < 0:
            return 0
        try:
            added = store.update(max_seconds=SLICE_S)
        except (OSError, jsonl.RecordFormatError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            self._show(f"Stopped reading {self.path}: {reason}")
            return 0
        was_caught_up, self.caught_up = self.caught_up, not added
        self._timer.start(POLL_MS if self.caught_up else 0)
        if self.caught_up and store.ended is None and store.check_ended():
            self._timer.stop()  # the writer is gone: nothing more will come
            self._say()
            return added
        if added or was_caught_up != self.caught_up or len(store.index.problems) != self._problems_told:
            self._say()
        return added

    def _say(self) -> None:
        count = len(self.store)
        entries = f"{counted(count, 'entry', grouped=True)} from {item_text(self.path.name)}"
        if not isinstance(self.store, RecordStore):
            self._show(entries)
            return
        index = self.store.index
        ended = self.store.ended
        if ended is not None:
            text = f"{entries}; {ended}"
        elif self.caught_up:
            text = f"{entries}; new entries appear as the record grows"
        else:
            shown = f"{counted(count, 'entry', grouped=True)} so far ({index.percent_read()}%)"
            text = f"Reading {item_text(self.path.name)}: {shown}"
        if index.wide is not None:  # an editor re-saved it: read through a UTF-8 copy, the file left as it is
            text += f"; {index.wide.note}"
        cut = index.cut_tail() if self.caught_up else None
        if damaged := index.damaged:
            self._problems_told = len(damaged)
            more = " and more" if len(damaged) > 1 else ""
            text += f"; line {damaged[0].number}{more} damaged: left out, kept in the file (⚠ for details)"
        if cut is not None:
            if ended is not None:
                text += f"; {cut.describe()}"
            else:
                size = f"{len(cut.raw):,} bytes"
                text += f"; line {cut.number} has no newline ({size}): cut off, unless still being written"
        if problems := [*damaged, *self._cut_for_good()]:
            self._show_damaged(problems)
        self._show(text)

    def _cut_for_good(self) -> list[jsonl.BadLine]:
        """The cut last line, once no writer may still end it (its tap is gone, or none writes the record)."""
        store = self.store
        if not isinstance(store, RecordStore) or not self.caught_up:
            return []
        if store.ended is None and store.writer_pid() is not None:
            return []
        cut = store.index.cut_tail()
        return [cut] if cut is not None else []

    def _show(self, text: str) -> None:
        """The status line (short: the file's name), and the whole of it with the file's path in its tooltip."""
        self.status_bar.show_message(text, str(self.path))

    def _show_damaged(self, damaged: list[jsonl.BadLine]) -> None:
        """The badge: how many lines could not be read (a cut last line counts) and their numbers."""
        numbers = ", ".join(str(bad.number) for bad in damaged[:12]) + (", …" if len(damaged) > 12 else "")
        self.damaged_label.setText(safe_title(f"⚠ {counted(len(damaged), 'damaged line')}: {numbers}"))
        self.damaged_label.setToolTip(
            plain_tooltip("Left out of the log, kept in the file as they are", _details(damaged))
        )
        self.damaged_label.show()

    def show_damaged(self) -> QMessageBox | None:
        """The damaged lines (a cut last line too), each with its reason and first bytes, and the whole status
        line, in a message box (not blocking)."""
        if not isinstance(self.store, RecordStore):
            return None
        damaged = [*self.store.index.damaged, *self._cut_for_good()]
        if not damaged:
            return None
        text = (
            f"{counted(len(damaged), 'damaged line')} of {self.path} left out of the log, kept in the file as they are:"
        )
        details = f"{_details(damaged)}\n\n{self.status_bar.currentMessage()}"
        box = plain_message_box(QMessageBox.Icon.Warning, "Damaged lines", text, self, informative=details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        fit_screen(self)  # the screen it opened on may be smaller than its parent's

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop reading; the file is closed with the window (its rows may repaint until then)."""
        self._timer.stop()
        super().closeEvent(event)


def _details(damaged: list[jsonl.BadLine]) -> str:
    """Each damaged line's reason and first bytes (the first 30)."""
    more = f"\n… and {counted(len(damaged) - 30, 'more line')}" if len(damaged) > 30 else ""
    return "\n".join(f"{bad.describe()}\n    {bad.raw[:80]!r}" for bad in damaged[:30]) + more
