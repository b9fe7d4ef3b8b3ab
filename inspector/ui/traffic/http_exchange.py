"""One HTTP exchange of the record (the POST and its response's status and headers) and what its
protocol headers, result type, cache hints and 2026-07-28 error codes mean, in words.

The tap records a request's headers on the entry it sent and the response's in an ``http-meta`` entry
naming the request (``request_seq``); this pairs them for any entry of the exchange.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from inspector.core.errors import describe_code
from inspector.traffic.entry import Direction, Entry, Kind

_SCAN = 2000  # how far past a request to look for its response's headers
_WORDS_MAX_BYTES = 2_000_000  # entries larger than this are not parsed for the notes line

# Protocol headers, canonical spelling → what they say (2026-07-28 unless noted).
HEADER_WORDS = {
    "mcp-protocol-version": (
        "MCP-Protocol-Version",
        "the protocol version this request speaks (2026-07-28: the same as _meta's protocolVersion)",
    ),
    "mcp-method": ("Mcp-Method", "the JSON-RPC method of the body, so a proxy can route without reading it"),
    "mcp-name": ("Mcp-Name", "the tool or prompt name, or the resource URI, of the body"),
    "mcp-session-id": ("Mcp-Session-Id", "the session of the handshake era (a 2026-07-28 exchange is stateless)"),
}
PARAM_PREFIX = "mcp-param-"


@dataclass(frozen=True)
class Exchange:
    """The HTTP request (its tap metadata) and, once it came, the response's."""

    request: dict[str, Any]
    response: dict[str, Any] | None
    request_seq: int


def find_exchange(store: Any, entry: Entry | None) -> Exchange | None:
    """The HTTP exchange `entry` belongs to (the request, a response body or event, or the status line)."""
    if entry is None:
        return None
    request = _request_entry(store, entry)
    if request is None or request.http is None:
        return None
    return Exchange(request.http, _response_meta(store, request), request.seq)


def _request_entry(store: Any, entry: Entry) -> Entry | None:
    http = entry.http or {}
    if entry.direction is Direction.OUT and "method" in http:
        return entry
    for seq in (http.get("request_seq"), entry.peer_seq):
        if isinstance(seq, int):
            found = store.by_seq(seq)
            if found is not None and found.direction is Direction.OUT and "method" in (found.http or {}):
                return found
    return None


def _response_meta(store: Any, request: Entry) -> dict[str, Any] | None:
    start = store.index_of_seq(request.seq)
    if start is None:
        return None
    for index in range(start + 1, min(len(store), start + 1 + _SCAN)):
        candidate = store[index]
        http = candidate.http
        if (
            http is not None
            and candidate.kind is Kind.HTTP_META
            and http.get("request_seq") == request.seq
            and "status" in http
        ):
            return http
    return None


def decode_header_value(value: str) -> str | None:
    """The text of a ``=?base64?…?=`` header value (the spec's encoding for non-token values), else None."""
    if not (value.startswith("=?base64?") and value.endswith("?=")):
        return None
    try:
        return base64.b64decode(value[9:-2], validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def protocol_header_lines(headers: Iterable[Any]) -> list[str]:
    """One line per MCP header, in words: ``Mcp-Method: tools/list — the JSON-RPC method of the body …``."""
    lines = []
    for pair in headers:
        if not (isinstance(pair, list | tuple) and len(pair) == 2):
            continue
        name, value = str(pair[0]), str(pair[1])
        key = name.lower()
        decoded = decode_header_value(value)
        shown = f"{value} (decoded: {decoded})" if decoded is not None else value
        if key in HEADER_WORDS:
            canonical, words = HEADER_WORDS[key]
            lines.append(f"  {canonical}: {shown} — {words}")
        elif key.startswith(PARAM_PREFIX):
            param = name[len(PARAM_PREFIX) :]
            lines.append(
                f"  Mcp-Param-{param}: {shown} — a tool argument whose schema says x-mcp-header {param!r}, "
                "mirrored from the body so a proxy can read it"
            )
    return lines


def _header_block(http: dict[str, Any], lines: list[str]) -> None:
    for pair in http.get("headers") or ():
        if isinstance(pair, list | tuple) and len(pair) == 2:
            lines.append(f"  {pair[0]}: {pair[1]}")
        else:
            lines.append(f"  {json.dumps(pair, ensure_ascii=False)}")


def exchange_text(exchange: Exchange) -> str:
    """The Headers view: the MCP headers in words, then the request's and the response's headers as sent."""
    request, response = exchange.request, exchange.response
    lines: list[str] = []
    words = protocol_header_lines(request.get("headers") or ())
    answer = protocol_header_lines((response or {}).get("headers") or ())
    if words or answer:
        lines.append("Protocol headers")
        lines += words
        lines += [line.replace(" — ", " — (response) ", 1) for line in answer]
        if not any(line.lstrip().lower().startswith("mcp-session-id") for line in words + answer):
            modern = any(line.lstrip().startswith("Mcp-Method") for line in words)
            if modern:
                lines.append("  (no session id header: the 2026-07-28 wire is stateless)")
        lines.append("")
    lines.append(f"Request #{exchange.request_seq}")
    lines.append(f"  {request.get('method', '')} {request.get('url', '')}".rstrip())
    _header_block(request, lines)
    lines.append("")
    if response is None:
        lines.append("Response: no status line recorded (still waiting, or the transport failed)")
        return "\n".join(lines)
    lines.append("Response")
    lines.append(f"  HTTP {response.get('status')} {response.get('reason') or ''}".rstrip())
    if response.get("elapsed_ms") is not None:
        lines.append(f"  headers after {response['elapsed_ms']} ms")
    _header_block(response, lines)
    return "\n".join(lines)


# -- what a result or error says, in words ---------------------------------------------------------
RESULT_TYPES = {
    "complete": "resultType complete: the final result",
    "input_required": "resultType input_required: the server asks for input (inputRequests); the client "
    "retries with inputResponses and the opaque requestState",
    "task": "resultType task: a task was started in place of the result; poll tasks/get",
}


def _duration(ms: int) -> str:
    if ms == 0:
        return "not to be reused (ttlMs 0)"
    if ms < 1000:
        return f"fresh for {ms} ms"
    seconds = ms / 1000
    if seconds < 120:
        return f"fresh for {seconds:g} s (ttlMs {ms})"
    return f"fresh for {seconds / 60:g} min (ttlMs {ms})"


def cache_words(result: dict[str, Any]) -> str | None:
    """``cache hint: fresh for 5 min (ttlMs 300000), shareable between users (cacheScope public)``."""
    ttl, scope = result.get("ttlMs"), result.get("cacheScope")
    if ttl is None and scope is None:
        return None
    parts = []
    if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0:
        parts.append(_duration(ttl))
    elif ttl is not None:
        parts.append(f"ttlMs {ttl!r} is not a non-negative integer")
    if scope == "public":
        parts.append("shareable between users (cacheScope public)")
    elif scope == "private":
        parts.append("for this user only (cacheScope private)")
    elif scope is not None:
        parts.append(f"cacheScope {scope!r} is neither public nor private")
    return "cache hint: " + ", ".join(parts)


def message_words(message: Any) -> list[str]:
    """What a JSON-RPC response's `resultType`, cache hints and 2026-07-28 error codes mean."""
    if not isinstance(message, dict):
        return []
    words: list[str] = []
    result = message.get("result")
    if isinstance(result, dict):
        kind = result.get("resultType")
        if kind is not None:
            words.append(RESULT_TYPES.get(kind, f"resultType {kind!r}: not one the 2026-07-28 revision defines"))
        if cache := cache_words(result):
            words.append(cache)
    error = message.get("error")
    if isinstance(error, dict):
        said = describe_code(error.get("code"), error.get("data")).strip()
        if said:
            words.append(said)
    return words


def entry_words(entry: Entry) -> list[str]:
    """`message_words` of an incoming response entry (large entries are not parsed for this)."""
    if entry.direction is not Direction.IN or entry.rpc_id is None or entry.size > _WORDS_MAX_BYTES:
        return []
    return message_words(entry.parsed())
