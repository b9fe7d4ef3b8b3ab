"""Reading the text files MCP Lens keeps or imports: UTF-8, and a file that is not says where and why."""

from __future__ import annotations

import os
from pathlib import Path

_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32 LE"),
    (b"\x00\x00\xfe\xff", "UTF-32 BE"),
    (b"\xff\xfe", "UTF-16 LE"),
    (b"\xfe\xff", "UTF-16 BE"),
)


def wide_encoding(head: bytes) -> str | None:
    """ "UTF-16 LE", "UTF-16 BE", "UTF-32 LE" or "UTF-32 BE" for a file that starts with `head` and is
    written in one (its byte-order mark, or NUL bytes between the characters of ASCII text); else None."""
    for mark, name in _BOMS:
        if head.startswith(mark):  # the mark, and then text that is that encoding's, not UTF-8's
            rest = head[len(mark) :]
            if _nul_pattern(rest) == name or not _utf8_prefix(rest):
                return name
            return None
    return _nul_pattern(head)


def _utf8_prefix(data: bytes) -> bool:
    """True if `data` reads as UTF-8 (a character cut at its end allowed)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(data) - 3 and exc.reason == "unexpected end of data"
    return True


def _nul_pattern(head: bytes) -> str | None:
    """The wide encoding whose NUL bytes sit between the characters of ASCII text in `head`, if any."""
    sample = head[:64]
    if len(sample) < 4 or sample.count(0) < len(sample) // 3:
        return None
    if sample[1::4].count(0) == sample[2::4].count(0) == sample[3::4].count(0) == len(sample[1::4]) != 0:
        return "UTF-32 LE"
    if sample[0::4].count(0) == sample[1::4].count(0) == sample[2::4].count(0) == len(sample[2::4]) != 0:
        return "UTF-32 BE"
    odd, even = sample[1::2], sample[0::2]
    if odd.count(0) * 4 >= len(odd) * 3 and not even.count(0):
        return "UTF-16 LE"
    if even.count(0) * 4 >= len(even) * 3 and not odd.count(0):
        return "UTF-16 BE"
    return None


def wide_refusal(what: str, encoding: str) -> str:
    """`this record is UTF-16 LE; records are UTF-8: re-save it as UTF-8`."""
    return f"this {what} is {encoding}; {what}s are UTF-8: re-save it as UTF-8"


class NotUtf8Error(ValueError):
    """A file (or line) that is not UTF-8 text; the message names the first bad byte, its line and column."""

    def __init__(self, raw: bytes, exc: UnicodeDecodeError, *, source: str | None = None) -> None:
        self.source = source
        self.offset = exc.start
        self.line = raw.count(b"\n", 0, exc.start) + 1
        self.column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = raw[exc.start : exc.end] or raw[exc.start : exc.start + 1]
        self.encoding = wide_encoding(raw)
        self.reason = (
            wide_refusal("file", self.encoding)
            if self.encoding
            else f"not UTF-8 text: byte {' '.join(f'0x{b:02X}' for b in bad)} at line {self.line}, "
            f"column {self.column} cannot be read (saved as Latin-1 or another encoding?); save the file as UTF-8"
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
