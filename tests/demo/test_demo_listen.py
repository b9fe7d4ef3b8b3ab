"""The live counter and the notes notify watchers: subscriptions/listen (2026-07-28), resources/subscribe (legacy)."""

from typing import Any

import anyio
import pytest
from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.subscriptions import ResourcesListChanged, ResourceUpdated
from wire_support import MODERN, RawStdio

STDIO = StdioServerParameters(command=DEMO_COMMAND[0], args=DEMO_COMMAND[1:], env=DEMO_ENV, cwd=str(REPO_ROOT))
COUNTER = "demo://live/counter"


def test_listen_stream_gets_counter_ticks_and_note_changes(demo_http_url: str) -> None:
    async def use(target: Any, note: str) -> list[Any]:
        events: list[Any] = []
        async with Client(target, mode=MODERN, read_timeout_seconds=30) as client:
            watched = [COUNTER, f"demo://notes/{note}"]
            async with client.listen(resource_subscriptions=watched, resources_list_changed=True) as subscription:
                assert subscription.honored.resource_subscriptions == watched
                with anyio.move_on_after(2.6):
                    async for event in subscription:
                        events.append(event)
                await client.call_tool("delete_note", {"note_id": note})
                with anyio.move_on_after(0.6):
                    async for event in subscription:
                        events.append(event)
        return events

    for target, note in ((STDIO, "groceries"), (demo_http_url, "ideas")):
        events = anyio.run(use, target, note)
        assert events.count(ResourceUpdated(uri=COUNTER)) >= 2, events
        assert ResourcesListChanged() in events
        assert ResourceUpdated(uri=f"demo://notes/{note}") in events


@pytest.fixture
def raw() -> Any:
    server = RawStdio()
    yield server
    server.close()


def test_legacy_subscribe_still_notifies(raw: RawStdio) -> None:
    capabilities = raw.initialize()["result"]["capabilities"]
    assert capabilities["resources"] == {"subscribe": True, "listChanged": True}
    raw.request(1, "resources/subscribe", {"uri": COUNTER})
    anyio.run(anyio.sleep, 2.3)
    raw.request(2, "ping")
    updates = [m for m in raw.seen if m.get("method") == "notifications/resources/updated"]
    assert len(updates) >= 2 and updates[0]["params"] == {"uri": COUNTER}
