"""Reading the text files MCP Lens keeps or imports: UTF-8, and a file that is not says where and why."""

from __future__ import annotations

import os
from pathlib import Path


class NotUtf8Error(ValueError):
    """A file (or line) that is not UTF-8 text; the message names the first bad byte, its line and column."""

    def __init__(self, raw: bytes, exc: UnicodeDecodeError, *, source: str | None = None) -> None:
        self.source = source
        self.offset = exc.start
        self.line = raw.count(b"\n", 0, exc.start) + 1
        self.column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start : exc.end] or raw[exc.start : exc.start + 1]
        self.reason = (
            f"not UTF-8 text: byte {' '.join(f'0x{b:02X}' for b in bad)} at line {self.line}, column {self.column} "
            "cannot be read (saved as Latin-1 or another encoding?); save the file as UTF-8"
        )
        super().__init__(f"{source}: {self.reason}" if source else self.reason)


def decode_utf8(raw: bytes, *, source: str | None = None, bom: bool = True) -> str:
    """`raw` as text (a leading byte-order mark dropped when `bom`); `NotUtf8Error` says where it is not UTF-8."""
    try:
        return raw.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        raise NotUtf8Error(raw, exc, source=source) from None


def read_utf8(path: str | os.PathLike[str], *, bom: bool = True) -> str:
    """The text of `path`; `NotUtf8Error` (naming the file) when it is not UTF-8, `OSError` as `open` raises it."""
    return decode_utf8(Path(path).read_bytes(), source=str(path), bom=bom)
