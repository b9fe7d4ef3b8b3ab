"""Protocol eras against real servers: the demo (both eras), a silent handshake-era server, server-everything."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from core_support import http_profile, run_with, stdio_profile
from factories import tool
from lens_support import DEMO, EVERYTHING, REPO, qt_only
from mcp.shared import inbound
from mcp_types import version as sdk_versions

from inspector.config import eras
from inspector.core import era
from inspector.core.errors import ConnectFailed
from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore

SILENT = [sys.executable, str(Path(__file__).resolve().parents[1] / "servers" / "silent_legacy.py")]


def demo(era_setting: str):
    return stdio_profile(DEMO, era=era_setting, PYTHONPATH=str(REPO))


def sent(store: TrafficStore) -> list[str]:
    return [e.method for e in store if e.kind is Kind.REQUEST and e.direction.value == "out"]


def test_the_wire_names_match_the_sdk() -> None:
    assert eras.HANDSHAKE_PROTOCOL_VERSIONS == sdk_versions.HANDSHAKE_PROTOCOL_VERSIONS
    assert eras.MODERN_PROTOCOL_VERSIONS == sdk_versions.MODERN_PROTOCOL_VERSIONS
    assert era.PROTOCOL_VERSION_META_KEY == mcp_types.PROTOCOL_VERSION_META_KEY
    assert era.CLIENT_INFO_META_KEY == mcp_types.CLIENT_INFO_META_KEY
    assert era.CLIENT_CAPABILITIES_META_KEY == mcp_types.CLIENT_CAPABILITIES_META_KEY
    assert era.SERVER_INFO_META_KEY == mcp_types.SERVER_INFO_META_KEY
    assert era.LOG_LEVEL_META_KEY == mcp_types.LOG_LEVEL_META_KEY
    assert dict(inbound.NAME_BEARING_METHODS) == era.NAME_BEARING_METHODS
    for value in ("plain", " edge", "héllo", "=?base64?x?=", "tab\there"):
        assert era.encode_header_value(value) == inbound.encode_header_value(value)


SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}},
    {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}},
    {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "bad name"}}},
    {
        "type": "object",
        "properties": {"a": {"type": "string", "x-mcp-header": "X"}, "b": {"type": "integer", "x-mcp-header": "x"}},
    },
    {"type": "object", "properties": {"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "I"}}}},
    {
        "type": "object",
        "properties": {"o": {"type": "object", "properties": {"deep": {"type": "boolean", "x-mcp-header": "Deep"}}}},
    },
    {"type": "object", "$defs": {"d": {"type": "string", "x-mcp-header": "D"}}},
    {"type": "object", "properties": {"e": {"type": "string", "default": {"x-mcp-header": 5}}}},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_header_parameters_agree_with_the_sdk(schema: dict[str, Any]) -> None:
    ours = era.invalid_header_params(tool(input_schema=schema))
    assert (ours is None) == (inbound.find_invalid_x_mcp_header(schema) is None), ours
    if ours is None:
        arguments = {"region": "eu west", "o": {"deep": True}, "e": "x"}
        expected = inbound.mcp_param_headers(inbound.x_mcp_header_map(schema), arguments)
        assert era.header_params(tool(input_schema=schema), arguments) == expected


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
@pytest.mark.parametrize(
    ("setting", "expected_era", "version", "first"),
    [
        ("legacy", "legacy", "2025-11-25", "initialize"),
        ("auto", "modern", "2026-07-28", "server/discover"),
        ("modern", "modern", "2026-07-28", "server/discover"),
        ("2025-06-18", "legacy", "2025-06-18", "initialize"),
    ],
)
def test_the_demo_in_each_era(lite: bool, setting: str, expected_era: str, version: str, first: str) -> None:
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        listing = await conn.list_tools()
        outcome = await conn.call_tool("echo", {"message": "hé"})
        return conn.negotiation, conn.server_info, listing, outcome

    negotiation, info, listing, outcome = run_with(demo(setting), body, lite=lite, store=store)
    assert (negotiation.era, negotiation.version, negotiation.setting) == (expected_era, version, setting)
    assert info.get("name") == "mcp-lens-demo"
    assert listing.by_name("echo") is not None and outcome.result["content"][0]["text"] == "hé"
    methods = sent(store)
    assert methods[0] == first
    assert ("initialize" in methods) == (expected_era == "legacy")
    call = next(e for e in store if e.method == "tools/call" and e.kind is Kind.REQUEST)
    meta = __import__("json").loads(call.raw)["params"].get("_meta", {})
    assert (meta.get(era.PROTOCOL_VERSION_META_KEY) == version) == (expected_era == "modern")


def test_auto_on_a_silent_legacy_server_says_what_the_probe_cost_and_is_remembered() -> None:
    profile = stdio_profile(SILENT, era="auto")

    async def body(conn: Any) -> Any:
        return conn.negotiation, (await conn.call_tool("hello")).result

    started = time.perf_counter()
    negotiation, result = run_with(profile, body, probe_timeout=era.PROBE_TIMEOUT_S)  # the app's wait
    assert negotiation.era == "legacy" and negotiation.probe_outcome == "unanswered"
    assert negotiation.probe_ms is not None and negotiation.probe_ms >= era.PROBE_TIMEOUT_S * 1000 * 0.9
    assert "did not answer server/discover" in " ".join(negotiation.notes)
    assert era.learned_era(negotiation) == "legacy"
    assert "unanswered" in negotiation.describe()
    assert result["content"][0]["text"] == "hello"
    first = time.perf_counter() - started

    started = time.perf_counter()
    again = run_with(profile, body, remembered_era="legacy")[0]
    assert again.remembered and again.era == "legacy" and again.probe_ms is None
    assert time.perf_counter() - started < first - era.PROBE_TIMEOUT_S / 2  # no probe this time
    assert "no probe" in again.describe()


@pytest.mark.npm
def test_modern_against_a_legacy_only_server_says_what_to_do() -> None:
    with pytest.raises(ConnectFailed) as failed:
        run_with(stdio_profile(["node", str(EVERYTHING), "stdio"], era="modern"), lambda conn: conn.list_tools())
    assert "server/discover" in failed.value.message
    assert "legacy" in (failed.value.hint or "")


@pytest.mark.npm
def test_auto_against_server_everything_falls_back_to_initialize() -> None:
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation

    negotiation = run_with(stdio_profile(["node", str(EVERYTHING), "stdio"], era="auto"), body, store=store)
    assert negotiation.era == "legacy" and negotiation.probe_outcome.startswith("refused")
    assert sent(store)[:2] == ["server/discover", "initialize"]


def test_an_unknown_era_is_refused_with_the_choices() -> None:
    with pytest.raises(eras.EraError, match="auto, legacy, modern"):
        eras.parse_era("future")


@pytest.mark.parametrize("setting", ["auto", "modern", "2026-07-28"])
@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_a_modern_only_server_over_stdio(modern_only: list[str], setting: str, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation, (await conn.call_tool("whoami")).result

    negotiation, result = run_with(stdio_profile(modern_only, era=setting), body, lite=lite, store=store)
    assert (negotiation.era, negotiation.version) == ("modern", "2026-07-28")
    assert "2026-07-28" in result["content"][0]["text"] and "mcp-lens" in result["content"][0]["text"]
    assert "initialize" not in sent(store)


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_legacy_against_a_modern_only_server_explains_minus_32022(modern_only: list[str], lite: bool) -> None:
    with pytest.raises(ConnectFailed) as failed:
        run_with(stdio_profile(modern_only, era="legacy"), lambda conn: conn.list_tools(), lite=lite)
    message = failed.value.message
    assert "-32022" in message and "does not speak the protocol version" in message and "2026-07-28" in message
    assert "modern" in (failed.value.hint or "")


def test_auto_after_a_remembered_legacy_answer_still_reaches_a_modern_only_server(modern_only_http: str) -> None:
    """The server was silent once and is modern-only now: initialize's -32022 turns auto to discover.
    (Over HTTP, where each request stands alone: a stdio server may lock its connection to the era of
    the first message it saw.)"""
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation

    negotiation = run_with(http_profile(modern_only_http, era="auto"), body, store=store, remembered_era="legacy")
    assert negotiation.era == "modern" and sent(store)[:2] == ["initialize", "server/discover"]
    assert any("-32022" in note for note in negotiation.notes)


@pytest.mark.parametrize("setting", ["auto", "modern"])
def test_a_modern_only_server_over_streamable_http(modern_only_http: str, setting: str) -> None:
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation, (await conn.call_tool("add", {"a": 2, "b": 3})).result

    negotiation, result = run_with(http_profile(modern_only_http, era=setting), body, store=store)
    assert negotiation.era == "modern" and result["content"][0]["text"] == "5"
    posts = [e.http for e in store if e.kind is Kind.REQUEST and e.http and e.http.get("method") == "POST"]
    headers = [{k.lower(): v for k, v in post["headers"]} for post in posts]
    assert all("mcp-session-id" not in h for h in headers)  # stateless
    call = next(h for h in headers if h.get("mcp-method") == "tools/call")
    assert call["mcp-name"] == "add" and call["mcp-protocol-version"] == "2026-07-28"


def test_legacy_over_http_against_a_modern_only_server_says_what_to_do(modern_only_http: str) -> None:
    with pytest.raises(ConnectFailed) as failed:
        run_with(http_profile(modern_only_http, era="legacy"), lambda conn: conn.list_tools())
    assert "-32022" in failed.value.message or "initialize" in failed.value.message
    assert failed.value.hint


@pytest.mark.parametrize("setting", ["legacy", "modern"])
def test_a_json_rpc_error_inside_the_session_stays_a_protocol_error(demo_http: str, setting: str) -> None:
    """Not "connection lost": the HTTP transport's task group wraps the body's error, and it is unwrapped."""
    from inspector.core.errors import ProtocolError

    async def body(conn: Any) -> Any:
        await conn.request("nosuch/method", {})

    with pytest.raises(ProtocolError) as failed:
        run_with(http_profile(demo_http, era=setting), body)
    assert failed.value.code == -32601


@qt_only("the Servers panel's How lines")
def test_a_slow_starting_modern_server_is_still_reached_and_not_remembered_as_legacy() -> None:
    """The probe gives up before the demo has started; initialize then meets a stdio server the probe
    already made modern (-32022), and auto turns back to discover. Nothing is remembered as legacy."""
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation

    negotiation = run_with(demo("auto"), body, store=store, probe_timeout=0.001)
    assert negotiation.era == "modern" and negotiation.version == "2026-07-28"
    assert sent(store)[:3] == ["server/discover", "initialize", "server/discover"]
    assert any("slow start" in note for note in negotiation.notes), negotiation.notes
    # What happened, in order, not "server/discover answered" alone (issue 21 via h11 point 4)
    described = negotiation.describe()
    assert "server/discover unanswered within 0.001 s" in described, described
    assert "initialize refused with -32022, then server/discover answered" in described, described

    from inspector.ui.servers.status_panel import negotiation_text

    how = negotiation_text(negotiation).splitlines()
    assert how[0].startswith("auto: server/discover unanswered within"), how
    assert all(line.endswith(".") for line in how), f"each line of How is its own sentence: {how}"

    assert era.learned_era(negotiation) is None
