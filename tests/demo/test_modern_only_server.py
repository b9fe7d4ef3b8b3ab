"""tests/servers/modern_only.py, the 2026-07-28-only test server: discover works, initialize is refused."""

import json
import subprocess
import sys
import urllib.request
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
}


def assert_refused(reply: dict[str, Any]) -> None:
    assert "result" not in reply, reply
    assert reply["error"]["code"] == -32022
    assert reply["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2025-11-25"}


def test_stdio_refuses_initialize(modern_only: list[str]) -> None:
    done = subprocess.run(modern_only, input=json.dumps(INITIALIZE) + "\n", capture_output=True, text=True, timeout=30)
    assert_refused(json.loads(done.stdout.splitlines()[0]))


def test_http_refuses_initialize(modern_only_http: str) -> None:
    request = urllib.request.Request(
        modern_only_http,
        data=json.dumps(INITIALIZE).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read().decode()
    except urllib.error.HTTPError as exc:  # an error status still carries the JSON-RPC error
        body = exc.read().decode()
    data = next((line[5:] for line in body.splitlines() if line.startswith("data:")), body)
    assert_refused(json.loads(data))


@pytest.mark.parametrize("mode", ["auto", "2026-07-28"])
def test_sdk_client_speaks_modern_over_stdio_and_http(modern_only: list[str], modern_only_http: str, mode: str) -> None:
    async def use(target: Any) -> tuple[str, str]:
        async with Client(target, mode=mode, read_timeout_seconds=20) as client:
            summed = await client.call_tool("add", {"a": 2, "b": 40})
            who = await client.call_tool("whoami", {})
            return summed.content[0].text, who.content[0].text  # type: ignore[union-attr]

    stdio = StdioServerParameters(command=modern_only[0], args=modern_only[1:])
    for target in (stdio, modern_only_http):
        summed, who = anyio.run(use, target)
        assert summed == "42"
        assert who.startswith("protocol 2026-07-28; client ")


def test_legacy_client_cannot_connect(modern_only: list[str]) -> None:
    async def connect() -> None:
        async with Client(StdioServerParameters(command=sys.executable, args=modern_only[1:]), mode="legacy"):
            pass

    with pytest.raises(Exception) as raised:
        anyio.run(connect)
    assert "-32022" in repr(raised.value) or "Unsupported protocol version" in repr(raised.value)
