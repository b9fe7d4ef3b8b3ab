"""Reading the text files MCP Lens keeps or imports: UTF-8, and a file that is not says where and why."""

from __future__ import annotations

import codecs
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


_CODECS = {"UTF-32 LE": "utf-32-le", "UTF-32 BE": "utf-32-be", "UTF-16 LE": "utf-16-le", "UTF-16 BE": "utf-16-be"}


def marked_wide(head: bytes) -> tuple[str, str, int] | None:
    """(name, codec, length of the mark) for a file starting with `head` that is UTF-16 or UTF-32 with its
    byte-order mark; None otherwise (UTF-8, a wide encoding without its mark, or a mark followed by text
    without NUL bytes: stray bytes before a UTF-8 file's first line, whose intact lines are read as UTF-8)."""
    for mark, name in _BOMS:
        if head.startswith(mark):  # and then a NUL byte in every few (the ASCII our files start with)
            rest = head[len(mark) : 64]
            return (name, _CODECS[name], len(mark)) if rest.count(0) * 4 >= len(rest) > 0 else None
    return None


def wide_lines(data: bytes, codec: str) -> tuple[bytes, list[tuple[int, bytes]], bytes]:
    """`data` (whole lines of `codec` text, no mark) as UTF-8, line for line: (the UTF-8 lines, each with its
    newline; the lines that do not decode, as (index from 0, their bytes), an empty line in their place;
    the bytes after the last newline, not decoded)."""
    width = 4 if "32" in codec else 2
    newline = "\n".encode(codec)
    try:  # the common case: every line decodes
        end = _last_newline(data, newline, width)
        return data[:end].decode(codec).encode("utf-8"), [], data[end:]
    except UnicodeDecodeError:
        pass
    out: list[bytes] = []
    bad: list[tuple[int, bytes]] = []
    start = 0
    while (stop := _next_newline(data, newline, width, start)) >= 0:
        line = data[start:stop]
        try:
            out.append(line.decode(codec).encode("utf-8") + b"\n")
        except UnicodeDecodeError:
            bad.append((len(out), line))
            out.append(b"\n")
        start = stop + width
    return b"".join(out), bad, data[start:]


def _next_newline(data: bytes, newline: bytes, width: int, start: int) -> int:
    """The offset of the next newline character of a `width`-byte encoding at or after `start` (-1: none)."""
    at = data.find(newline, start)
    while at >= 0 and (at - start) % width:
        at = data.find(newline, at + 1)
    return at


def _last_newline(data: bytes, newline: bytes, width: int) -> int:
    """The offset just past the last newline character in `data` (0: none)."""
    at = data.rfind(newline)
    while at >= 0 and at % width:
        at = data.rfind(newline, 0, at + width - 1)
    return at + width if at >= 0 else 0


def decode_wide(raw: bytes) -> tuple[str, bytes] | None:
    """(its encoding's name, the text as UTF-8) for a whole file in UTF-16 or UTF-32 with its byte-order mark;
    each byte of a character that does not decode becomes 0xFF (not UTF-8: the readers' salvage finds it and
    says where). None for any other file."""
    found = marked_wide(raw[:64])
    if found is None:
        return None
    name, codec, mark = found
    return name, raw[mark:].decode(codec, _AS_FF).encode("utf-8", "surrogateescape")


def wide_text(raw: bytes) -> tuple[str | None, str | None]:
    """(the text, its encoding's name) for a file written in UTF-16 or UTF-32 (`wide_encoding`: its
    byte-order mark followed by that encoding's text, or NUL bytes between ASCII characters), else (None, None);
    a character that does not decode becomes U+FFFD."""
    name = wide_encoding(raw[:256])
    if name is None:
        return None, None
    return raw.decode(_CODECS[name], "replace").removeprefix("\ufeff"), name


def _as_ff(exc: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: each byte that does not decode as U+DCFF, which `surrogateescape` writes as 0xFF."""
    assert isinstance(exc, UnicodeDecodeError)
    return "\udcff" * (exc.end - exc.start), exc.end


_AS_FF = "mcp-lens-as-0xff"
codecs.register_error(_AS_FF, _as_ff)


def wide_note(what: str, encoding: str) -> str:
    """`this record is UTF-16 LE: read as such`, said once where the file is opened."""
    return f"this {what} is {encoding} (MCP Lens writes UTF-8): read as {encoding}"


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
