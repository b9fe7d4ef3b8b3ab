"""Server-sent events split as the bytes pass, each event's exact bytes kept. Pure: no HTTP client import."""

from __future__ import annotations


class SSEFrameSplitter:
    """Incremental SSE parser that keeps each event's exact bytes."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer already searched for an event's end (a 50 MB event: linear)

    def feed(self, chunk: bytes) -> list[tuple[bytes, dict[str, str], bytes]]:
        """Returns complete events as ``(frame bytes, fields, data bytes)``."""
        self._buffer += chunk.replace(b"\r\n", b"\n") if b"\r" in chunk else chunk
        events = []
        while (end := self._buffer.find(b"\n\n", self._scanned)) != -1:
            frame = bytes(self._buffer[: end + 2])
            del self._buffer[: end + 2]
            self._scanned = 0
            events.append(self._parse(frame))
        self._scanned = max(0, len(self._buffer) - 1)
        return events

    @staticmethod
    def _parse(frame: bytes) -> tuple[bytes, dict[str, str], bytes]:
        fields: dict[str, str] = {}
        data: list[bytes] = []
        for line in frame.split(b"\n"):
            if not line or line.startswith(b":"):
                continue
            name, _, value = line.partition(b":")
            if value.startswith(b" "):
                value = value[1:]
            if name == b"data":
                data.append(value)
            else:
                fields[name.decode("utf-8", "replace")] = value.decode("utf-8", "replace")
        return frame, fields, b"\n".join(data)
