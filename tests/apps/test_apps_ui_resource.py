"""Which tool declares an interface, and what its ui:// resource holds: the checks, and an outside app
(one of the extension's published examples, over stdio) read and served through our bridge."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from typing import Any

import pytest
from apps_support import FakeApp, RecordingHost

from inspector.apps import csp, ui_resource
from inspector.apps.bridge import AppBridge
from inspector.apps.ui_resource import APP_MIME_TYPE, from_read_result
from inspector.core.lite import LiteConnection
from inspector.traffic.entry import Direction
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

OUTSIDE_APP = (
    Path(__file__).resolve().parents[1]
    / "servers/node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js"
)
URI = "ui://demo/app.html"


def read_result(**item: Any) -> dict[str, Any]:
    return {"contents": [{"uri": URI, "mimeType": APP_MIME_TYPE, **item}]}


def test_which_tool_declares_an_interface_and_who_may_call_it() -> None:
    nested = {"name": "a", "_meta": {"ui": {"resourceUri": URI, "visibility": ["app"]}}}
    flat = {"name": "b", "_meta": {"ui/resourceUri": URI}}
    plain = {"name": "c", "annotations": {"readOnlyHint": True}}
    wrong = {"name": "d", "_meta": {"ui": {"resourceUri": "https://x/app.html", "visibility": "app", "csp": {}}}}
    assert [ui_resource.resource_uri(t) for t in (nested, flat, plain)] == [URI, URI, None]
    assert ui_resource.has_interface(flat) and not ui_resource.has_interface(wrong)
    assert ui_resource.visibility(nested) == ("app",) and ui_resource.visibility(plain) == ("model", "app")
    model_only = {"_meta": {"ui": {"visibility": ["model"]}}}
    assert ui_resource.app_may_call(nested) and not ui_resource.app_may_call(model_only)
    assert ui_resource.is_read_only(plain) and not ui_resource.is_read_only(nested)
    assert ui_resource.tool_findings(nested) == []
    assert ui_resource.tool_findings(wrong) == [
        "the interface URI 'https://x/app.html' does not use the ui:// scheme",
        "_meta.ui.visibility 'app' is not a list of 'model' / 'app'; both assumed",
        "_meta.ui.csp belongs on the ui:// resource, not the tool; ignored",
    ]


def test_the_resource_is_checked_and_findings_say_what_is_off() -> None:
    meta = {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": False}}
    good = from_read_result(URI, read_result(text="<p>hi</p>", _meta=meta))
    assert (good.html, good.findings, good.prefers_border) == ("<p>hi</p>", [], False)
    assert csp.summary(good.csp) == "Connects to: https://api.example.com"
    blob = from_read_result(URI, read_result(blob=base64.b64encode(b"<p>blob</p>").decode()), {"_meta": meta})
    assert blob.html == "<p>blob</p>" and blob.csp == meta["ui"]["csp"], "the listed entry's _meta is the fallback"
    wrong_mime = from_read_result(URI, {"contents": [{"uri": URI, "mimeType": "text/html", "text": "x"}]})
    assert wrong_mime.renderable and wrong_mime.findings == [f"mime type 'text/html', expected {APP_MIME_TYPE!r}"]
    oversize = from_read_result(URI, read_result(text="x" * (ui_resource.MAX_HTML_BYTES + 1)))
    assert not oversize.renderable and "over the 5,000,000-byte limit" in oversize.findings[0]
    assert from_read_result(URI, read_result(blob="%%%")).findings == ["the resource's blob is not valid base64"]
    assert from_read_result(URI, {"contents": []}).findings == [f"the server returned no contents for {URI}"]
    assert not from_read_result("https://x/app.html", read_result(text="x")).renderable

    async def failing(uri: str) -> dict:
        raise RuntimeError("Unknown resource")

    gone = asyncio.run(ui_resource.read_ui_resource(failing, URI))
    assert gone.findings == [f"the interface {URI} could not be read: Unknown resource"]


def test_an_outside_app_is_read_accepted_and_served() -> None:
    """@modelcontextprotocol/server-basic-vanillajs 2.0.3 (offline, stdio): its get-time tool's interface."""
    if not OUTSIDE_APP.exists():
        pytest.fail(f"{OUTSIDE_APP} is missing: run scripts/test, which installs the npm test servers")
    store = TrafficStore(source="basic-vanillajs")

    async def main() -> None:
        command = StdioCommand("node", [str(OUTSIDE_APP), "--stdio"])
        async with LiteConnection(StdioPipes(command, store), era="legacy") as conn:
            tools = (await conn.list_tools()).tools
            tool = next(t for t in tools if ui_resource.has_interface(t))
            uri = ui_resource.resource_uri(tool)

            async def read(uri: str) -> dict:
                return await conn.request("resources/read", {"uri": uri})

            resource = await ui_resource.read_ui_resource(read, uri)
            assert (tool["name"], uri, resource.mime_type) == ("get-time", "ui://get-time/mcp-app.html", APP_MIME_TYPE)
            assert resource.findings == [] and ui_resource.tool_findings(tool) == []
            assert resource.renderable and "<html" in resource.html.lower()
            assert csp.summary(resource.csp) == "Network: none"

            host = RecordingHost(conn.call_tool)
            bridge = AppBridge(tool=tool, resource=resource, store=store, host=host, host_context={}, source="app")
            app = FakeApp(bridge)
            init = await app.request("ui/initialize", {"appInfo": {"name": "x", "version": "1"}})
            assert init["result"]["hostContext"]["toolInfo"]["tool"]["name"] == "get-time"
            answer = await app.request("tools/call", {"name": "get-time", "arguments": {}})
            assert host.asked == ["get-time"], "get-time does not say it is read-only: the user is asked"
            assert answer["result"]["structuredContent"]["time"].startswith("20")

    asyncio.run(main())
    app_entries = [e for e in store if e.transport == "app"]
    assert [(e.direction, e.method) for e in app_entries if e.rpc_id is not None] == [
        (Direction.OUT, "ui/initialize"),
        (Direction.IN, "ui/initialize"),
        (Direction.OUT, "tools/call"),
        (Direction.IN, "tools/call"),
    ]
