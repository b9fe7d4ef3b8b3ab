"""MCP Lens's core as a client for the official conformance suite (`@modelcontextprotocol/conformance`).

    python tests/conformance/client.py SERVER_URL        # the runner appends the URL

`MCP_CONFORMANCE_SCENARIO` names the scenario and `MCP_CONFORMANCE_CONTEXT` (JSON) carries its
extra data (e.g. a pre-registered client). Every scenario runs the same way a user's session does:
`make_transport` + `Connection` with our taps, the OAuth provider from `inspector.auth`, and
`ClientHandlers` (an elicitation handler that accepts with the schema's defaults). The browser step
is headless: the test authorization server redirects straight back, so the redirect handler GETs the
authorization URL and reads the code from the `Location` header.

Exit code 0 when the session ran; 1 with the error on stderr otherwise.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import httpx2
from mcp.shared.auth import AuthorizationCodeResult

from inspector.auth.events import AuthLog
from inspector.auth.provider import LensOAuthProvider, client_metadata
from inspector.auth.signin import preregistered_client
from inspector.auth.storage import MemoryBackend, ServerTokenStorage
from inspector.config.profile import ServerProfile
from inspector.core.client_handlers import ClientHandlers
from inspector.core.connection import Connection
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore

REDIRECT_URI = "http://127.0.0.1:33418/callback"  # never listened on: the Location header is read instead
# The suite's SEP-991 scenario expects this URL-based client id (a Client ID Metadata Document).
CIMD_URL = "https://conformance-test.local/client-metadata.json"


class HeadlessBrowser:
    """Follows the authorization URL with a GET and keeps the redirect's code/state/iss."""

    def __init__(self) -> None:
        self.result: AuthorizationCodeResult | None = None

    async def open(self, url: str) -> None:
        async with httpx2.AsyncClient(follow_redirects=False, timeout=10) as client:
            response = await client.get(url)
        location = response.headers.get("location")
        if not location:
            raise RuntimeError(f"authorization endpoint answered {response.status_code} without a redirect")
        query = dict(parse_qsl(urlsplit(location).query))
        if "code" not in query:
            raise RuntimeError(f"authorization redirect without a code: {query.get('error', '?')}")
        self.result = AuthorizationCodeResult(code=query["code"], state=query.get("state"), iss=query.get("iss"))

    async def callback(self) -> AuthorizationCodeResult:
        if self.result is None:
            raise RuntimeError("no authorization redirect was received")
        result, self.result = self.result, None
        return result


def _value_for(schema: dict[str, Any], name: str) -> Any:
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if kind in ("number", "integer"):
        return {"a": 2, "b": 3}.get(name, 1)
    if kind == "boolean":
        return True
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return "test"


def arguments_for(tool: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a tool: its required properties, from defaults or simple values."""
    schema = tool.get("inputSchema") or {}
    props = schema.get("properties") or {}
    return {name: _value_for(props.get(name) or {}, name) for name in schema.get("required") or []}


async def accept_with_defaults(params: dict[str, Any]) -> dict[str, Any]:
    """Elicitation: accept, filling every field that has a default in `requestedSchema` (SEP-1034)."""
    schema = params.get("requestedSchema") or {}
    content = {name: prop["default"] for name, prop in (schema.get("properties") or {}).items() if "default" in prop}
    return {"action": "accept", "content": content}


def make_auth(url: str, scenario: str, context: dict[str, Any]) -> LensOAuthProvider:
    profile = ServerProfile(
        name="conformance",
        transport="http",
        url=url,
        oauth_client_id=context.get("client_id"),
        oauth_client_secret=context.get("client_secret"),
    )
    storage = ServerTokenStorage(MemoryBackend(), url, preregistered=preregistered_client(profile))
    browser = HeadlessBrowser()
    log = AuthLog()
    if os.environ.get("MCP_LENS_CONFORMANCE_VERBOSE"):
        log.subscribe(lambda event: print(f"[auth] {event.step}: {event.summary}", file=sys.stderr))
    return LensOAuthProvider(
        url,
        client_metadata(REDIRECT_URI),
        storage,
        interactive=True,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
        log=log,
        client_metadata_url=CIMD_URL,
    )


async def run(url: str, scenario: str, context: dict[str, Any]) -> None:
    store = TrafficStore()
    profile = ServerProfile(name="conformance", transport="http", url=url)
    auth = make_auth(url, scenario, context)
    handlers = ClientHandlers(elicitation=accept_with_defaults)
    transport = make_transport(profile, store, auth=auth)
    async with Connection(transport, connect_timeout=20, request_timeout=20, handlers=handlers) as conn:
        if scenario == "initialize":
            return
        listing = await conn.list_tools()
        for tool in listing.tools:
            await conn.call_tool(tool["name"], arguments_for(tool))


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: client.py SERVER_URL", file=sys.stderr)
        return 2
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    except ValueError:
        context = {}
    try:
        asyncio.run(run(argv[-1], scenario, context))
    except Exception as exc:
        message = getattr(exc, "message", None) or str(exc)
        print(f"conformance client: {scenario}: {type(exc).__name__}: {message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
