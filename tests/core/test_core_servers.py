"""The core against real servers: our demo and server-everything, over stdio and Streamable HTTP."""

from __future__ import annotations

import asyncio
import base64
import sys

import pytest
from core_support import http_profile, run_with, stdio_profile
from lens_support import DEMO, REPO

from inspector.core.errors import RequestTimeout, UnknownTool
from inspector.core.operations import Event, Operations
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

DEMO_PROFILE = stdio_profile(DEMO, PYTHONPATH=str(REPO))


async def _demo_tour(conn: Operations) -> dict:
    events: list[Event] = []
    conn.subscribe(events.append)
    listing = await conn.list_tools()
    names = set(listing.names())
    echo = await conn.call_tool("echo", {"message": "hi"})
    error = await conn.call_tool("simulate_error", {"mode": "result"})
    progress = []
    slow = await conn.call_tool("slow_task", {"steps": 3, "delay": 0.05}, on_progress=progress.append)
    await conn.call_tool("emit_logs", {"message": "m"})
    await conn.call_tool("toggle_extra_tool", {"enabled": True})
    for _ in range(100):
        if any(e.kind == "tools_changed" for e in events):
            break
        await asyncio.sleep(0.05)
    return {
        "names": names,
        "echo": echo,
        "error": error,
        "slow": slow,
        "progress": progress,
        "events": events,
        "version": conn.protocol_version,
        "server": conn.server_info,
        "tools_after": conn.tools.names() if conn.tools else [],
    }


def _check_tour(out: dict) -> None:
    assert {"echo", "slow_task", "simulate_error", "toggle_extra_tool"} <= out["names"]
    assert out["echo"].result["content"][0]["text"] == "hi"
    assert not out["echo"].is_error and not out["echo"].findings
    assert out["error"].is_error
    assert [p.progress for p in out["progress"]] == [1, 2, 3]
    assert out["slow"].result["content"][0]["type"] == "text"
    assert out["version"] and out["server"]["name"] == "mcp-lens-demo"
    logs = [e for e in out["events"] if e.kind == "log"]
    assert {e.data["level"] for e in logs} >= {"info", "warning", "error"}
    assert any(e.kind == "tools_changed" for e in out["events"])
    assert "roll_dice" in out["tools_after"]


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_demo_over_stdio(lite: bool) -> None:
    store = TrafficStore()
    _check_tour(run_with(DEMO_PROFILE, _demo_tour, lite=lite, store=store))
    requests = [e for e in store if e.kind is Kind.REQUEST and e.direction is Direction.OUT]
    assert all(e.peer_seq is not None for e in requests), "every request got its response"
    assert any(e.kind is Kind.STDERR for e in store) or True  # stderr is optional for the demo
    assert store[len(store) - 1].kind is Kind.LIFECYCLE


def test_demo_over_streamable_http(demo_http: str) -> None:
    store = TrafficStore()
    _check_tour(run_with(http_profile(demo_http), _demo_tour, store=store))
    meta = [e for e in store if e.kind is Kind.HTTP_META and e.http and "status" in e.http]
    assert meta and all(e.http["status"] < 400 for e in meta)
    assert any(e.transport == "http" and e.kind is Kind.RESPONSE for e in store)


async def _everything_tour(conn: Operations) -> dict:
    listing = await conn.list_tools()
    echo = await conn.call_tool("echo", {"message": "hello"})
    image = await conn.call_tool("get-tiny-image", {})
    progress = []
    long = await conn.call_tool(
        "trigger-long-running-operation", {"duration": 0.6, "steps": 3}, on_progress=progress.append
    )
    handle = conn.new_handle("tools/call", timeout=30)
    task = asyncio.ensure_future(
        conn.call_tool("trigger-long-running-operation", {"duration": 20, "steps": 20}, handle=handle)
    )
    while not handle.progress:
        await asyncio.sleep(0.05)
    handle.cancel()
    with pytest.raises(RequestTimeout, match="cancelled"):
        await task
    with pytest.raises(UnknownTool, match="no tool named 'no-such-tool'") as unknown:
        await conn.call_tool("no-such-tool", {}, check_known=True)
    assert "echo" in (unknown.value.hint or "")
    await conn.ping()
    return {"listing": listing, "echo": echo, "image": image, "long": long, "progress": progress}


def _check_everything(out: dict, store: TrafficStore) -> None:
    assert {"echo", "get-tiny-image", "trigger-long-running-operation"} <= set(out["listing"].names())
    assert out["echo"].result["content"][0]["text"] == "Echo: hello"
    image = next(b for b in out["image"].result["content"] if b["type"] == "image")
    assert base64.b64decode(image["data"]).startswith(b"\x89PNG")
    assert len(out["progress"]) >= 2
    cancels = [e for e in store if e.method == "notifications/cancelled" and e.direction is Direction.OUT]
    assert len(cancels) == 1 and cancels[0].peer_seq is not None
    assert "cancelled" in store.by_seq(cancels[0].peer_seq).notes


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_everything_over_stdio(everything: str, lite: bool) -> None:
    store = TrafficStore()
    out = run_with(stdio_profile(["node", everything, "stdio"]), _everything_tour, lite=lite, store=store)
    _check_everything(out, store)


def test_everything_over_streamable_http(everything_http: str) -> None:
    store = TrafficStore()
    out = run_with(http_profile(everything_http), _everything_tour, store=store)
    _check_everything(out, store)
    assert any(e.http and "sse" in e.http for e in store), "SSE events were tapped"


def test_everything_over_legacy_sse(everything_sse: str) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> tuple:
        listing = await conn.list_tools()
        return listing, await conn.call_tool("echo", {"message": "over sse"})

    listing, echo = run_with(http_profile(everything_sse, "sse"), body, store=store)
    assert "echo" in listing.names() and echo.result["content"][0]["text"] == "Echo: over sse"
    endpoint = [e for e in store if e.http and e.http.get("sse", {}).get("event") == "endpoint"]
    assert endpoint and endpoint[0].kind is Kind.HTTP_META, "the endpoint event is recorded, not parsed as JSON"
    responses = [e for e in store if e.kind is Kind.RESPONSE and e.transport == "sse"]
    assert responses and all(e.peer_seq for e in responses)


def test_bearer_token_is_on_the_wire_but_not_in_the_record(demo_http: str) -> None:
    store = TrafficStore()
    profile = http_profile(demo_http, bearer_token="s3cret-token", headers={"X-Trace": "visible"})
    run_with(profile, lambda conn: conn.ping(), store=store)
    sent = [e for e in store if e.direction is Direction.OUT and e.http]
    headers = {name.lower(): value for e in sent for name, value in e.http["headers"]}
    assert headers["authorization"] == "Bearer <redacted>"
    assert headers["x-trace"] == "visible"
    assert all(b"s3cret-token" not in e.raw for e in store)
    assert "s3cret-token" not in repr([e.http for e in store])


def test_timeout_reset_by_progress() -> None:
    """A 0.5 s timeout survives a 1.2 s call that reports progress every 0.2 s; the hard max does not."""

    async def body(conn: Operations) -> None:
        done = await conn.call_tool("slow_task", {"steps": 6, "delay": 0.2}, timeout=0.5)
        assert not done.is_error
        with pytest.raises(RequestTimeout, match="maximum"):
            await conn.call_tool("slow_task", {"steps": 6, "delay": 0.2}, timeout=0.5, max_total=0.7)

    run_with(DEMO_PROFILE, body)


def test_python_is_312_or_newer() -> None:
    assert sys.version_info >= (3, 12)
