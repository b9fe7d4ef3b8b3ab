"""Protocol eras: the handshake era (`initialize`, up to 2025-11-25) and the modern era (2026-07-28:
`server/discover`, stateless requests each carrying its own `_meta` envelope).

An era setting is ``auto`` (probe `server/discover`, fall back to `initialize`), ``legacy``,
``modern``, or one pinned protocol version. `envelope()` stamps a modern request as the spec asks;
`Negotiation` says what a connection settled on and how.
"""

from __future__ import annotations

import base64
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.config.eras import (
    DEFAULT_ERA,
    ERAS,
    HANDSHAKE_PROTOCOL_VERSIONS,
    KNOWN_VERSIONS,
    LATEST_HANDSHAKE_VERSION,
    MODERN_PROTOCOL_VERSIONS,
    EraError,
    parse_era,
)
from inspector.core.errors import ProtocolError

__all__ = ["DEFAULT_ERA", "ERAS", "KNOWN_VERSIONS", "EraError", "parse_era"]

PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"
LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel"
UNSUPPORTED_PROTOCOL_VERSION = -32022
PROTOCOL_VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
NAME_BEARING_METHODS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
# Methods the 2026-07-28 revision removes: offered only in the handshake era.
REMOVED_IN_MODERN = {
    "ping": "ping is removed in 2026-07-28: a modern server has no ping (any request shows it is up)",
    "logging/setLevel": "logging/setLevel is removed in 2026-07-28: the log level travels in each request's _meta",
}
# What 2026-07-28 deprecates, by the capability or method that uses it.
DEPRECATED_IN_MODERN = {
    "roots": "roots are deprecated in 2026-07-28",
    "sampling": "sampling is deprecated in 2026-07-28",
    "logging": "logging is deprecated in 2026-07-28",
}


def era_of(version: str | None) -> str:
    """``modern`` for a per-request-envelope version, else ``legacy``."""
    return "modern" if version in MODERN_PROTOCOL_VERSIONS else "legacy"


def handshake_version(setting: str) -> str:
    """The version to offer in `initialize` for a setting (a pinned handshake version, else the newest)."""
    return setting if setting in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION


def modern_version(setting: str) -> str:
    """The version to probe `server/discover` with (a pinned modern version, else the newest)."""
    return setting if setting in MODERN_PROTOCOL_VERSIONS else MODERN_PROTOCOL_VERSIONS[-1]


def tries_modern(setting: str) -> bool:
    return setting in ("auto", "modern") or setting in MODERN_PROTOCOL_VERSIONS


def tries_legacy(setting: str) -> bool:
    return setting in ("auto", "legacy") or setting in HANDSHAKE_PROTOCOL_VERSIONS


@dataclass
class Negotiation:
    """What a connection settled on, and how it got there."""

    setting: str = DEFAULT_ERA
    era: str = "legacy"  # "legacy" | "modern"
    version: str | None = None
    discover: dict[str, Any] | None = None  # the raw server/discover result, modern era
    probe_ms: float | None = None  # how long the server/discover probe took (auto)
    probe_outcome: str = ""  # "answered" | why the probe fell back
    remembered: bool = False  # auto skipped the probe: this server left it unanswered before
    probe_wait_s: float = 0.0  # how long auto's probe waited
    # auto fell back to initialize, which was refused with -32022, and turned back to server/discover:
    # what the first probe came to ("unanswered", "refused (…)", "" when none was sent)
    switched_from: str | None = None
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """One line for a status bar or the CLI: ``modern 2026-07-28 (auto: server/discover answered in 12 ms)``."""
        text = f"{self.era} {self.version or '?'}"
        if self.setting == "auto":
            if self.switched_from is not None:
                first = {
                    "": "no probe (remembered)",
                    "unanswered": f"server/discover unanswered within {self.probe_wait_s:g} s",
                }
                probe = first.get(self.switched_from, "server/discover refused")
                text += f" (auto: {probe}, then initialize refused with -32022, then server/discover answered)"
            elif self.remembered:
                text += " (auto: no probe, this server left server/discover unanswered before)"
            elif self.probe_outcome == "unanswered" and self.probe_ms is not None:
                text += f" (auto: server/discover unanswered for {self.probe_ms / 1000:.1f} s, then initialize)"
            elif self.probe_outcome and self.era == "legacy":
                text += " (auto: server/discover refused, then initialize)"
            elif self.era == "modern":
                text += " (auto: server/discover answered)"
        elif self.setting not in ("legacy", "modern"):
            text += " (pinned)"
        return text


def envelope(
    method: str,
    params: dict[str, Any] | None,
    *,
    version: str,
    client_info: dict[str, Any],
    capabilities: dict[str, Any],
    extra_headers: dict[str, str] | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """A modern request's params with its `_meta` envelope, and the HTTP headers it carries.

    The caller's own `_meta` keys win (a re-send keeps what it sent); `Mcp-Name` carries the tool or
    prompt name or the resource URI, encoded the way the spec asks for a value that is not a token.
    """
    out = dict(params or {})
    meta = {
        PROTOCOL_VERSION_META_KEY: version,
        CLIENT_INFO_META_KEY: client_info,
        CLIENT_CAPABILITIES_META_KEY: capabilities,
    }
    if isinstance(out.get("_meta"), dict):
        meta.update(out["_meta"])
    out["_meta"] = meta
    headers = {PROTOCOL_VERSION_HEADER: version, METHOD_HEADER: method}
    name_key = NAME_BEARING_METHODS.get(method)
    if name_key is not None and isinstance(name := out.get(name_key), str):
        headers[NAME_HEADER] = encode_header_value(name)
    headers.update(extra_headers or {})
    return out, headers


def encode_header_value(value: str) -> str:
    """A header value as sent: printable ASCII without edge spaces verbatim, anything else as
    ``=?base64?…?=`` (the spec's encoding for values that would not survive an HTTP field)."""
    safe = all(0x20 <= ord(ch) <= 0x7E for ch in value) and value == value.strip()
    if safe and not (value.startswith("=?base64?") and value.endswith("?=")):
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")  # RFC 9110 token: an HTTP field name
_DATA_KEYWORDS = frozenset({"default", "examples", "const", "enum"})  # instance data, never annotations
HEADER_TYPES = ("string", "integer", "boolean")


def _annotations(schema: Any) -> list[tuple[tuple[str, ...] | None, dict[str, Any]]]:
    """Every schema object carrying `x-mcp-header`, with its property path when it is reached from the
    root through `properties` alone (None anywhere else: items, combinators, $defs, ...)."""
    found: list[tuple[tuple[str, ...] | None, dict[str, Any]]] = []
    stack: list[tuple[Any, tuple[str, ...] | None]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, list):
            stack.extend((item, None) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        if "x-mcp-header" in node:
            found.append((path or None, node))
        for key, value in node.items():
            if key in _DATA_KEYWORDS:
                continue
            if key == "properties" and isinstance(value, dict) and path is not None:
                stack.extend((sub, (*path, name)) for name, sub in value.items())
            else:
                stack.append((value, None))
    return found


def invalid_header_params(tool: dict[str, Any]) -> str | None:
    """Why a tool's `x-mcp-header` annotations are invalid (a modern client must drop the tool), or None."""
    seen: dict[str, str] = {}
    for path, node in _annotations(tool.get("inputSchema")):
        if path is None:
            return "x-mcp-header on a schema that is not a property reached through properties alone"
        where = ".".join(path)
        token = node["x-mcp-header"]
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return f"property {where!r}: x-mcp-header {token!r} is not an HTTP header name token"
        if node.get("type") not in HEADER_TYPES:
            return f"property {where!r}: x-mcp-header is allowed on string, integer and boolean properties only"
        if token.lower() in seen:
            return f"x-mcp-header {token!r} on {where!r} repeats the one on {seen[token.lower()]!r}"
        seen[token.lower()] = where
    return None


def header_params(tool: dict[str, Any] | None, arguments: dict[str, Any]) -> dict[str, str]:
    """The `Mcp-Param-*` headers a `tools/call` mirrors from its arguments (2026-07-28 `x-mcp-header`)."""
    if tool is None or invalid_header_params(tool):
        return {}
    headers: dict[str, str] = {}
    for path, node in _annotations(tool.get("inputSchema")):
        value: Any = arguments
        for key in path or ():
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, str | int | float):
            text = str(value)
        else:
            continue
        headers[f"Mcp-Param-{node['x-mcp-header']}"] = encode_header_value(text)
    return headers


PROBE_TIMEOUT_S = 3.0  # how long `auto` waits for server/discover before trying initialize


def _supported(data: Any) -> list[str]:
    supported = data.get("supported") if isinstance(data, dict) else None
    return [v for v in supported if isinstance(v, str)] if isinstance(supported, list) else []


async def negotiate(
    setting: str,
    *,
    discover: Callable[[str, float | None], Awaitable[dict[str, Any]]],
    initialize: Callable[[str], Awaitable[dict[str, Any]]],
    remembered: str | None = None,
    probe_timeout: float = PROBE_TIMEOUT_S,
) -> tuple[Negotiation, dict[str, Any]]:
    """Settle the era for `setting`; returns the negotiation and the raw result (discover or initialize).

    `discover(version, timeout)` sends one `server/discover` (raising `ProtocolError` for a JSON-RPC
    error, `TimeoutError` past `timeout`); `initialize(version)` runs the handshake. `auto` probes
    first unless `remembered` (the era this profile settled on before) says legacy; any error or
    silence falls back to `initialize`, and -32022 from `initialize` (a modern-only server) re-probes.
    """
    neg = Negotiation(setting=setting, probe_wait_s=probe_timeout)
    effective = setting
    if setting == "auto" and remembered == "legacy":
        neg.remembered = True
        effective = "legacy"
    if tries_modern(effective):
        version = modern_version(effective)
        started = time.perf_counter()
        try:
            raw = await discover(version, probe_timeout if effective == "auto" else None)
            if not any(v in MODERN_PROTOCOL_VERSIONS for v in _supported({"supported": raw.get("supportedVersions")})):
                raise ProtocolError(
                    "server/discover lists no modern version this client speaks", code=UNSUPPORTED_PROTOCOL_VERSION
                )
            return _modern(neg, raw, started), raw
        except ProtocolError as exc:
            mutual = [v for v in _supported(exc.data) if v in MODERN_PROTOCOL_VERSIONS]
            if exc.code == UNSUPPORTED_PROTOCOL_VERSION and mutual:  # one retry, at the version it names
                raw = await discover(mutual[-1], None)
                return _modern(neg, raw, started), raw
            if effective != "auto":
                raise
            neg.probe_outcome = f"refused ({exc.message})"
        except TimeoutError:
            if effective != "auto":
                raise
            neg.probe_outcome = "unanswered"
        neg.probe_ms = (time.perf_counter() - started) * 1000
    try:
        raw = await initialize(handshake_version(effective))
    except ProtocolError as exc:
        mutual = [v for v in _supported(exc.data) if v in MODERN_PROTOCOL_VERSIONS]
        if exc.code != UNSUPPORTED_PROTOCOL_VERSION or not mutual or setting not in ("auto",):
            raise
        started = time.perf_counter()
        raw = await discover(mutual[-1], None)  # a modern-only server said so: speak its version
        neg.switched_from = "" if neg.remembered else neg.probe_outcome
        neg.notes.append("The server refused initialize with -32022: it speaks only the modern era now.")
        return _modern(neg, raw, started), raw
    neg.era = "legacy"
    neg.version = raw.get("protocolVersion") if isinstance(raw.get("protocolVersion"), str) else None
    if neg.probe_outcome == "unanswered":
        neg.notes.append(
            f"the server did not answer server/discover within {probe_timeout:g} s, so the connection waited "
            "that long before initialize; auto now starts with initialize for this server."
        )
    return neg, raw


def _modern(neg: Negotiation, raw: dict[str, Any], started: float) -> Negotiation:
    neg.era = "modern"
    neg.probe_ms = (time.perf_counter() - started) * 1000
    if neg.probe_outcome == "unanswered":  # a slow start: the probe timed out, initialize got -32022
        neg.notes.append(
            "server/discover took longer than the probe waits (a slow start, or a loaded machine?); "
            "the server is modern."
        )
    neg.probe_outcome = "answered" if neg.probe_outcome in ("", "unanswered") else neg.probe_outcome
    supported = _supported({"supported": raw.get("supportedVersions")})
    mutual = [v for v in MODERN_PROTOCOL_VERSIONS if v in supported]
    neg.version = mutual[-1] if mutual else None
    neg.discover = raw
    return neg


def learned_era(negotiation: Negotiation) -> str | None:
    """What `auto` remembers for a profile: ``legacy`` when a handshake-era server left the probe
    unanswered (it cost seconds), else nothing (a cheap probe is simply sent again)."""
    unanswered = negotiation.era == "legacy" and negotiation.probe_outcome == "unanswered"
    return "legacy" if negotiation.setting == "auto" and unanswered else None


def init_from_discover(raw: dict[str, Any], version: str | None) -> dict[str, Any]:
    """The handshake-shaped view of a discover result (what the panes read: version, info, capabilities)."""
    meta = raw.get("_meta") if isinstance(raw.get("_meta"), dict) else {}
    info = meta.get(SERVER_INFO_META_KEY)
    out: dict[str, Any] = {"protocolVersion": version, "capabilities": raw.get("capabilities") or {}}
    if isinstance(info, dict):
        out["serverInfo"] = info
    if isinstance(raw.get("instructions"), str):
        out["instructions"] = raw["instructions"]
    return out
