"""Notice when the tap moves a live record on to a new part (it rotates a record past its size limit).

The viewer follows one file; when the tap starts the next part (a file whose header continues the
one shown), `continued` names it so that it can be opened in turn.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.tap.paths import list_records

CHECK_MS = 2000


class RotationWatcher(QObject):
    """Polls the record's folder for the part that continues `path`; emits `continued` once, then stops."""

    continued = Signal(object)  # Path of the new part

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.timer = QTimer(self)
        self.timer.setInterval(CHECK_MS)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> Path | None:
        """The part that continues the watched file, if the tap has started one (and then stop watching)."""
        for record in list_records(self.path.parent):
            if record.continues == self.path.name:
                self.timer.stop()
                self.continued.emit(record.path)
                return record.path
            if record.path == self.path and not record.live and record.continued_by is None:
                self.timer.stop()  # the session ended in this part: nothing more will follow
        return None
