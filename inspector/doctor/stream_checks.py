"""The doctor's check that a Streamable HTTP server takes several requests at once, each on its own POST
(a client may keep several streams open: the official suite's ``server-sse-multiple-streams``): every one
answered 2xx, and an event-stream answer readable. Made with exchanges of its own (`http_probe`): in the
connection's era, and on a 2026-07-28 connection also in a session of the doctor's own when the server
answers its ``initialize`` (as `http_checks.check_session_lifecycle` does), since streams per session is
where a server limits them; not when the era was chosen (as the other-era checks)."""

from __future__ import annotations

from typing import Any

from inspector.doctor.applies import NOT_HTTP
from inspector.doctor.http_checks import (
    CLIENT_INFO,
    NEWEST_HANDSHAKE_VERSION,
    SESSION_HEADER,
    VERSION_HEADER,
    http_probe,
)
from inspector.doctor.http_probe import Answer, HttpProbe
from inspector.doctor.sections import SECTION_STREAMS
from inspector.doctor.state import ProbeState

CHECK = "sse-streams"
AT_ONCE = 3  # as many as the suite sends


async def check_sse_streams(state: ProbeState) -> None:
    """`AT_ONCE` requests of a list the server declared (else ping / server/discover), sent together."""
    async with http_probe(state, CHECK) as probe:
        if probe is None:
            state.report.not_applicable(CHECK, NOT_HTTP)
            return
        state.report.ran.append(CHECK)
        method = _a_request(state)
        if state.conn.era == "modern":
            params, headers = state.conn.envelope(method, {}, {})
            _judge(state, method, await _together(probe, method, params, headers), "")
            if state.asked != "auto":  # as the other-era checks: an era chosen is the only one tried
                state.report.skip(CHECK, f"the era was chosen ({state.asked}): no legacy session tried", "a session")
                return
        sid, version = await _own_session(probe, state)
        if sid is None:
            if state.conn.era != "modern":  # a stateless legacy server: the requests without a session
                answers = await _together(probe, method, {}, {VERSION_HEADER: version})
                _judge(state, method, answers, "")
            return
        own = {SESSION_HEADER: sid, VERSION_HEADER: version}
        try:
            await probe.send("POST", probe.message("notifications/initialized", notification=True), own)
            where = f" (in a session the doctor opened with initialize {version})" if state.conn.era == "modern" else ""
            _judge(
                state, method, await _together(probe, method, {}, own), where or " (in a session of the doctor's own)"
            )
        finally:
            await probe.send("DELETE", headers=own)


def _a_request(state: ProbeState) -> str:
    caps = state.conn.capabilities
    listed = next((f"{kind}/list" for kind in ("tools", "prompts", "resources") if kind in caps), None)
    return listed or ("server/discover" if state.conn.era == "modern" else "ping")


async def _own_session(probe: HttpProbe, state: ProbeState) -> tuple[str | None, str]:
    """A session of the doctor's own (its initialize, a probe): (its id or None, the version asked)."""
    modern = state.conn.era == "modern"
    version = NEWEST_HANDSHAKE_VERSION if modern else state.conn.protocol_version or NEWEST_HANDSHAKE_VERSION
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}
    opened = await probe.post("initialize", params, {VERSION_HEADER: None})  # type: ignore[dict-item]
    if opened.error is not None or not 200 <= opened.status < 300 or opened.rpc_error is not None:
        return None, version
    return opened.header("mcp-session-id") or None, version


async def _together(probe: HttpProbe, method: str, params: dict[str, Any], headers: dict[str, Any]) -> list[Answer]:
    return await probe.at_once("POST", [probe.message(method, params) for _ in range(AT_ONCE)], headers)


def _judge(state: ProbeState, method: str, answers: list[Answer], where: str) -> None:
    said = ", ".join(f"HTTP {a.status}" if a.error is None else f"cut off ({a.error})" for a in answers)
    refused = [a for a in answers if a.error is not None or not 200 <= a.status < 300]
    sent = f"of {len(answers)} {method} requests sent at once, each its own POST"
    if refused:  # an event stream cut off counts: its reader fails, as the suite's does
        state.report.add(
            "error",
            CHECK,
            "$",
            f"{sent}, {len(refused)} were refused or cut off: {said}{where}",
            "each answered (2xx): a client may have several requests, and their streams, open at once",
            SECTION_STREAMS,
        )
