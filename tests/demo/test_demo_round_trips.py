"""order_coffee asks for input mid-call: input_required + a retry (2026-07-28), elicitation/create (legacy)."""

from typing import Any

import anyio
import mcp_types as types
import pytest
from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from wire_support import MODERN, RawStdio, modern_meta

STDIO = StdioServerParameters(command=DEMO_COMMAND[0], args=DEMO_COMMAND[1:], env=DEMO_ENV, cwd=str(REPO_ROOT))
FORM = {"name": "Ada", "size": "large", "oat_milk": True}
CAPABILITIES = {"elicitation": {"form": {}}, "sampling": {}}


@pytest.fixture
def raw() -> Any:
    server = RawStdio()
    yield server
    server.close()


def test_modern_wire_input_required_then_retry(raw: RawStdio) -> None:
    call = {"name": "order_coffee", "arguments": {"drink": "cortado", "suggest_pastry": True}}
    first = raw.request(1, "tools/call", {**call, "_meta": modern_meta(**CAPABILITIES)})["result"]
    assert first["resultType"] == "input_required"
    requests = first["inputRequests"]
    methods = sorted(request["method"] for request in requests.values())
    assert methods == ["elicitation/create", "sampling/createMessage"]
    form = next(r for r in requests.values() if r["method"] == "elicitation/create")["params"]
    assert form["message"] == "How would you like your cortado?"
    assert set(form["requestedSchema"]["properties"]) == {"name", "size", "oat_milk"}
    assert isinstance(first["requestState"], str) and first["requestState"]

    responses = {
        key: {"action": "accept", "content": FORM}
        if request["method"] == "elicitation/create"
        else {"role": "assistant", "content": {"type": "text", "text": "Pastel de nata"}, "model": "test"}
        for key, request in requests.items()
    }
    retry = {**call, "inputResponses": responses, "requestState": first["requestState"]}
    final = raw.request(2, "tools/call", {**retry, "_meta": modern_meta(**CAPABILITIES)})["result"]
    assert final["resultType"] == "complete"
    assert final["structuredContent"] == {
        "drink": "cortado",
        "action": "accept",
        "order": FORM,
        "pastry": "Pastel de nata",
    }


def test_a_tampered_request_state_is_refused(raw: RawStdio) -> None:
    call = {"name": "order_coffee", "arguments": {}}
    first = raw.request(1, "tools/call", {**call, "_meta": modern_meta(**CAPABILITIES)})["result"]
    key = next(iter(first["inputRequests"]))
    retry = {**call, "inputResponses": {key: {"action": "decline"}}, "requestState": first["requestState"] + "x"}
    reply = raw.request(2, "tools/call", {**retry, "_meta": modern_meta(**CAPABILITIES)})
    assert reply["error"]["code"] == -32602


def test_legacy_wire_elicits_during_the_call(raw: RawStdio) -> None:
    raw.initialize(**CAPABILITIES)
    raw.answers["elicitation/create"] = {"action": "decline"}
    result = raw.request(1, "tools/call", {"name": "order_coffee", "arguments": {}})["result"]
    assert result["structuredContent"] == {"drink": "flat white", "action": "decline", "order": None, "pastry": None}
    assert [m["method"] for m in raw.seen if "method" in m] == ["elicitation/create"]


@pytest.mark.parametrize("mode", ["legacy", MODERN])
def test_sdk_client_drives_either_era(demo_http_url: str, mode: str) -> None:
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        asked.append("elicit")
        return types.ElicitResult(action="accept", content=FORM)

    async def sample(context: Any, params: Any) -> types.CreateMessageResult:
        asked.append("sample")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(text="Croissant"), model="t")

    async def use(target: Any) -> Any:
        async with Client(
            target, mode=mode, read_timeout_seconds=30, elicitation_callback=elicit, sampling_callback=sample
        ) as client:
            return (await client.call_tool("order_coffee", {"suggest_pastry": True})).structured_content

    for target in (STDIO, demo_http_url):
        asked.clear()
        assert anyio.run(use, target) == {
            "drink": "flat white",
            "action": "accept",
            "order": FORM,
            "pastry": "Croissant",
        }
        assert sorted(asked) == ["elicit", "sample"]
