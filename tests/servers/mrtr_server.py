"""A 2026-07-28 SDK server whose prompt, resource and tools ask for input with input_required (stdio).

- prompt ``for_my_roots``: first asks for ``roots/list`` (no requestState), then names the roots it got;
- resource template ``lens://signed/{who}``: asks for a URL-mode elicitation (with a requestState), then
  reads "signed by WHO (action)";
- tool ``endless``: answers input_required forever (a fresh requestState each time), for the round cap;
- tool ``state_only``: first answers with a requestState and no inputRequests (load shedding), then
  completes with the state it got back;
- tool ``later_app``: an MCP App whose interface calls ``state_only`` through the bridge.
"""

from __future__ import annotations

from typing import Any

from hostile_app import HANDSHAKE
from mcp.server.apps import Apps
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import InputRequiredResult, ListRootsRequest, TextContent

# An MCP App whose interface calls state_only through the bridge: the host must answer its rounds too.
LATER_APP = "ui://mrtr/later.html"
LATER_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>later</title></head><body><pre id='log'></pre>"
    "<script>"
    + HANDSHAKE
    + """handshake().then(async () => {
  const answer = await request("tools/call", {name: "state_only", arguments: {}});
  const blocks = (answer.result && answer.result.content) || [];
  log("state_only: " + (blocks.length ? blocks[0].text : JSON.stringify(answer.result || answer.error)));
});"""
    + "</script></body></html>"
)
apps = Apps()
apps.add_html_resource(LATER_APP, LATER_PAGE, name="later.html")


@apps.tool(resource_uri=LATER_APP, name="later_app", description="An app that calls state_only")
def later_app() -> str:
    return "the app calls state_only"


server = MCPServer("mrtr-test", extensions=[apps])


def _answer(ctx: Context, key: str) -> dict[str, Any] | None:
    """The client's answer for `key`, as wire JSON (whatever model the SDK parsed it into)."""
    found = (ctx.input_responses or {}).get(key)
    if found is None:
        return None
    return found if isinstance(found, dict) else found.model_dump(by_alias=True, mode="json", exclude_none=True)


@server.prompt()
async def for_my_roots(ctx: Context) -> Any:
    """A prompt that needs the client's roots first."""
    roots = _answer(ctx, "roots")
    if roots is None:
        return InputRequiredResult(input_requests={"roots": ListRootsRequest()})
    names = ", ".join(str(root.get("uri")) for root in roots.get("roots", [])) or "(none)"
    return f"Your roots: {names}"


@server.resource("lens://signed/{who}")
async def signed(who: str, ctx: Context) -> Any:
    """A resource read that asks the user to open a page first."""
    answer = _answer(ctx, "consent")
    if answer is None:
        request = {
            "method": "elicitation/create",
            "params": {
                "mode": "url",
                "message": f"Sign as {who}",
                "url": "https://example.com/sign",
                "elicitationId": "e1",
            },
        }
        return InputRequiredResult.model_validate({"inputRequests": {"consent": request}, "requestState": "sig-1"})
    return f"signed by {who} ({answer.get('action')}, state {ctx.request_state})"


@server.tool()
async def endless(ctx: Context) -> InputRequiredResult:
    """Never satisfied."""
    state = str(int(ctx.request_state or "0") + 1)
    return InputRequiredResult.model_validate(
        {"inputRequests": {"again": {"method": "roots/list"}}, "requestState": state}
    )


@server.tool()
async def state_only(ctx: Context) -> Any:
    """Asks the client to come back later, with state only."""
    if ctx.request_state is None:
        return InputRequiredResult(request_state="later")
    return [TextContent(text=f"done with {ctx.request_state}")]


if __name__ == "__main__":
    server.run()
