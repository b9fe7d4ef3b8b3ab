"""An asyncio pipe protocol that splits a byte stream into lines without limits on line length."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from inspector.traffic.sliced_json import HUGE


class LineProtocol(asyncio.Protocol):
    """Collects complete lines (without the ``\\n``, or the ``\\r\\n`` a Windows program's text-mode output ends
    them with) into a queue, pausing the pipe when it fills.

    Partial data is kept as a list of chunks and joined once, so a 20 MB line costs one copy; a line
    of `HUGE` bytes or more is joined on a worker thread by `next_line` (bytes.join lets go of the GIL).
    """

    HIGH_WATER = 512
    LOW_WATER = 64

    def __init__(self, on_ready: Callable[[], None] | None = None) -> None:
        self.lines: deque[bytes | list[bytes]] = deque()  # a huge line: its chunks, joined when taken
        self.eof = False
        self._partial: list[bytes] = []
        self._partial_size = 0
        self._transport: asyncio.ReadTransport | None = None
        self._paused = False
        self._on_ready = on_ready
        self.changed = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            if self._partial:
                self._partial.append(data[start:end])
                self._complete()
            else:
                self.lines.append(data[start:end])
            start = end + 1
        if start < len(data):
            self._partial.append(data[start:])
            self._partial_size += len(data) - start
        if len(self.lines) > self.HIGH_WATER and not self._paused and self._transport is not None:
            self._paused = True
            self._transport.pause_reading()
        self._notify()

    def eof_received(self) -> bool:
        self._finish()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish()

    def _finish(self) -> None:
        if self.eof:
            return
        if self._partial:
            self._complete()
        self.eof = True
        self._notify()

    def _complete(self) -> None:
        """The partial line is whole: queue it (joined now unless it is huge)."""
        parts = list(self._partial)
        self.lines.append(parts if self._partial_size >= HUGE else b"".join(parts))
        self._partial.clear()
        self._partial_size = 0

    def _notify(self) -> None:
        self.changed.set()
        if self._on_ready is not None:
            self._on_ready()

    def take(self) -> bytes | None:
        """The next complete line, or None if none is queued."""
        line = self._take()
        return _without_cr(b"".join(line) if isinstance(line, list) else line)

    def _take(self) -> bytes | list[bytes] | None:
        if not self.lines:
            return None
        line = self.lines.popleft()
        if self._paused and len(self.lines) < self.LOW_WATER and self._transport is not None:
            self._paused = False
            self._transport.resume_reading()
        return line

    async def next_line(self) -> bytes | None:
        """Wait for the next line; None once the pipe is closed and drained."""
        while True:
            line = self._take()
            if isinstance(line, list):
                return _without_cr(await asyncio.to_thread(b"".join, line))
            if line is not None:
                return _without_cr(line)
            if self.eof:
                return None
            self.changed.clear()
            await self.changed.wait()


def _without_cr(line: bytes | None) -> bytes | None:
    """A line ended by CRLF without its CR: the CR is the line ending's (the message is the same bytes either way;
    kept, it made every message of a Windows server unreadable as a record's verbatim "msg")."""
    return line[:-1] if line is not None and line.endswith(b"\r") else line
