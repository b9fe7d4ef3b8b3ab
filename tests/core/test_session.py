"""The core `Session` without Qt: the window's connection logic, driven by a script against real servers."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

from core_support import stdio_profile
from lens_support import DEMO, REPO

from inspector.core import resources
from inspector.core.errors import ConnectFailed
from inspector.core.history import CallRecord
from inspector.core.operations import ToolListing
from inspector.core.session import CONNECTED, CONNECTING, DISCONNECTED, FAILED, RESTART, Session
from inspector.traffic.entry import Direction
from inspector.traffic.store import TrafficStore

DEMO_PROFILE = stdio_profile(DEMO, PYTHONPATH=str(REPO))
HOSTILE = str(REPO / "tests" / "servers" / "hostile.py")
# Starts, reads nothing and never answers initialize.
SILENT = [sys.executable, "-c", "import time; time.sleep(120)"]


class Heard:
    """Everything the session told its listeners."""

    def __init__(self, session: Session) -> None:
        self.states: list[str] = []
        self.details: list[str] = []
        self.listings: list[ToolListing] = []
        self.calls: list[CallRecord] = []
        self.requests: list[tuple[str, Any]] = []
        self.pings: list[Any] = []
        self.connected: list[Session] = []
        session.state_changed.connect(lambda state, detail: (self.states.append(state), self.details.append(detail)))
        session.tools_changed.connect(self.listings.append)
        session.call_updated.connect(self.calls.append)
        session.request_finished.connect(lambda method, outcome: self.requests.append((method, outcome)))
        session.ping_finished.connect(self.pings.append)
        session.connected.connect(self.connected.append)


async def until(condition: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def test_connect_list_call_disconnect() -> None:
    async def main() -> None:
        session = Session(TrafficStore())
        heard = Heard(session)
        assert session.call_tool("echo", {}, timeout=5, max_total=None) is None, "nothing to call on yet"
        session.connect(DEMO_PROFILE)
        assert session.state == CONNECTING
        assert await session.wait_settled() == CONNECTED, session.detail
        assert heard.connected == [session] and session.live
        assert session.server_info["name"] and session.protocol_version
        assert "tools" in session.capabilities
        await until(lambda: heard.listings)
        assert "echo" in heard.listings[0].names()

        record = session.call_tool("echo", {"message": "through the session"}, timeout=10, max_total=None)
        assert record is not None
        await until(lambda: record.done)
        assert record.error is None and "through the session" in str(record.result)
        assert heard.calls[0] is record and heard.calls[-1] is record

        listing = await resources.list_resources(session)  # the core operations take the session
        assert listing.items, "the demo has resources"
        session.send_request("ping", {})
        session.ping()
        await until(lambda: heard.requests and heard.pings)
        assert heard.requests == [("ping", {})] and isinstance(heard.pings[0], float)

        session.disconnect()
        await until(lambda: session.state == DISCONNECTED)
        assert heard.states == [CONNECTING, CONNECTED, DISCONNECTED] and not session.live
        assert session.capabilities == {} and session.server_info == {}
        try:
            await session.request("ping")
        except ConnectFailed as exc:
            assert "not connected" in exc.message
        else:
            raise AssertionError("a request after disconnect must fail")
        session.ping()
        assert isinstance(heard.pings[-1], ConnectFailed)
        await session.shutdown()

    asyncio.run(main())


def test_a_server_that_dies_is_failed_with_the_reason_and_reconnect_recovers() -> None:
    async def main() -> None:
        store = TrafficStore()
        session = Session(store)
        heard = Heard(session)
        session.connect(stdio_profile([sys.executable, HOSTILE, "exit-mid-call"]))
        assert await session.wait_settled() == CONNECTED, session.detail
        record = session.call_tool("work", {}, timeout=10, max_total=None)
        assert record is not None
        await until(lambda: session.state == FAILED)
        await until(lambda: record.done)
        assert session.detail.startswith("Not connected:") and RESTART in session.detail
        assert "3" in session.detail, session.detail  # the exit code
        assert record.error is not None, "the call in flight ends with the connection"
        assert not session.live and heard.states == [CONNECTING, CONNECTED, FAILED]

        session.reconnect()
        assert await session.wait_settled() == CONNECTED, session.detail
        assert heard.states[-2:] == [CONNECTING, CONNECTED]
        await session.shutdown()
        assert session.state == DISCONNECTED
        assert any(e.direction is Direction.META and b"exit" in e.raw for e in store), "the exit is in the record"

    asyncio.run(main())


def test_reconnect_replaces_the_connection_without_passing_through_disconnected() -> None:
    async def main() -> None:
        session = Session(TrafficStore())
        heard = Heard(session)
        session.connect(DEMO_PROFILE)
        assert await session.wait_settled() == CONNECTED
        session.reconnect()
        assert session.state == CONNECTING
        assert await session.wait_settled() == CONNECTED, session.detail
        assert heard.states == [CONNECTING, CONNECTED, CONNECTING, CONNECTED], "the old run ends quietly"
        assert len(heard.connected) == 2
        record = session.call_tool("echo", {"message": "again"}, timeout=10, max_total=None)
        assert record is not None
        await until(lambda: record.done)
        assert record.error is None
        await session.shutdown()
        assert session.state == DISCONNECTED

    asyncio.run(main())


def test_a_connect_that_fails_says_why() -> None:
    async def main() -> None:
        store = TrafficStore()
        session = Session(store)
        session.connect(stdio_profile(["/nonexistent/mcp-server"]))
        assert await session.wait_settled() == FAILED
        assert session.detail and not session.live
        assert any(b"connect failed" in e.raw for e in store)
        await session.shutdown()
        assert session.state == FAILED, "nothing more to stop"

    asyncio.run(main())


def test_shutdown_during_a_pending_connect_ends_it_at_once() -> None:
    async def main() -> None:
        session = Session(TrafficStore())  # the connect timeout stays 30 s: the stop must not wait for it
        heard = Heard(session)
        session.connect(stdio_profile(SILENT))
        await asyncio.sleep(0.5)  # the process runs; initialize is waiting for an answer
        assert session.state == CONNECTING
        started = time.monotonic()
        await asyncio.wait_for(session.shutdown(), 10)
        assert time.monotonic() - started < 10
        assert session.state == DISCONNECTED and heard.states == [CONNECTING, DISCONNECTED]
        assert heard.connected == []

    asyncio.run(main())


def test_a_later_connect_supersedes_a_pending_one() -> None:
    async def main() -> None:
        session = Session(TrafficStore())
        heard = Heard(session)
        session.connect(stdio_profile(SILENT))
        await asyncio.sleep(0.3)
        session.connect(DEMO_PROFILE)
        assert await asyncio.wait_for(session.wait_settled(), 20) == CONNECTED, session.detail
        assert session.profile is DEMO_PROFILE
        assert heard.states == [CONNECTING, CONNECTING, CONNECTED]
        await session.shutdown()

    asyncio.run(main())
