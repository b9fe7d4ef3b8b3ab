"""subscriptions/listen (2026-07-28) and resources/subscribe (legacy) against the demo's live counter,
over stdio and Streamable HTTP; the per-request log level of the modern era."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from core_support import http_profile, run_with, stdio_profile
from lens_support import DEMO, REPO

from inspector.core import listen
from inspector.core.listen import ListenStream
from inspector.core.operations import Event, Operations
from inspector.core.session import CONNECTED, Session
from inspector.traffic.entry import TEARDOWN, Direction, Kind
from inspector.traffic.store import TrafficStore

COUNTER = "demo://live/counter"


def demo(era: str) -> Any:
    return stdio_profile(DEMO, era=era, PYTHONPATH=str(REPO))


def notifications(events: list[Event], method: str) -> list[dict[str, Any]]:
    return [e.data["params"] for e in events if e.kind == "notification" and e.data.get("method") == method]


async def watch_counter(conn: Operations) -> dict[str, Any]:
    events: list[Event] = []
    conn.subscribe(events.append)
    stream = ListenStream(conn)
    await stream.start()
    opened = (stream.state, dict(stream.honored or {}), stream.describe())
    await stream.subscribe(COUNTER)
    subscribed = (stream.honored_uris(), stream.describe())
    await asyncio.sleep(2.6)
    await conn.call_tool("delete_note", {"note_id": "ideas"})
    await asyncio.sleep(0.5)
    counted = stream.events
    await stream.close()
    return {
        "opened": opened,
        "subscribed": subscribed,
        "updates": notifications(events, "notifications/resources/updated"),
        "list_changed": notifications(events, "notifications/resources/list_changed"),
        "counted": counted,
        "closed": stream.state,
    }


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_modern_listen_stream_gets_counter_updates_and_list_changes(transport: str, demo_http: str) -> None:
    store = TrafficStore()
    profile = demo("modern") if transport == "stdio" else http_profile(demo_http, era="modern")
    seen = run_with(profile, watch_counter, store=store)

    state, honored, described = seen["opened"]
    assert state == "listening"
    assert honored == {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}
    assert described == "listening for tools, prompts, resources list changes"
    assert seen["subscribed"] == ([COUNTER], "listening for tools, prompts, resources list changes and 1 resource")
    counter_updates = [p for p in seen["updates"] if p.get("uri") == COUNTER]
    assert len(counter_updates) >= 2, seen["updates"]
    assert seen["list_changed"], "deleting a note announces a resource list change on the stream"
    assert seen["counted"] >= 3
    assert seen["closed"] == "closed"

    # The wire: two listen requests (list changes only, then with the counter), no resources/subscribe.
    listens = [e for e in store if e.kind is Kind.REQUEST and e.method == "subscriptions/listen"]
    assert [e.direction for e in listens] == [Direction.OUT, Direction.OUT]
    first, second = (e.parsed()["params"]["notifications"] for e in listens)
    assert "resourceSubscriptions" not in first and second["resourceSubscriptions"] == [COUNTER]
    assert not [e for e in store if e.method == "resources/subscribe"]
    # Its own line: the replaced stream says so, the second one how it ended; events pair with it. Both
    # were ended by MCP Lens: teardown of its own, marked, not flagged (Errors only leaves them out).
    assert listens[0].status.startswith("listen stream replaced by a stream with a new filter")
    assert listens[1].status.startswith("listen stream closed by MCP Lens")
    assert [(e.probe, e.marked, e.flagged) for e in listens] == [(TEARDOWN, True, False)] * 2
    paired = [e for e in store if e.kind is Kind.NOTIFICATION and e.peer_seq == listens[1].seq]
    assert len(paired) >= 3 and {e.method for e in paired} >= {"notifications/resources/updated"}
    acks = [e for e in store if e.method == "notifications/subscriptions/acknowledged"]
    assert [a.peer_seq for a in acks] == [listens[0].seq, listens[1].seq]


def test_the_listen_line_says_listening_while_open() -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> tuple[str, str, tuple[bool, bool]]:
        stream = ListenStream(conn)
        await stream.start()
        line = next(e for e in store if e.method == "subscriptions/listen" and e.kind is Kind.REQUEST)
        status, shown = line.status, (line.marked, line.flagged)
        await stream.close()
        return status, line.status, shown

    open_status, closed_status, (marked, flagged) = run_with(demo("modern"), body, store=store)
    assert open_status == "listening"
    assert marked and not flagged  # an open stream is marked (neutral), not flagged as a problem
    assert closed_status.startswith("listen stream closed by MCP Lens")


def test_legacy_subscribe_uses_resources_subscribe() -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> list[dict[str, Any]]:
        events: list[Event] = []
        conn.subscribe(events.append)
        await listen.subscribe_resource(conn, None, COUNTER)
        await asyncio.sleep(2.4)
        await listen.unsubscribe_resource(conn, None, COUNTER)
        return notifications(events, "notifications/resources/updated")

    updates = run_with(demo("legacy"), body, store=store)
    assert len([u for u in updates if u.get("uri") == COUNTER]) >= 2
    methods = [e.method for e in store if e.kind is Kind.REQUEST]
    assert "resources/subscribe" in methods and "resources/unsubscribe" in methods
    assert "subscriptions/listen" not in methods


def test_legacy_http_subscribe_notifies(demo_http: str) -> None:
    async def body(conn: Operations) -> list[dict[str, Any]]:
        events: list[Event] = []
        conn.subscribe(events.append)
        await listen.subscribe_resource(conn, None, COUNTER)
        await asyncio.sleep(2.4)
        await conn.request("tools/list")  # a request's stream carries what the server has to say
        return notifications(events, "notifications/resources/updated")

    updates = run_with(http_profile(demo_http, era="legacy"), body)
    assert len([u for u in updates if u.get("uri") == COUNTER]) >= 1, updates


def test_a_server_without_listen_is_said() -> None:
    """A legacy connection has no listen: the stream is not sent (requests follow capabilities and era),
    says why and is not left opening."""
    store = TrafficStore()

    async def body(conn: Operations) -> tuple[str, str]:
        stream = ListenStream(conn, ack_timeout=5)
        await stream.start()
        return stream.state, stream.detail

    state, detail = run_with(demo("legacy"), body, store=store)
    assert state == "closed"
    assert detail == "subscriptions/listen exists only in 2026-07-28"
    assert [e for e in store if e.method == listen.LISTEN] == []


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_modern_log_level_travels_in_each_request(transport: str, demo_http: str) -> None:
    store = TrafficStore()
    profile = demo("modern") if transport == "stdio" else http_profile(demo_http, era="modern")

    async def body(conn: Operations) -> tuple[list[str], list[str]]:
        logs: list[str] = []
        conn.subscribe(lambda e: logs.append(e.data["level"]) if e.kind == "log" else None)
        await conn.call_tool("emit_logs", {})
        await asyncio.sleep(0.3)
        without = list(logs)
        logs.clear()
        conn.log_level = "warning"
        await conn.call_tool("emit_logs", {})
        await asyncio.sleep(0.3)
        return without, logs

    without, with_level = run_with(profile, body, store=store)
    assert without == []  # a modern server sends no log unless the request asks for a level
    assert with_level == ["warning", "error"]
    calls = [e.parsed()["params"]["_meta"] for e in store if e.kind is Kind.REQUEST and e.method == "tools/call"]
    assert "io.modelcontextprotocol/logLevel" not in calls[0]
    assert calls[1]["io.modelcontextprotocol/logLevel"] == "warning"
    assert not [e for e in store if e.method == "logging/setLevel"]


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_modern_only_sdk_server_acknowledges_listen(transport: str, modern_only: list[str], request: Any) -> None:
    """The SDK's own 2026-07-28 server (initialize refused): the stream opens, whatever it honours."""
    if transport == "stdio":
        profile = stdio_profile(modern_only, era="auto")
    else:
        profile = http_profile(request.getfixturevalue("modern_only_http"), era="auto")

    async def body(conn: Operations) -> tuple[str, str, dict[str, Any]]:
        stream = ListenStream(conn)
        await stream.start()
        seen = (conn.era, stream.state, dict(stream.honored or {}))
        await stream.close()
        return seen

    era, state, honored = run_with(profile, body)
    assert (era, state) == ("modern", "listening")
    assert set(honored) <= {"toolsListChanged", "promptsListChanged", "resourcesListChanged"}


def test_session_opens_the_listen_stream_after_a_modern_connect() -> None:
    async def main() -> tuple[str, str, list[str]]:
        session = Session(TrafficStore())
        changes: list[str] = []
        session.listen_changed.connect(lambda s: changes.append(s.state if s is not None else "gone"))
        session.connect(demo("modern"))
        assert await session.wait_settled() == CONNECTED
        for _ in range(100):
            if session.listen is not None and session.listen.state == "listening":
                break
            await asyncio.sleep(0.05)
        state = session.listen.state if session.listen else "none"
        await session.subscribe_resource(COUNTER)
        uris = session.listen.honored_uris() if session.listen else []
        await session.shutdown()
        return state, ",".join(changes[:2]), uris

    state, first_changes, uris = asyncio.run(main())
    assert state == "listening"
    assert first_changes == "opening,listening"
    assert uris == [COUNTER]
