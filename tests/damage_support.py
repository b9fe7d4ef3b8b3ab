"""Damage for the property-based tests (hypothesis): cut, flip, insert and re-encode the bytes of real files.

`damages()` draws a list of one to three operations; `apply_damage(data, ops)` does them in order. Each
operation names its position as a fraction of the file so that a draw fits any file:
  ("cut", at)              truncate at any byte
  ("flip", at, mask)       XOR one byte
  ("insert", at, bytes)    insert bytes: random ones, invalid UTF-8 sequences, newlines, JSON punctuation
  ("latin1", at)           re-encode the line at `at` (or the whole file with at < 0) from UTF-8 to Latin-1
  ("utf16",)               re-encode the whole file as UTF-16 with its byte-order mark (as Notepad saves it)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import strategies as st

INVALID_UTF8 = (b"\xff", b"\xfe", b"\xc3", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80")
JSONISH = (b"\n", b"\r\n", b"{", b"}", b'"', b",", b"\\", b"\x00", b"\n\n")

_at = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
_op = st.one_of(
    st.tuples(st.just("cut"), _at),
    st.tuples(st.just("flip"), _at, st.integers(min_value=1, max_value=255)),
    st.tuples(
        st.just("insert"),
        _at,
        st.one_of(st.sampled_from(INVALID_UTF8 + JSONISH), st.binary(min_size=1, max_size=8)),
    ),
    st.tuples(st.just("latin1"), st.one_of(_at, st.just(-1.0))),
    st.tuples(st.just("utf16")),
)


def damages() -> st.SearchStrategy[list[tuple]]:
    return st.lists(_op, min_size=1, max_size=3)


def _pos(data: bytes, at: float) -> int:
    return min(len(data), int(at * len(data)))


def apply_damage(data: bytes, ops: list[tuple]) -> bytes:
    for op in ops:
        kind = op[0]
        if kind == "cut":
            data = data[: _pos(data, op[1])]
        elif kind == "flip" and data:
            pos = min(len(data) - 1, _pos(data, op[1]))
            data = data[:pos] + bytes([data[pos] ^ op[2]]) + data[pos + 1 :]
        elif kind == "insert":
            pos = _pos(data, op[1])
            data = data[:pos] + op[2] + data[pos:]
        elif kind == "latin1":
            data = _latin1(data, op[1])
        elif kind == "utf16":
            data = data.decode("utf-8", "surrogateescape").encode("utf-16", "surrogatepass")
    return data


def utf16_lines(damaged: bytes, ops: list[tuple]) -> list[tuple[int, bytes]] | None:
    """For a file the "utf16" damage re-encoded that still starts with UTF-16 LE's mark: (line number, the line
    as UTF-8) of each line that ends with its newline and decodes; None for any other file."""
    if not any(op[0] == "utf16" for op in ops) or not damaged.startswith(b"\xff\xfe") or damaged[2:4] == b"\0\0":
        return None
    lines, start = [], 2
    for at in range(2, len(damaged) - 1, 2):
        if damaged[at : at + 2] == b"\n\0":
            try:
                lines.append((len(lines) + 1, damaged[start:at].decode("utf-16-le").encode("utf-8")))
            except UnicodeError:
                lines.append((len(lines) + 1, b"\xff"))  # stands for a line that does not decode
            start = at + 2
    return lines


def utf16_tail(damaged: bytes) -> bytes:
    """The bytes after the last newline of a UTF-16 LE file (with its mark), a newline at an even offset."""
    ends = [at for at in range(2, len(damaged) - 1, 2) if damaged[at : at + 2] == b"\n\0"]
    return damaged[ends[-1] + 2 :] if ends else damaged[2:]


def as_utf8(damaged: bytes, ops: list[tuple]) -> bytes:
    """A file the "utf16" damage re-encoded (still with its mark) as UTF-8, a character that does not decode
    as U+FFFD; any other file as it is."""
    if utf16_lines(damaged, ops) is None:
        return damaged
    return damaged[2:].decode("utf-16-le", "replace").encode("utf-8")


def first_difference(original: bytes, damaged: bytes) -> int:
    """The offset of the first byte the damage changed (where the intact prefix ends)."""
    same = 0
    for a, b in zip(original, damaged, strict=False):
        if a != b:
            return same
        same += 1
    return same


def _latin1(data: bytes, at: float) -> bytes:
    def reencode(chunk: bytes) -> bytes:
        return chunk.decode("utf-8", "surrogateescape").encode("latin-1", "replace")

    if at < 0:
        return reencode(data)
    pos = _pos(data, at)
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    end = len(data) if end < 0 else end
    return data[:start] + reencode(data[start:end]) + data[end:]


def demo_record(folder: Path) -> Path:
    """A real traffic record: `mcp-lens --cli` against the demo server, with --record."""
    path = folder / "demo.jsonl"
    demo = [sys.executable, "-m", "inspector", "--demo-server"]
    for method, extra in (("tools/list", []), ("tools/call", ["--tool-name", "echo", "--tool-arg", "message=café ✓"])):
        part = folder / f"{method.replace('/', '-')}.jsonl"
        cli = [sys.executable, "-m", "inspector", "--cli", "--method", method, *extra, "--record", str(part)]
        subprocess.run(
            [*cli, "--", *demo],
            check=True,
            capture_output=True,
            timeout=120,
        )
        lines = part.read_bytes().splitlines(keepends=True)
        if not path.exists():
            path.write_bytes(lines[0])
        with open(path, "ab") as out:
            out.writelines(_renumber(lines[1:], path))
    return path


def _renumber(lines: list[bytes], path: Path) -> list[bytes]:
    """The entry lines of a second run, their seq moved past the first run's (one record, unique seqs)."""
    from inspector.traffic import jsonl

    offset = sum(1 for _ in path.read_bytes().splitlines()) - 1
    out = []
    for line in lines:
        entry = jsonl.decode_entry(line.rstrip(b"\n"))
        entry.seq += offset
        if entry.peer_seq is not None:
            entry.peer_seq += offset
        out.append(jsonl.encode_entry(entry) + b"\n")
    return out
