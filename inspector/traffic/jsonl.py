"""Save and re-open a traffic record as JSON Lines (versioned).

The first line is a header. Every later line is one entry. Where the entry's raw bytes are a
single line of valid JSON (every stdio message is), they are spliced into the line verbatim as
the value of ``"msg"``, first in the object: the record then holds the server's bytes unchanged,
and a reader recovers them exactly from the ``"len"`` field. Other payloads (stderr, garbage,
pretty-printed HTTP bodies) are stored as a ``"raw"`` string or, when not UTF-8, ``"raw_b64"``.
"""

from __future__ import annotations

import base64
import io
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from inspector.config.files import open_private_append, write_atomic
from inspector.config.text_files import marked_wide, wide_encoding, wide_lines, wide_refusal
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.store import TrafficStore

FORMAT = "mcp-lens-traffic"
VERSION = 1
_MSG_PREFIX = b'{"msg":'


class RecordFormatError(ValueError):
    """The file is not a traffic record this version can read."""


BAD_LINE_TRANSPORT = "record"  # the transport of the entry that stands for a damaged line


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line of a record that could not be read: its number (the header is line 1), why, and its bytes
    as they are in the file. `cut`: the last line, without its newline (a writer stopped mid-line)."""

    number: int
    reason: str
    raw: bytes
    cut: bool = False

    def describe(self) -> str:
        if self.cut:
            return f"line {self.number} is cut off ({len(self.raw):,} bytes, no newline): {self.reason}"
        return f"line {self.number} is damaged ({len(self.raw):,} bytes kept): {self.reason}"


def _splicable(raw: bytes) -> bool:
    if b"\n" in raw or b"\r" in raw or not raw.strip():
        return False
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def _meta(entry: Entry) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "seq": entry.seq,
        "wall": entry.wall,
        "mono": entry.mono,
        "dir": entry.direction.value,
        "transport": entry.transport,
        "kind": entry.kind.value,
    }
    optional = {
        "parse_error": entry.parse_error,
        "id": entry.rpc_id,
        "method": entry.method,
        "peer": entry.peer_seq,
        "latency_ms": entry.latency_ms,
        "error_code": entry.error_code,
        "tool_error": entry.is_tool_error or None,
        "http": entry.http,
        "notes": entry.notes or None,
        "group": entry.group,
        "round": entry.round_title,
        "server": entry.source,
        "probe": entry.probe,
    }
    meta.update({key: value for key, value in optional.items() if value is not None})
    return meta


def encode_entry(entry: Entry, *, splice: bool = True) -> bytes:
    """One JSONL line (without the newline) for `entry`."""
    meta = _meta(entry)
    if splice and entry.kind not in (Kind.STDERR, Kind.LIFECYCLE) and _splicable(entry.raw):
        meta["len"] = len(entry.raw)
        return _MSG_PREFIX + entry.raw + b"," + _json_line(meta)[1:]
    try:
        meta["raw"] = entry.raw.decode("utf-8")
    except UnicodeDecodeError:
        meta["raw_b64"] = base64.b64encode(entry.raw).decode("ascii")
    return _json_line(meta)


def _json_line(value: dict[str, Any]) -> bytes:
    """`value` as compact JSON in UTF-8; with every non-ASCII character escaped when it holds a lone
    surrogate (a server's method "\\ud800" parses to one), which UTF-8 cannot carry."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


def line_problem(line: bytes, exc: ValueError) -> str:
    """Why a record line does not read: not UTF-8 (the byte and its column named), or not JSON."""
    if isinstance(exc, UnicodeDecodeError):
        bad = line[exc.start : exc.end] or line[exc.start : exc.start + 1]
        return (
            f"not UTF-8 text: byte {' '.join(f'0x{b:02X}' for b in bad)} at column {exc.start + 1} "
            "(saved as Latin-1 or another encoding?); records are UTF-8"
        )
    return f"not a JSON line: {exc}"


def decode_entry(line: bytes) -> Entry:
    try:
        obj = json.loads(line)
    except ValueError as exc:
        raise RecordFormatError(line_problem(line, exc)) from exc
    if not isinstance(obj, dict):
        raise RecordFormatError("entry line is not a JSON object")
    if "msg" in obj:
        length = obj.get("len")
        if not line.startswith(_MSG_PREFIX) or not isinstance(length, int):
            raise RecordFormatError('"msg" entry without its verbatim prefix or "len"')
        raw = line[len(_MSG_PREFIX) : len(_MSG_PREFIX) + length]
    elif "raw_b64" in obj:
        raw = base64.b64decode(obj["raw_b64"])
    else:
        # "surrogatepass": a lone surrogate (a "\ud800" escape, or its bytes, which json.loads passes) is
        # given back as the bytes it was, never an UnicodeEncodeError out of the reader
        raw = str(obj.get("raw", "")).encode("utf-8", "surrogatepass")
    try:
        return Entry(
            seq=int(obj["seq"]),
            wall=float(obj["wall"]),
            mono=float(obj["mono"]),
            direction=Direction(obj["dir"]),
            transport=str(obj["transport"]),
            kind=Kind(obj["kind"]),
            raw=raw,
            parse_error=obj.get("parse_error"),
            rpc_id=obj.get("id"),
            method=obj.get("method"),
            peer_seq=obj.get("peer"),
            latency_ms=obj.get("latency_ms"),
            error_code=obj.get("error_code"),
            is_tool_error=bool(obj.get("tool_error", False)),
            http=obj.get("http"),
            notes=tuple(obj.get("notes") or ()),
            group=obj.get("group") if isinstance(obj.get("group"), int) else None,
            round_title=obj.get("round") if isinstance(obj.get("round"), str) else None,
            source=obj.get("server") if isinstance(obj.get("server"), str) else None,
            probe=obj.get("probe") if isinstance(obj.get("probe"), str) else None,
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise RecordFormatError(f"entry is missing or has a bad field: {exc}") from exc


def header(meta: dict[str, Any] | None = None) -> bytes:
    return json.dumps({"format": FORMAT, "version": VERSION, "meta": meta or {}}).encode()


def write_entries(stream: IO[bytes], entries: Iterable[Entry], meta: dict[str, Any] | None = None) -> int:
    stream.write(header(meta) + b"\n")
    count = 0
    for entry in entries:
        stream.write(encode_entry(entry) + b"\n")
        count += 1
    return count


def save(path: str | os.PathLike[str], store: Iterable[Entry], meta: dict[str, Any] | None = None) -> int:
    """Write the record atomically and user-only (`config.files.write_atomic`). Returns the number of entries."""
    lines = [header(meta)]
    lines += [encode_entry(entry) for entry in store]
    write_atomic(path, b"\n".join(lines) + b"\n")
    return len(lines) - 1


def read_header(line: bytes) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except ValueError as exc:
        raise RecordFormatError(f"the first line is not a record header: {exc}") from exc
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordFormatError(f"not an MCP Lens traffic record (no {FORMAT!r} header)")
    version = head.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise RecordFormatError(f"record format version {version!r} is newer than this app reads ({VERSION})")
    return head


def read(path: str | os.PathLike[str]) -> tuple[TrafficStore, dict[str, Any], list[BadLine]]:
    """Re-open a saved record with everything intact in it: each line that cannot be read is kept as a
    `BadLine` (number, reason, bytes) and, after the record's own entries, as a flagged entry holding
    its bytes. Raises `RecordFormatError` when the first line is not a record header and no entry follows."""
    store = TrafficStore()
    bad: list[BadLine] = []
    with open(path, "rb") as source:
        stream, undecoded = _utf8_lines(source)
        first = stream.readline()
        if wide := wide_encoding(first):
            raise RecordFormatError(wide_refusal("record", wide))  # no mark: not a file of damaged lines
        try:
            head, head_error = read_header(first), None
        except RecordFormatError as exc:  # a record still, if entries follow
            head, head_error = {}, exc
        for number, line in enumerate(stream, start=2):
            complete = line.endswith(b"\n")
            line = line.rstrip(b"\n")
            if not line:
                continue
            try:
                store.add_entry(decode_entry(line))
            except RecordFormatError as exc:
                bad.append(BadLine(number, str(exc), line, cut=not complete))
            else:
                if not complete:  # whole JSON, but its newline never came: say so, keep the entry
                    bad.append(BadLine(number, "the entry is whole but its newline is missing", b"", cut=True))
    bad = sorted(bad + undecoded, key=lambda line: line.number)
    if head_error is not None:
        if not len(store):
            raise head_error
        bad.insert(0, BadLine(1, str(head_error), first.rstrip(b"\n"), cut=not first.endswith(b"\n")))
    for line in bad:
        if line.raw:
            store.add_entry(bad_line_entry(line, store.next_seq))
    return store, head.get("meta") or {}, bad


def _utf8_lines(source: IO[bytes]) -> tuple[IO[bytes], list[BadLine]]:
    """`source` itself, or for a UTF-16/32 record with its mark its lines as UTF-8 (`wide_lines`) and the
    lines that do not decode, told with their bytes (an empty line in their place)."""
    found = marked_wide(source.read(64))
    source.seek(0)
    if found is None:
        return source, []
    name, codec, mark = found
    text, lost, rest = wide_lines(source.read()[mark:], codec)
    bad = [BadLine(n + 1, f"not {name} text", raw) for n, raw in lost]
    if rest:
        try:
            text += rest.decode(codec).encode("utf-8")
        except UnicodeDecodeError:
            bad.append(BadLine(text.count(b"\n") + 1, f"not {name} text", rest, cut=True))
    return io.BytesIO(text), bad


def bad_line_entry(line: BadLine, seq: int) -> Entry:
    """A flagged entry standing for a damaged line: its bytes as they are in the file, the reason noted."""
    return Entry(
        seq=seq,
        wall=0.0,
        mono=0.0,
        direction=Direction.META,
        transport=BAD_LINE_TRANSPORT,
        kind=Kind.UNPARSABLE,
        raw=line.raw,
        parse_error=line.describe(),
    )


def load(path: str | os.PathLike[str]) -> tuple[TrafficStore, dict[str, Any]]:
    """Re-open a saved record into a new store (`read` without the list of damaged lines)."""
    store, meta, _bad = read(path)
    return store, meta


class RecordWriter:
    """Streams entries to a JSONL file as they are appended (for `--record`)."""

    def __init__(self, path: str | os.PathLike[str], meta: dict[str, Any] | None = None) -> None:
        target = Path(path)
        try:
            regular = stat.S_ISREG(os.lstat(target).st_mode)
        except FileNotFoundError:
            regular = True
        if regular:  # a new user-only file in its place (an old one is replaced, never written into)
            target.unlink(missing_ok=True)
            self._stream: IO[bytes] = os.fdopen(open_private_append(target, exclusive=True), "wb")
        else:  # a device, a pipe or a link the user named (/dev/stdout): written as it is
            self._stream = open(target, "wb")  # noqa: SIM115 - closed in close()
        self._stream.write(header(meta) + b"\n")

    def __call__(self, entry: Entry) -> None:
        self._stream.write(encode_entry(entry) + b"\n")

    def close(self) -> None:
        self._stream.close()
