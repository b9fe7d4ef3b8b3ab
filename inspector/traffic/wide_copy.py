"""A record saved as UTF-16 or UTF-32 with its byte-order mark (re-saved by an editor), read through a
UTF-8 copy: `RecordIndex` indexes by byte offsets, so the file is transcoded line by line into a private
temporary file (`config.files.private_temporary`, gone when closed) that the index reads instead. The
user's file is only read. A line that does not decode leaves an empty line in the copy (line numbers stay
the file's) and is told with its bytes as they are in the file.
"""

from __future__ import annotations

import os
import time

from inspector.config.files import private_temporary
from inspector.config.text_files import wide_lines, wide_note
from inspector.platform.files import pread
from inspector.traffic.jsonl import BadLine

CHUNK = 1 << 20  # bytes of the file transcoded at a time


class WideCopy:
    """The UTF-8 copy of the record open on `fd` (encoding `name`, `codec`, its mark `mark` bytes long);
    `pump()` transcodes more of it; `fd` is the copy's descriptor."""

    def __init__(self, source_fd: int, name: str, codec: str, mark: int) -> None:
        self.source_fd, self.name, self.codec = source_fd, name, codec
        self.note = wide_note("record", name)
        self._copy = private_temporary()
        self.fd = self._copy.fileno()
        self.read = mark  # offset in the file past the last whole line transcoded
        self.lines = 0  # lines transcoded

    def pump(self, deadline: float | None) -> list[BadLine]:
        """Transcode whole lines until the file's end (or past `deadline`, one chunk at least); returns the
        lines that did not decode."""
        bad: list[BadLine] = []
        while True:
            data = pread(self.source_fd, CHUNK, self.read)
            text, lost, rest = wide_lines(data, self.codec)
            while not text and data and len(data) % CHUNK == 0:  # a line longer than what was read: read on
                more = pread(self.source_fd, CHUNK, self.read + len(data))
                if not more:
                    break
                data += more
                text, lost, rest = wide_lines(data, self.codec)
            if not text:
                return bad  # nothing whole left (the end, or a last line without its newline)
            self._append(text)
            bad += [BadLine(self.lines + n + 1, f"not {self.name} text", raw) for n, raw in lost]
            self.lines += text.count(b"\n")
            self.read += len(data) - len(rest)
            if deadline is not None and time.perf_counter() > deadline:
                return bad

    def _append(self, text: bytes) -> None:
        self._copy.seek(0, os.SEEK_END)
        self._copy.write(text)
        self._copy.flush()

    def caught_up(self) -> bool:
        """Whether every whole line of the file is in the copy."""
        size, pos = os.fstat(self.source_fd).st_size, self.read
        while pos < size:  # a long last line may span chunks (each starts on a character: CHUNK is a multiple of 4)
            data = pread(self.source_fd, CHUNK, pos)
            if not data:
                break
            if wide_lines(data, self.codec)[0]:
                return False
            pos += len(data)
        return True

    def cut_tail(self, number: int) -> BadLine | None:
        """The bytes after the file's last newline, as UTF-8 when they decode, else as they are in the file."""
        tail = pread(self.source_fd, CHUNK, self.read)
        if not tail:
            return None
        reason = "the last line has no newline: its writer stopped mid-line"
        try:
            text = tail.decode(self.codec)
        except UnicodeDecodeError:
            return BadLine(number, f"{reason} (not {self.name} text)", tail, cut=True)
        if not text.strip():
            return None
        return BadLine(number, reason, text.encode("utf-8"), cut=True)

    def close(self) -> None:
        self._copy.close()
        if self.source_fd >= 0:
            os.close(self.source_fd)
            self.source_fd = -1
