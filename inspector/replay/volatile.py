"""The one table of fields that differ between two runs of the same exchange and say nothing about it
(ids, progress tokens, the client's name, a server's version), and what a message is once they are gone.

A rule is a path of keys from the message's top (``*`` matches any key or list position) and the
methods it applies to (empty: every message). `normalise` drops what the rules name; `request_key`
is the matcher's key of a request: its method and normalised params, hashed.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.config.redact import TYPED_BY_USER, hide_secret_arguments
from inspector.core.era import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, SERVER_INFO_META_KEY


@dataclass(frozen=True, slots=True)
class Volatile:
    path: tuple[str, ...]
    why: str
    methods: frozenset[str] = frozenset()  # of the request (a response: of the request it answers)


HANDSHAKES = frozenset({"initialize", "server/discover"})
VOLATILE: tuple[Volatile, ...] = (
    Volatile(("id",), "a JSON-RPC id is the client's own numbering"),
    Volatile(("jsonrpc",), "always 2.0"),
    Volatile(("params", "_meta", "progressToken"), "a progress token is the client's own"),
    Volatile(("params", "progressToken"), "a progress notification names the client's token"),
    Volatile(("params", "_meta", CLIENT_INFO_META_KEY), "which client asks (2026-07-28 envelope)"),
    Volatile(("params", "_meta", CLIENT_CAPABILITIES_META_KEY), "what the client declares (2026-07-28)"),
    Volatile(("params",), "the handshake is answered whatever client asks", HANDSHAKES),
    Volatile(("params", "requestState"), "the server's opaque state of an input_required round"),
    Volatile(("result", "requestState"), "the server's opaque state of an input_required round"),
    Volatile(("result", "serverInfo", "version"), "a new build's version number", HANDSHAKES),
    Volatile(("result", "_meta", SERVER_INFO_META_KEY, "version"), "a new build's version number"),
)


_STEP = re.compile(r"""\.([^.\[\]'"]+)|\[(-?\d+|\*)\]|\[(?:'([^']*)'|"([^"]*)")\]""")
_FIRST = re.compile(r"""[^.\[\]'"$]+""")


def parse_ignore(text: str) -> Volatile:
    """A rule from the command line: a JSON path (``$.result.content[0].text``, ``result.*.name``,
    ``$['a.b']``). Raises ValueError, saying where, for what is not one."""
    body, parts, at = text.strip(), [], 0
    if body.startswith("$"):
        at = 1
    elif first := _FIRST.match(body):
        parts.append(first.group(0))
        at = first.end()
    while at < len(body):
        step = _STEP.match(body, at)
        if step is None:
            raise ValueError(
                f"--ignore {text!r} is not a JSON path (at character {at + 1}); e.g. $.result.content[0].text"
            )
        parts.append(next(group for group in step.groups() if group is not None))
        at = step.end()
    if not parts:
        raise ValueError(f"an ignore rule names a field, got {text!r}")
    return Volatile(tuple(parts), f"--ignore {text}")


def matches(rule: Volatile, message: Any) -> bool:
    """Whether `rule` names a field `message` has (what it would drop)."""
    return _drop(message, rule.path) != message


def _drop(value: Any, path: tuple[str, ...]) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        keys = list(value) if head == "*" else [head] if head in value else []
        if not keys:
            return value
        out = dict(value)
        for key in keys:
            if rest:
                out[key] = _drop(out[key], rest)
            else:
                del out[key]
        return out
    if isinstance(value, list) and rest:
        if head == "*":
            return [_drop(item, rest) for item in value]
        if head.lstrip("-").isdigit() and -len(value) <= int(head) < len(value):
            out_list = list(value)
            out_list[int(head)] = _drop(out_list[int(head)], rest)
            return out_list
    return value


def normalise(message: Any, method: str | None = None, extra: tuple[Volatile, ...] = ()) -> Any:
    """`message` without the fields the rules name (a copy; `message` is left alone). `method`: of the
    request (for a response, the request it answers)."""
    method = method if method is not None else (message.get("method") if isinstance(message, dict) else None)
    for rule in (*VOLATILE, *extra):
        if not rule.methods or method in rule.methods:
            message = _drop(message, rule.path)
    _drop_empty_meta(message)
    return message


def _drop_empty_meta(message: Any) -> None:
    """A `_meta` left empty by the rules is as if it was never sent."""
    if isinstance(message, dict):
        for part in ("params", "result"):
            inner = message.get(part)
            if isinstance(inner, dict) and inner.get("_meta") == {}:
                message[part] = {k: v for k, v in inner.items() if k != "_meta"}


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace")


def request_key(message: dict[str, Any]) -> int:
    """The matcher's key: method and normalised params, as a signed 64-bit hash. No params and empty params
    (``{}``, or only a `_meta` the rules drop) are one key: clients differ in which they send. A tool's or
    prompt's secret-named argument (`password`) counts by name only: a record keeps it as `<redacted>`."""
    method = message.get("method")
    shown = normalise({"method": method, "params": message.get("params")}, method)
    params = shown.get("params")
    typed = TYPED_BY_USER.get(method) if isinstance(method, str) else None
    if typed == ("params", "arguments") and isinstance(params, dict) and isinstance(params.get("arguments"), dict):
        shown["params"] = {**params, "arguments": hide_secret_arguments(params["arguments"])}
    if shown.get("params") == {}:
        shown["params"] = None
    digest = hashlib.blake2b(canonical(shown), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
