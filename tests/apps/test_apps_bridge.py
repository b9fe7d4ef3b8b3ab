"""The host side of the bridge, driven by raw JSON texts as an app posts them: with the demo server for
tool calls (the lean stdio client), every message recorded as transport "app" and paired."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from apps_support import FakeApp, RecordingHost

from inspector.apps import bridge as app_bridge
from inspector.apps import ui_resource
from inspector.apps.bridge import AppBridge
from inspector.apps.host_context import default_host_context
from inspector.core.lite import LiteConnection
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

INIT = {"appInfo": {"name": "test-app", "version": "1"}, "appCapabilities": {}, "protocolVersion": "2026-01-26"}
TOOL = {"name": "show", "_meta": {"ui": {"resourceUri": "ui://t/app.html"}}, "annotations": {"readOnlyHint": True}}
MODEL_ONLY = {"name": "secret", "_meta": {"ui": {"visibility": ["model"]}}, "annotations": {"readOnlyHint": True}}


def make_bridge(store: TrafficStore, host: RecordingHost, **kwargs: Any) -> tuple[AppBridge, FakeApp]:
    resource = ui_resource.UiResource(uri="ui://t/app.html", html="<p>x</p>", meta={"csp": {}})
    kwargs.setdefault("tool", TOOL)
    bridge = AppBridge(
        resource=resource, store=store, host=host, host_context={"theme": "dark"}, source="app", **kwargs
    )
    return bridge, FakeApp(bridge)


def test_the_demo_app_round_trip_through_the_bridge() -> None:
    """The demo's dice app as it runs: initialise, receive input and result, roll again, ask for a write."""
    store = TrafficStore(source="demo")

    async def main() -> None:
        command = StdioCommand(sys.executable, ["-m", "inspector.demo"])
        async with LiteConnection(StdioPipes(command, store), era="legacy") as conn:
            tools = (await conn.list_tools()).tools
            tool = next(t for t in tools if t["name"] == "show_dice")

            async def read(uri: str) -> dict:
                return await conn.request("resources/read", {"uri": uri})

            resource = await ui_resource.read_ui_resource(read, ui_resource.resource_uri(tool))
            assert resource.findings == [] and "Roll again" in resource.html and "innerHTML" not in resource.html
            assert resource.csp == {} and resource.prefers_border is True
            host = RecordingHost(conn.call_tool, confirm=False)
            bridge = AppBridge(
                tool=tool, resource=resource, store=store, host=host, host_context={}, source="dice", tools=tools
            )
            app = FakeApp(bridge)
            outcome = await conn.call_tool("show_dice", {"count": 3, "sides": 6})
            bridge.tool_input({"count": 3, "sides": 6})
            bridge.tool_result(outcome.result)
            assert app.inbox == [], "tool input and result wait for ui/notifications/initialized"

            init = (await app.request("ui/initialize", INIT))["result"]
            assert init["protocolVersion"] == "2026-01-26" and init["hostInfo"]["name"] == "mcp-lens"
            context = init["hostContext"]
            assert (context["displayMode"], context["platform"], context["toolInfo"]["tool"]) == (
                "inline",
                "desktop",
                tool,
            )
            assert "serverTools" in init["hostCapabilities"] and not bridge.initialized
            await app.notify("ui/notifications/initialized")
            assert bridge.initialized
            assert app.notifications("ui/notifications/tool-input")[0]["params"] == {
                "arguments": {"count": 3, "sides": 6}
            }
            assert app.notifications("ui/notifications/tool-result")[0]["params"] == outcome.result

            reroll = await app.request("tools/call", {"name": "reroll_dice", "arguments": {"count": 3, "sides": 6}})
            assert reroll["result"]["content"][0]["text"].startswith("Rolled ") and host.asked == []
            sent = len(conn.store)
            declined = await app.request("tools/call", {"name": "delete_note", "arguments": {"note_id": "welcome"}})
            assert host.asked == ["delete_note"], "a tool that is not read-only is confirmed first"
            assert declined["error"]["code"] == app_bridge.USER_DECLINED and "declined" in declined["error"]["message"]
            assert not [e for e in list(conn.store)[sent:] if e.transport == "stdio"], "nothing reached the server"

    asyncio.run(main())
    app_entries = [e for e in store if e.transport == "app"]
    assert {e.source for e in app_entries} == {"dice"}
    requests = [e for e in app_entries if e.kind is Kind.REQUEST]
    assert [(e.direction, e.method) for e in requests] == [
        (Direction.OUT, "ui/initialize"),
        (Direction.OUT, "tools/call"),
        (Direction.OUT, "tools/call"),
    ]
    for request in requests:
        answer = store.by_seq(request.peer_seq)
        assert answer is not None and answer.transport == "app" and answer.direction is Direction.IN
        assert answer.latency_ms is not None and answer.method == request.method
    session_requests = [e for e in store if e.transport == "stdio" and e.kind is Kind.REQUEST]
    assert all(e.peer_seq is not None and store.by_seq(e.peer_seq).transport == "stdio" for e in session_requests)


def test_each_request_is_answered_as_the_extension_says() -> None:
    store = TrafficStore()
    host = RecordingHost(open_links=False)
    bridge, app = make_bridge(store, host, tools=[TOOL, MODEL_ONLY])
    changes: list[str] = []
    bridge.on_change = changes.append

    async def main() -> None:
        init = (await app.request("ui/initialize", {**INIT, "protocolVersion": "1999-01-01"}))["result"]
        assert init["protocolVersion"] == "2026-01-26" and init["hostContext"]["theme"] == "dark"
        await app.notify("ui/notifications/initialized")
        assert (await app.request("ping"))["result"] == {}
        assert (await app.request("ui/open-link", {"url": "https://example.com/"}))["result"] == {"isError": True}
        host.open_links = True
        assert (await app.request("ui/open-link", {"url": "https://example.com/2"}))["result"] == {}
        assert host.links == ["https://example.com/", "https://example.com/2"]
        message = {"role": "user", "content": [{"type": "text", "text": "hello"}]}
        assert (await app.request("ui/message", message))["result"] == {} and host.messages == [message]
        assert (await app.request("ui/request-display-mode", {"mode": "fullscreen"}))["result"] == {"mode": "inline"}
        context = {"content": [{"type": "text", "text": "picked 3"}]}
        assert (await app.request("ui/update-model-context", context))["result"] == {}
        assert bridge.model_context == context
        read = (await app.request("resources/read", {"uri": "ui://t/other"}))["result"]
        assert read["contents"][0]["text"] == "read by the host"
        await app.notify("ui/notifications/size-changed", {"width": 320, "height": 240.0})
        await app.notify("notifications/message", {"level": "info", "data": "log line"})
        assert host.sizes == [(320, 240)] and bridge.logs == [{"level": "info", "data": "log line"}]
        unknown = await app.request("ui/download-everything")
        assert unknown["error"]["code"] == app_bridge.METHOD_NOT_FOUND
        hidden = await app.request("tools/call", {"name": "secret", "arguments": {}})
        missing = await app.request("tools/call", {"name": "nope", "arguments": {}})
        assert (
            "not visible to apps" in hidden["error"]["message"] and missing["error"]["message"] == "Unknown tool: nope"
        )
        assert host.asked == []
        bridge.context_changed({"theme": "light"})
        bridge.tool_cancelled("user action")
        assert [m["params"] for m in app.inbox[-2:]] == [{"theme": "light"}, {"reason": "user action"}]
        await app.notify("ui/notifications/request-teardown")
        bridge.teardown()
        assert app.inbox[-1]["method"] == "ui/resource-teardown"
        await app.post({"jsonrpc": "2.0", "id": app.inbox[-1]["id"], "result": {}})

    asyncio.run(main())
    assert changes == ["initialized", "model-context", "size", "log", "request-teardown"] and bridge.flagged == []
    teardown, answer = list(store)[-2:]
    assert (teardown.direction, answer.direction, answer.peer_seq) == (Direction.IN, Direction.OUT, teardown.seq)
    assert not store.pending_requests(), "every request both ways is paired"


def test_invalid_json_and_floods_are_flagged_and_cut_off() -> None:
    store = TrafficStore()
    bridge, app = make_bridge(store, RecordingHost())

    async def main() -> None:
        await app.post('{"jsonrpc": "2.0", "id": 1, "method": ')
        assert app.inbox[-1]["error"]["code"] == app_bridge.PARSE_ERROR
        garbage = store[0]
        assert garbage.kind is Kind.UNPARSABLE and garbage.raw == b'{"jsonrpc": "2.0", "id": 1, "method": '
        assert garbage.flagged and bridge.flagged[0].startswith("the app posted invalid JSON")
        for n in range(250):
            await app.post(json.dumps({"jsonrpc": "2.0", "id": 10 + n, "method": "ping"}))
        assert bridge.cut_off and bridge.dropped == 250 - app_bridge.MAX_PER_SECOND
        assert "more than 200 messages in one second" in bridge.flagged[-1]
        assert (
            app.inbox[-1]["error"]["code"] == app_bridge.CUT_OFF
            and "stopped answering" in app.inbox[-1]["error"]["message"]
        )
        recorded = len(store)
        answered = len(app.inbox)
        await app.post({"jsonrpc": "2.0", "id": 999, "method": "ping"})
        assert (len(store), len(app.inbox)) == (recorded, answered), (
            "after the cut-off nothing more is recorded or answered"
        )

    asyncio.run(main())

    store = TrafficStore()
    bridge, app = make_bridge(store, RecordingHost())
    big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ui/message", "params": {"text": "x" * 1_000_001}})
    asyncio.run(app.post(big))
    assert bridge.cut_off and "bytes (over 1,000,000)" in bridge.flagged[0] and store[0].flagged


def test_the_host_context_comes_from_this_machine(monkeypatch: Any) -> None:
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    monkeypatch.setenv("LC_ALL", "pt_PT.UTF-8")
    context = default_host_context(theme="dark", width=640, max_height=900)
    assert context == {
        "theme": "dark",
        "containerDimensions": {"width": 640, "maxHeight": 900},
        "locale": "pt-PT",
        "timeZone": "Europe/Lisbon",
    }
