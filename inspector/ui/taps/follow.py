"""Read a tapped session's record into a traffic store and keep reading as the tap appends to it.

Only whole lines are read (the tap flushes one message per line; a half-written last line waits for
the next poll). A file change wakes the follower at once; a slow timer covers file systems where
the watcher says nothing. When the tap rotates the record, the follower moves on to the new part (the
file whose header continues the one it reads).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.taps.records import TapSession, list_sessions

POLL_MS = 500
ROTATION_CHECK_POLLS = 10
_CHUNK = 4 * 1024 * 1024


class RecordFollower(QObject):
    """Appends the entries of `session`'s parts to `store`; with `follow`, keeps appending as it grows."""

    grew = Signal(int)  # entries added by one read
    failed = Signal(str)  # a line that is not a record entry (the reason, plain text)

    def __init__(self, session: TapSession, store: TrafficStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.store = store
        self.path = session.path
        self._offset = 0
        self._line = 2  # line numbers in error messages: line 1 is the header
        self._pending = b""
        for part in session.parts[:-1]:  # older parts of a rotated record are complete
            self._read_whole(part)
        self._open(session.path)
        self.read_more()
        self._watcher: QFileSystemWatcher | None = None
        self._timer: QTimer | None = None
        self._idle_polls = 0  # a rotation is looked for when the folder changes, else every few idle polls

    def follow(self) -> None:
        """Keep reading as the file grows (until `stop`)."""
        if self._timer is not None:
            return
        self._watcher = QFileSystemWatcher([str(self.path)], self)
        self._watcher.fileChanged.connect(lambda _path: self.read_more())
        self._watcher.directoryChanged.connect(self._folder_changed)
        self._watcher.addPath(str(self.path.parent))
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.read_more)
        self._timer.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        if self._watcher is not None:
            self._watcher.removePaths(self._watcher.files() + self._watcher.directories())

    @property
    def following(self) -> bool:
        return self._timer is not None and self._timer.isActive()

    def _folder_changed(self, _path: str) -> None:
        self._idle_polls = 0  # the next idle read looks for a newer part
        self.read_more()

    # -- reading -------------------------------------------------------------------------------
    def _read_whole(self, path: Path) -> None:
        self._open(path)
        self._read_lines()
        self._pending = b""

    def _open(self, path: Path) -> None:
        """Start reading `path` after its header line."""
        self.path, self._pending, self._line = path, b"", 2
        try:
            with open(path, "rb") as stream:
                stream.readline()
                self._offset = stream.tell()
        except OSError:
            self._offset = 0

    def read_more(self) -> int:
        """Append the entries written since the last read; move on to a newer part if the record rotated."""
        added = self._read_lines()
        self._idle_polls = 0 if added else self._idle_polls + 1
        if not added and self._timer is not None and self._idle_polls % ROTATION_CHECK_POLLS == 1:
            newer = self._next_part()
            if newer is not None:
                self._pending = b""
                self._open(newer)
                watcher = self._watcher
                if watcher is not None:
                    watcher.removePaths(watcher.files())
                    watcher.addPath(str(newer))
                added = self._read_lines()
        if added:
            self.grew.emit(added)
        return added

    def _read_lines(self) -> int:
        try:
            with open(self.path, "rb") as stream:
                stream.seek(self._offset)
                data = stream.read(_CHUNK)
                while data:
                    self._offset += len(data)
                    self._pending += data
                    data = stream.read(_CHUNK)
        except OSError:
            return 0
        *lines, self._pending = self._pending.split(b"\n")
        added = 0
        for line in lines:
            number, self._line = self._line, self._line + 1
            if not line.strip():
                continue
            try:
                entry = jsonl.decode_entry(line)
            except jsonl.RecordFormatError as exc:
                self.failed.emit(f"{self.path.name}: line {number}: {exc}")
                continue
            self.store.add_entry(entry)
            added += 1
        return added

    def _next_part(self) -> Path | None:
        """The newest part of this session, if the tap has moved on from the file being read."""
        for session in list_sessions(self.path.parent):
            if self.path in session.parts and session.path != self.path:
                return session.parts[session.parts.index(self.path) + 1]
        return None
