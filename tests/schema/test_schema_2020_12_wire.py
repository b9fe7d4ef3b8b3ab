"""JSON Schema 2020-12 preserved from the wire to the tool model and back (issue 13 point 7).

A real stdio server (tests/schema/schema_server.py) writes its tools/list as literal text; the core
lists it through the SDK's raw request path and a call re-sends a listed schema: every keyword, key
order and unknown keyword survives, as the conformance suite's `json-schema-2020-12-preservation`
checks, and nothing ever fetches the remote `$ref` (`json-schema-ref-no-deref`).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.targets import make_transport
from inspector.schema import validate
from inspector.traffic.entry import Direction
from inspector.traffic.store import TrafficStore
from tests.schema.schema_server import FOCAL
from tests.schema.schema_support import SCHEMA_SERVER, canary, key_order

FOCAL_SCHEMA = json.loads(FOCAL)


def _profile(**env: str) -> ServerProfile:
    argv = SCHEMA_SERVER
    return ServerProfile(
        name="schema", transport="stdio", command=argv[0], args=argv[1:], env=env, protocol_era="legacy"
    )


def _session(profile: ServerProfile, body: Any) -> tuple[Any, TrafficStore]:
    store = TrafficStore()

    async def main() -> Any:
        async with Connection(make_transport(profile, store), era="legacy") as conn:
            return await body(conn)

    return asyncio.run(main()), store


def _wire_tools(store: TrafficStore) -> list[dict[str, Any]]:
    """The tools of the tools/list response exactly as the server wrote it (parsed from the raw bytes)."""
    for entry in store:
        message = entry.parsed() if entry.direction is Direction.IN else None
        result = message.get("result") if isinstance(message, dict) else None
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            return result["tools"]
    raise AssertionError("no tools/list response on the wire")


def test_listed_schemas_keep_every_keyword_and_key_order() -> None:
    async def body(conn: Connection) -> Any:
        return (await conn.list_tools()).tools

    tools, store = _session(_profile(), body)
    wire = _wire_tools(store)
    assert [t["name"] for t in tools] == [t["name"] for t in wire]
    for listed, sent in zip(tools, wire, strict=True):
        assert key_order(listed) == key_order(sent), listed["name"]
    focal = tools[0]["inputSchema"]
    assert key_order(focal) == key_order(FOCAL_SCHEMA)
    assert focal["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert focal["$defs"]["address"]["$anchor"] == "addressDef"
    assert focal["additionalProperties"] is False
    assert focal["allOf"][0]["anyOf"] == [{"required": ["phone"]}, {"required": ["email"]}]
    assert {"if", "then", "else"} <= focal.keys()
    tour = tools[3]["inputSchema"]
    assert tour["x-vendor"] == {"keep": [1.5, 10, None]}
    assert isinstance(tour["x-vendor"]["keep"][1], int)  # 10 stays an integer, 1.5 a float


def test_echo_sends_the_listed_schema_back_unchanged(tmp_path: Path) -> None:
    """The suite's preservation scenario: the focal schema, as listed, is the echo tool's argument."""
    calls = tmp_path / "calls.jsonl"

    async def body(conn: Connection) -> Any:
        listing = await conn.list_tools()
        focal = listing.by_name("json_schema_2020_12_tool")["inputSchema"]
        await conn.call_tool("json_schema_echo", {"schema": focal})

    _, store = _session(_profile(SCHEMA_CALLS=str(calls)), body)
    received = json.loads(calls.read_text().splitlines()[0])["params"]["arguments"]["schema"]
    assert key_order(received) == key_order(FOCAL_SCHEMA)
    sent = next(e for e in store if e.direction is Direction.OUT and e.method == "tools/call")
    assert key_order(json.loads(sent.raw)["params"]["arguments"]["schema"]) == key_order(FOCAL_SCHEMA)


def test_a_remote_ref_is_never_fetched_by_listing_or_validation() -> None:
    with canary() as trap:

        async def body(conn: Connection) -> Any:
            return (await conn.list_tools()).by_name("lookup_user")

        tool, _ = _session(_profile(CANARY_URL=trap.url), body)
        schema = tool["inputSchema"]
        assert schema["properties"]["profile"] == {"$ref": trap.url}
        assert validate(schema, {"id": "ada"}) == []  # the local $ref resolves; profile is absent
        assert [i.keyword for i in validate(schema, {"id": "Not An Id!"})] == ["pattern"]
        issues = validate(schema, {"id": "ada", "profile": {"displayName": "Ada"}})
        assert trap.hits == []
        assert len(issues) == 1 and issues[0].path == ("profile",)
        assert "not fetched" in issues[0].message and trap.url in issues[0].message


def test_modern_era_over_http_lists_schemas_as_sent(demo_http: str) -> None:
    """The 2026-07-28 path (per-request envelope, Streamable HTTP, SSE or JSON bodies) keeps them too."""
    store = TrafficStore()
    profile = ServerProfile(name="demo", transport="http", url=demo_http, protocol_era="modern")

    async def main() -> Any:
        async with Connection(make_transport(profile, store), era="modern") as conn:
            assert conn.era == "modern"
            return (await conn.list_tools()).tools

    tools = asyncio.run(main())
    wire = _wire_tools(store)
    assert key_order(tools) == key_order(wire)
    assert any("$defs" in t.get("inputSchema", {}) for t in tools)  # the demo's nested models


def test_checking_structured_output_fetches_no_remote_ref() -> None:
    """The core checks structuredContent against the outputSchema on every call: never by fetching."""
    with canary() as trap:

        async def body(conn: Connection) -> Any:
            await conn.list_tools()
            return await conn.call_tool("structured_profile", {})

        outcome, _ = _session(_profile(CANARY_URL=trap.url), body)
        assert outcome.result["structuredContent"] == {"profile": {"displayName": "Ada"}}
        assert trap.hits == []
        assert any(trap.url in f.message and "not fetched" in f.message for f in outcome.findings), outcome.findings
