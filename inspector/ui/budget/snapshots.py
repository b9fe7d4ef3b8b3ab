"""Save the connected server's tool list as a snapshot file; open the diff of two snapshots."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from inspector.budget.snapshot import Snapshot, SnapshotError, save_snapshot
from inspector.ui.widgets.plain_text import plain_message_box
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.ui.budget.pane import BudgetPane


def profile_source(profile: object | None) -> str:
    """The command or URL a snapshot came from, with secrets redacted."""
    if profile is None:
        return "unknown"
    safe = profile.redacted()  # type: ignore[attr-defined]
    if safe.transport == "stdio":
        return " ".join([safe.command, *safe.args])
    return str(safe.url)


def tell(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str) -> None:
    """A message box whose text is never read as rich text."""
    plain_message_box(icon, title, text, parent).exec()


class SnapshotActions:
    def __init__(self, pane: BudgetPane) -> None:
        self.pane = pane
        self.tell = tell  # replaceable, so tests can read the message instead of a modal box

    def current_snapshot(self) -> Snapshot:
        session = self.pane.session
        meta = {"serverInfo": session.server_info, "protocolVersion": session.protocol_version} if session.live else {}
        source = profile_source(session.profile)
        return Snapshot.now(self.pane.server, list(self.pane.tools), source, **meta)

    def _folder(self) -> str:
        return str(self.pane.settings.value("budget/snapshotDir", ""))

    def save_dialog(self) -> Path | None:
        if not self.pane.tools:
            self.tell(
                self.pane, QMessageBox.Icon.Information, "Nothing to save", "Connect to a server with tools first."
            )
            return None
        stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in self.pane.server) or "server"
        day = dt.date.today().isoformat()
        suggested = str(Path(self._folder() or ".") / f"{stem}-tools-{day}.json")
        path, _ = QFileDialog.getSaveFileName(self.pane, "Save snapshot", suggested, "Snapshots (*.json)")
        return self.save_to(path) if path else None

    def save_to(self, path: str | Path) -> Path | None:
        path = Path(path)
        try:
            save_snapshot(path, self.current_snapshot())
        except (SnapshotError, OSError) as exc:
            self.tell(
                self.pane, QMessageBox.Icon.Critical, "Could not save", f"{exc}\nChoose another folder or file name."
            )
            return None
        self.pane.settings.setValue("budget/snapshotDir", str(path.parent))
        self.pane.status.setText(f"saved {counted(len(self.pane.tools), 'tool')} to {path.name}")
        self.pane.diff.remember(path)
        return path

    def diff_dialog(self) -> None:
        self.pane.views.setCurrentWidget(self.pane.diff)
        self.pane.diff.choose_old()
