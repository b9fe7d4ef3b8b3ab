"""The doctor's checks of a Streamable HTTP server's own rules, made with exchanges of its own
(`http_probe`) beside the connection: DNS-rebinding protection (both eras), the session lifecycle
(the handshake era) and the 2026-07-28 `Mcp-Method` / `Mcp-Name` header validation.

Each sends only what the server declared it can answer, and calls a tool only where the doctor may
(`ProbeState.callable_tools`); each is skipped for stdio and legacy SSE.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from inspector import __version__
from inspector.config.eras import LATEST_HANDSHAKE_VERSION
from inspector.doctor.applies import LEGACY, NOT_HTTP
from inspector.doctor.http_probe import Answer, HttpProbe, Unanswered, Unauthorized, endpoint_of, is_loopback
from inspector.doctor.sections import SECTION_DNS_REBINDING, SECTION_MCP_HEADERS, SECTION_SESSIONS
from inspector.doctor.state import ProbeState

FOREIGN_HOST = "evil.example.com"
SESSION_HEADER = "Mcp-Session-Id"
VERSION_HEADER = "MCP-Protocol-Version"
UNKNOWN_SESSION = "mcp-lens-doctor-unknown-session"
HEADER_MISMATCH = -32020
CLIENT_INFO = {"name": "mcp-lens-doctor", "version": __version__}
NEWEST_HANDSHAKE_VERSION = LATEST_HANDSHAKE_VERSION  # what a legacy client asks for first


@asynccontextmanager
async def http_probe(state: ProbeState, check: str) -> AsyncIterator[HttpProbe | None]:
    """A probe on the connection's endpoint, or None when it is not Streamable HTTP. A probe answered 401
    ends `check`: skipped, its findings so far dropped (the probes carry the profile's headers, not the
    connection's OAuth sign-in); so does a probe with no answer in time (the check cannot tell)."""
    endpoint = endpoint_of(state.conn)
    if endpoint is None:
        yield None
        return
    probe = HttpProbe(endpoint[0], endpoint[1], getattr(state.conn, "store", None), state.options.timeout)
    before = len(state.report.findings)
    try:
        yield probe
    except Unauthorized:
        _unsaid(state, check, before)
        state.report.skip(check, "the server answered the doctor's own request 401: it signs in separately")
    except Unanswered as exc:
        _unsaid(state, check, before)
        state.report.skip(check, f"the server did not answer the doctor's own request ({exc.why})")
    finally:
        await probe.aclose()


def _unsaid(state: ProbeState, check: str, before: int) -> None:
    """`check` did not run after all: its findings so far dropped, its 'ran' taken back."""
    del state.report.findings[before:]
    if check in state.report.ran:
        state.report.ran.remove(check)


def opening(state: ProbeState) -> tuple[str, dict[str, Any], dict[str, str]]:
    """What any server of the connection's era answers first: initialize, or server/discover with `_meta`."""
    if state.conn.era == "modern":
        params, headers = state.conn.envelope("server/discover", {}, {})
        return "server/discover", params, headers
    version = state.conn.protocol_version or ""
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}
    return "initialize", params, {VERSION_HEADER: version}


async def check_dns_rebinding(state: ProbeState) -> None:
    """A foreign Host and Origin on a loopback server's endpoint: refused with a 4xx, as a web page that
    rebinds its name to 127.0.0.1 must be."""
    async with http_probe(state, "dns-rebinding") as probe:
        if probe is None or not is_loopback(probe.url):
            why = "not Streamable HTTP" if probe is None else "not a plain-HTTP server on loopback"
            state.report.not_applicable("dns-rebinding", why)
            return
        state.report.ran.append("dns-rebinding")
        method, params, headers = opening(state)
        headers = {**headers, "Origin": f"http://{FOREIGN_HOST}"}
        answer = await probe.post(method, params, headers, host=FOREIGN_HOST)
        if answer.error is not None:  # the connection dropped: a refusal, if not the polite one
            state.report.add(
                "info",
                "dns-rebinding",
                "$",
                f"a request with Host: {FOREIGN_HOST} was cut off ({answer.error}): refused, if not with a 4xx",
                "HTTP 4xx for a foreign Host or Origin",
                SECTION_DNS_REBINDING,
            )
            return
        if not 400 <= answer.status < 500:
            state.report.add(
                "error",
                "dns-rebinding",
                "$",
                f"a request with Host: {FOREIGN_HOST} and Origin: http://{FOREIGN_HOST} was served "
                f"(HTTP {answer.status}): a web page can reach this server by DNS rebinding",
                "HTTP 4xx (e.g. 403) for a Host or Origin that is not localhost, 127.0.0.1 or [::1]",
                SECTION_DNS_REBINDING,
            )
        if sid := answer.header("mcp-session-id"):  # it opened a session for the foreign page: end it
            version = next((v for k, v in headers.items() if k.lower() == VERSION_HEADER.lower()), "")
            await probe.send("DELETE", headers={SESSION_HEADER: sid, VERSION_HEADER: version})


async def check_session_lifecycle(state: ProbeState) -> None:
    """A session of the doctor's own: an unknown or ended `Mcp-Session-Id` gets 404, DELETE ends one. On a
    2026-07-28 connection (no sessions) the doctor asks, with a probe of its own, whether the server also
    answers `initialize` (as a legacy client's would be), and if it opens a session, checks that."""
    async with http_probe(state, "session-lifecycle") as probe:
        if probe is None:
            state.report.not_applicable("session-lifecycle", NOT_HTTP)
            return
        modern = state.conn.era == "modern"
        if modern:
            version = NEWEST_HANDSHAKE_VERSION
            method, params = "initialize", {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}
        else:
            method, params, headers = opening(state)
            version = headers[VERSION_HEADER]
        opened = await probe.post(method, params, {VERSION_HEADER: None})  # type: ignore[dict-item]
        sid = opened.header("mcp-session-id")
        if modern and (opened.error is not None or not 200 <= opened.status < 300 or opened.rpc_error is not None):
            said = f"error {opened.code_said}" if opened.error is None and opened.rpc_error else _got(opened)
            why = f"2026-07-28 has no sessions, and the doctor's initialize ({version}) {said}"
            state.report.not_applicable("session-lifecycle", why.replace(" got ", " "))
            return
        if opened.error is not None or not 200 <= opened.status < 300:
            state.report.skip("session-lifecycle", f"a new session's {method} {_got(opened)}")
            return
        if not sid:
            state.report.not_applicable("session-lifecycle", "the server gives no Mcp-Session-Id (stateless)")
            return
        state.report.ran.append("session-lifecycle")
        report = _Said(state, f" (a session the doctor opened with initialize {version})" if modern else "")
        if not all(0x21 <= ord(ch) <= 0x7E for ch in sid):
            report("warning", "the session id holds characters outside visible ASCII", "only 0x21-0x7E")
        own = {SESSION_HEADER: sid, VERSION_HEADER: version}
        ready = await probe.send("POST", probe.message("notifications/initialized", notification=True), own)
        if not 200 <= ready.status < 300:
            report("error", f"notifications/initialized on a new session got HTTP {ready.status}", "HTTP 202")
            return
        stranger = await probe.post("ping", None, {SESSION_HEADER: UNKNOWN_SESSION, VERSION_HEADER: version})
        if stranger.status != 404:
            report(
                "error",
                f"a request with a session id the server never issued {_answered(stranger)}",
                "HTTP 404 for an unknown or ended session id (the client then starts a new session)",
            )
        ended = await probe.send("DELETE", headers=own)
        if ended.status == 405:
            return  # the spec lets a server refuse explicit termination
        if not (200 <= ended.status < 300 or ended.status == 404):
            report("warning", f"DELETE of the session {_got(ended)}", "2xx (or 405: not allowed)")
            return
        after = await probe.post("ping", None, own)
        if after.status != 404:
            report(
                "error",
                f"a request on the session DELETE ended {_answered(after)}",
                "HTTP 404 for requests with a terminated session id",
            )


class _Said:
    def __init__(self, state: ProbeState, where: str = "") -> None:
        self.state, self.where = state, where

    def __call__(self, severity: str, message: str, expected: str) -> None:
        self.state.report.add(severity, "session-lifecycle", "$", message + self.where, expected, SECTION_SESSIONS)


def _status(answer: Answer) -> str:
    return str(answer.status) if answer.error is None else f"nothing ({answer.error})"


def _answered(answer: Answer) -> str:
    """``was answered HTTP 200`` / ``was cut off (why)``."""
    return f"was answered HTTP {answer.status}" if answer.error is None else f"was cut off ({answer.error})"


def _got(answer: Answer) -> str:
    """``got HTTP 500`` / ``was cut off (why)``."""
    return f"got HTTP {answer.status}" if answer.error is None else f"was cut off ({answer.error})"


async def check_mcp_headers(state: ProbeState) -> None:
    """2026-07-28: a server checks `Mcp-Method` and `Mcp-Name` against the body and refuses a mismatch with
    HTTP 400 and -32020; header names are case-insensitive, values are not, and spaces around a value go."""
    if state.conn.era != "modern":
        state.report.not_applicable("mcp-headers", LEGACY)
        return
    async with http_probe(state, "mcp-headers") as probe:
        if probe is None:
            state.report.not_applicable("mcp-headers", NOT_HTTP)
            return
        state.report.ran.append("mcp-headers")
        listing = _a_list(state)
        other = "prompts/list" if listing != "prompts/list" else "tools/list"
        cases: list[tuple[str, dict[str, Any], dict[str, str | None], bool]] = [
            (listing, {}, {"Mcp-Method": other}, False),
            (listing, {}, {"Mcp-Method": None}, False),
            (listing, {}, {"Mcp-Method": listing.upper()}, False),
            (listing, {}, {"Mcp-Method": None, "mcp-method": listing}, True),
        ]
        named = _a_named_request(state)
        if named is not None:
            method, params, name = named
            cases += [
                (method, params, {"Mcp-Name": "mcp-lens-doctor-wrong-name"}, False),
                (method, params, {"Mcp-Name": None}, False),
                (method, params, {"Mcp-Name": f"  {name}  "}, True),
            ]
        for method, params, changed, accept in cases:
            body, headers = state.conn.envelope(method, params, {})
            sent = {**{k: v for k, v in headers.items() if k.lower() not in _lower(changed)}, **changed}
            answer = await probe.post(method, body, sent)  # type: ignore[arg-type]
            _judge(state, method, changed, accept, answer)


def _lower(changed: dict[str, Any]) -> set[str]:
    return {name.lower() for name in changed}


def _judge(state: ProbeState, method: str, changed: dict[str, str | None], accept: bool, answer: Answer) -> None:
    given = [f"{name}: {value!r}" for name, value in changed.items() if value is not None]
    sent = {name.lower() for name, value in changed.items() if value is not None}
    what = ", ".join(given + [f"no {name} header" for name in changed if name.lower() not in sent])
    if accept:
        if answer.error is not None or answer.status >= 400 or answer.rpc_error is not None:
            state.report.add(
                "error",
                "mcp-headers",
                "$",
                f"{method} with {what} was refused (HTTP {_status(answer)}, error {answer.code_said})",
                "accepted: header names are case-insensitive and spaces around a value are not part of it",
                SECTION_MCP_HEADERS,
            )
        return
    if answer.status != 400:
        state.report.add(
            "error",
            "mcp-headers",
            "$",
            f"{method} with {what} {_answered(answer)}, not refused",
            "HTTP 400 when Mcp-Method / Mcp-Name is missing or differs from the body",
            SECTION_MCP_HEADERS,
        )
    elif answer.code != HEADER_MISMATCH:
        state.report.add(
            "warning",
            "mcp-headers",
            "$",
            f"{method} with {what} was refused with error {answer.code_said}",
            f"JSON-RPC error {HEADER_MISMATCH} (HeaderMismatch)",
            SECTION_MCP_HEADERS,
        )


def _a_list(state: ProbeState) -> str:
    caps = state.conn.capabilities
    return next((f"{kind}/list" for kind in ("tools", "prompts", "resources") if kind in caps), "server/discover")


def _a_named_request(state: ProbeState) -> tuple[str, dict[str, Any], str] | None:
    """A request that carries `Mcp-Name`: a resource read (no side effects), else a tool the doctor may call."""
    for item in state.resources:
        if isinstance(item, dict) and isinstance(uri := item.get("uri"), str) and uri.isascii() and uri.isprintable():
            return "resources/read", {"uri": uri}, uri
    for _, tool in state.callable_tools():
        if isinstance(name := tool.get("name"), str) and name.isascii() and name.isprintable():
            return "tools/call", {"name": name, "arguments": {}}, name
    return None
