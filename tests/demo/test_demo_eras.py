"""The demo speaks both protocol eras on both transports; 2026-07-28 extras: stateless HTTP, cache hints,
header parameters, icons."""

import base64
from typing import Any

import anyio
import pytest
from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.inbound import find_invalid_x_mcp_header
from wire_support import MODERN, RawStdio, modern_meta, post, post_modern

STDIO = StdioServerParameters(command=DEMO_COMMAND[0], args=DEMO_COMMAND[1:], env=DEMO_ENV, cwd=str(REPO_ROOT))


@pytest.fixture
def raw() -> Any:
    server = RawStdio()
    yield server
    server.close()


@pytest.mark.parametrize(("mode", "version"), [("legacy", "2025-11-25"), ("auto", MODERN), (MODERN, MODERN)])
def test_sdk_client_gets_the_era_it_asks_for_on_both_transports(demo_http_url: str, mode: str, version: str) -> None:
    async def use(target: Any) -> tuple[str | None, bool, bool, str]:
        async with Client(target, mode=mode, read_timeout_seconds=30) as client:
            session = client.session
            echoed = await client.call_tool("echo", {"message": "both eras"})
            return (
                session.protocol_version,
                session.initialize_result is not None,
                session.discover_result is not None,
                echoed.content[0].text,  # type: ignore[union-attr]
            )

    for target in (STDIO, demo_http_url):
        negotiated, initialized, discovered, text = anyio.run(use, target)
        assert negotiated == version
        assert initialized is (mode == "legacy")
        assert discovered is (mode != "legacy")
        assert text == "both eras"


def test_modern_http_is_stateless_and_legacy_http_has_a_session(demo_http_url: str) -> None:
    headers, reply = post_modern(demo_http_url, 1, "tools/list", {})
    assert "mcp-session-id" not in headers
    assert reply["result"]["resultType"] == "complete"
    assert {tool["name"] for tool in reply["result"]["tools"]} >= {"echo", "order_coffee", "research_topic"}
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
    headers, reply = post(demo_http_url, {"id": 2, "method": "initialize", "params": init})
    assert headers.get("mcp-session-id")
    assert reply["result"]["protocolVersion"] == "2025-11-25"


def test_modern_stdio_needs_no_handshake_and_carries_the_envelope_per_request(raw: RawStdio) -> None:
    discovered = raw.request(1, "server/discover", {"_meta": modern_meta()})["result"]
    assert discovered["supportedVersions"] == [MODERN]
    server_info = discovered["_meta"]["io.modelcontextprotocol/serverInfo"]  # 2026-07-28: in _meta
    assert server_info["name"] == "mcp-lens-demo"
    assert [icon["mimeType"] for icon in server_info["icons"]] == ["image/svg+xml", "image/png", "image/png"]
    echoed = raw.request(2, "tools/call", {"name": "echo", "arguments": {"message": "hi"}, "_meta": modern_meta()})
    assert echoed["result"]["content"][0]["text"] == "hi"
    assert echoed["result"]["resultType"] == "complete"


def test_cache_hints_on_a_list_and_a_result(raw: RawStdio) -> None:
    prompts = raw.request(1, "prompts/list", {"_meta": modern_meta()})["result"]
    assert (prompts["ttlMs"], prompts["cacheScope"]) == (300_000, "public")
    read = raw.request(2, "resources/read", {"uri": "demo://docs/guide", "_meta": modern_meta()})["result"]
    assert (read["ttlMs"], read["cacheScope"]) == (1_000, "private")
    tools = raw.request(3, "tools/list", {"_meta": modern_meta()})["result"]
    assert (tools["ttlMs"], tools["cacheScope"]) == (0, "private")  # changes at run time (toggle_extra_tool)


def test_icons_on_server_tools_resource_and_prompt(raw: RawStdio) -> None:
    server_icons = raw.initialize()["result"]["serverInfo"]["icons"]
    sources = [icon["src"] for icon in server_icons]
    assert sources[0].startswith("data:image/svg+xml;base64,") and sources[1].startswith("data:image/png;base64,")
    assert sources[2].startswith("https://")
    tools = {tool["name"]: tool for tool in raw.request(1, "tools/list")["result"]["tools"]}
    assert tools["order_coffee"]["icons"][0]["mimeType"] == "image/png"
    assert tools["research_topic"]["icons"][0]["mimeType"] == "image/svg+xml"
    hostile = tools["route_request"]["icons"][0]["src"]
    svg = base64.b64decode(hostile.split(",", 1)[1]).decode()
    assert "<script>" in svg and "onload=" in svg and 'href="https://' in svg
    resources = {r["uri"]: r for r in raw.request(2, "resources/list")["result"]["resources"]}
    assert [icon["mimeType"] for icon in resources["demo://docs/guide"]["icons"]] == ["image/png", "image/png"]
    prompts = {p["name"]: p for p in raw.request(3, "prompts/list")["result"]["prompts"]}
    assert prompts["describe_image"]["icons"][0]["mimeType"] == "image/svg+xml"


def test_header_parameters_are_mirrored_by_a_modern_http_client(demo_http_url: str) -> None:
    async def use(target: Any) -> str:
        async with Client(target, mode=MODERN, read_timeout_seconds=30) as client:
            result = await client.call_tool("route_request", {"region": "eu-west", "priority": 7, "dry_run": True})
            return result.content[0].text  # type: ignore[union-attr]

    text = anyio.run(use, demo_http_url)
    assert text.startswith("would route 'status' to eu-west at priority 7.")
    mirrored = ("mcp-param-region: eu-west", "mcp-param-priority: 7", "mcp-param-dryrun: true")
    for line in (*mirrored, "mcp-name: route_request"):
        assert line in text
    assert "did not come over HTTP" in anyio.run(use, STDIO)


def test_the_bad_header_tool_is_listed_with_invalid_annotations(raw: RawStdio) -> None:
    tools = {t["name"]: t for t in raw.request(1, "tools/list", {"_meta": modern_meta()})["result"]["tools"]}
    assert find_invalid_x_mcp_header(tools["route_request"]["inputSchema"]) is None
    properties = tools["route_request"]["inputSchema"]["properties"]
    assert {name: p.get("x-mcp-header") for name, p in properties.items()} == {
        "region": "Region",
        "priority": "Priority",
        "dry_run": "DryRun",
        "query": None,
    }
    bad = tools["route_request_bad_headers"]["inputSchema"]
    assert find_invalid_x_mcp_header(bad) is not None
    assert bad["properties"]["score"] == {**bad["properties"]["score"], "type": "number", "x-mcp-header": "Score"}
    assert bad["properties"]["zone"]["x-mcp-header"] == "region"  # duplicates Region, ignoring case
