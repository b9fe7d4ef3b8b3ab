"""The doctor's checks of 2026-07-28's own rules: cache hints on cacheable results (SEP-2549), and the
stateless request's `_meta` and version rules (SEP-2575) on Streamable HTTP, with exchanges of the
doctor's own (`http_probe`). Both run in the modern era only."""

from __future__ import annotations

from typing import Any

from inspector.core.era import (
    CLIENT_CAPABILITIES_META_KEY,
    PROTOCOL_VERSION_HEADER,
    PROTOCOL_VERSION_META_KEY,
)
from inspector.core.errors import ProtocolError, RequestTimeout
from inspector.doctor.http_checks import LEGACY, NOT_HTTP, http_probe
from inspector.doctor.http_probe import Answer
from inspector.doctor.sections import SECTION_CACHING, SECTION_STATELESS
from inspector.doctor.state import ProbeState

CACHEABLE = (
    ("tools", "tools/list"),
    ("prompts", "prompts/list"),
    ("resources", "resources/list"),
    ("resources", "resources/templates/list"),
)
SCOPES = ("public", "private")
INVALID_PARAMS = -32602
METHOD_NOT_FOUND = -32601
UNSUPPORTED_VERSION = -32022
HEADER_MISMATCH = -32020
UNKNOWN_VERSION = "1999-01-01"
UNKNOWN_METHOD = "mcp-lens/doctor-no-such-method"


async def check_caching(state: ProbeState) -> None:
    """Each cacheable result the server declared says how long it keeps (`ttlMs` ≥ 0) and for whom
    (`cacheScope`: public or private)."""
    if state.conn.era != "modern":
        state.report.not_applicable("caching", LEGACY)
        return
    state.report.ran.append("caching")
    caps = state.conn.capabilities
    asks = [(method, None) for kind, method in CACHEABLE if kind in caps]
    uri = next((r.get("uri") for r in state.resources if isinstance(r, dict) and isinstance(r.get("uri"), str)), None)
    if uri is not None:
        asks.append(("resources/read", {"uri": uri}))
    for method, params in asks:
        try:
            result = await state.request(method, params)
        except (ProtocolError, RequestTimeout):
            continue  # the list's own check says it failed
        wrong = _cache_fields(result)
        if wrong:
            state.report.add(
                "error",
                "caching",
                f"$[{method}]",
                f"{method}: {wrong}",
                "ttlMs (a non-negative integer, ms) and cacheScope (public or private) on every cacheable result",
                SECTION_CACHING,
            )


def _cache_fields(result: dict[str, Any]) -> str:
    wrong = []
    ttl, scope = result.get("ttlMs"), result.get("cacheScope")
    if "ttlMs" not in result:
        wrong.append("no ttlMs")
    elif not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0:
        wrong.append(f"ttlMs {ttl!r} is not a non-negative integer")
    if "cacheScope" not in result:
        wrong.append("no cacheScope")
    elif scope not in SCOPES:
        wrong.append(f"cacheScope {scope!r} is neither public nor private")
    return "; ".join(wrong)


async def check_stateless(state: ProbeState) -> None:
    """Every 2026-07-28 request stands alone: one without its `_meta` (or its protocol version, or its client
    capabilities) is refused with -32602 and HTTP 400; an unknown version with -32022 (the supported ones in
    its data) and 400; a header that contradicts `_meta` with -32020 and 400; a method the era removed or
    never had with -32601 and 404."""
    if state.conn.era != "modern":
        state.report.not_applicable("stateless", LEGACY)
        return
    async with http_probe(state, "stateless") as probe:
        if probe is None:
            state.report.not_applicable("stateless", NOT_HTTP)
            return
        state.report.ran.append("stateless")
        good, headers = state.conn.envelope("server/discover", {}, {})
        meta = good["_meta"]
        version = meta[PROTOCOL_VERSION_META_KEY]
        without = {key: value for key, value in meta.items() if key != PROTOCOL_VERSION_META_KEY}
        no_caps = {key: value for key, value in meta.items() if key != CLIENT_CAPABILITIES_META_KEY}
        cases: list[tuple[str, dict[str, Any], dict[str, str], int, int, str]] = [
            ("server/discover", {}, headers, INVALID_PARAMS, 400, "without _meta"),
            ("server/discover", {"_meta": without}, headers, INVALID_PARAMS, 400, "without _meta's protocolVersion"),
            ("server/discover", {"_meta": no_caps}, headers, INVALID_PARAMS, 400, "without _meta's clientCapabilities"),
            (
                "server/discover",
                {"_meta": {**meta, PROTOCOL_VERSION_META_KEY: UNKNOWN_VERSION}},
                {**headers, PROTOCOL_VERSION_HEADER: UNKNOWN_VERSION},
                UNSUPPORTED_VERSION,
                400,
                f"for version {UNKNOWN_VERSION}",
            ),
            (
                "server/discover",
                {"_meta": {**meta, PROTOCOL_VERSION_META_KEY: UNKNOWN_VERSION}},
                {**headers, PROTOCOL_VERSION_HEADER: version},
                HEADER_MISMATCH,
                400,
                f"with {UNKNOWN_VERSION} in _meta and {version} in the header",
            ),
        ]
        for method in ("ping", UNKNOWN_METHOD):
            params, own = state.conn.envelope("server/discover", {}, {})
            cases.append((method, params, {**own, "mcp-method": method}, METHOD_NOT_FOUND, 404, ""))
        for method, params, sent, code, status, how in cases:
            answer = await probe.post(method, params, sent)
            _judge(state, f"{method} {how}".strip(), answer, code, status)


def _judge(state: ProbeState, what: str, answer: Answer, code: int, status: int) -> None:
    if answer.error is not None:
        got = f"cut off ({answer.error})"
    elif answer.code != code or answer.status != status:
        got = f"HTTP {answer.status}, " + (f"error {answer.code_said}" if answer.rpc_error else "a result")
    else:
        if code == UNSUPPORTED_VERSION and not isinstance((answer.rpc_error or {}).get("data"), dict):
            got = "no data.supported in the error"
        else:
            return
    state.report.add(
        "error",
        "stateless",
        "$",
        f"{what}: {got}",
        f"JSON-RPC error {code} with HTTP {status}",
        SECTION_STATELESS,
    )
