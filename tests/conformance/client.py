"""MCP Lens's core as a client for the official conformance suite (`@modelcontextprotocol/conformance`).

    python tests/conformance/client.py SERVER_URL        # the runner appends the URL

`MCP_CONFORMANCE_SCENARIO` names the scenario and `MCP_CONFORMANCE_CONTEXT` (JSON) carries its
extra data (a pre-registered client, client credentials, the tool calls to make).
`MCP_CONFORMANCE_PROTOCOL_VERSION` (suite 0.2 sets it for every scenario: the revision a
`--requirements` run scores) pins our era: `2026-07-28` speaks the modern wire, a handshake version
is offered in `initialize`; unset (suite 0.1) means the handshake era.

Every scenario runs the way a user's session does: `make_transport` + `Connection` with our taps,
the OAuth provider from `inspector.auth` (the browser flow, or client credentials for the suite's
machine-to-machine scenarios), and `ClientHandlers` (an elicitation handler that accepts with the
schema's defaults); it lists the tools and calls each (or the calls the context names). A server
that declares the Skills extension gets what a user of the Skills tab sends (`use_skills`). The browser
step is headless: the test authorization server redirects straight back, so the redirect handler
GETs the authorization URL and reads the code from the `Location` header.

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

from inspector.auth.dpop import bind_dpop
from inspector.auth.events import AuthLog
from inspector.auth.machine import client_credentials_provider
from inspector.auth.provider import LensOAuthProvider, client_metadata
from inspector.auth.signin import ServerAuth, preregistered_client
from inspector.auth.storage import MemoryBackend, ServerTokenStorage
from inspector.config.profile import ServerProfile
from inspector.core import skills
from inspector.core.client_handlers import ClientHandlers
from inspector.core.connection import Connection
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore

# Generous: the suite starts every client of a run at once, and CI machines run at load 30-45 (run.py also
# retries a timed-out scenario alone, once). The suite's own per-client limit (run.py TIMEOUT_MS) is longer.
CONNECT_TIMEOUT_S = 240.0
REQUEST_TIMEOUT_S = 240.0
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


def echo_schema_calls(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The preservation scenario: send the focal tool's `inputSchema` back, as our core listed it, to the
    echo tool (what a user does by pasting the schema from the JSON tab into the echo tool's argument)."""
    focal = next(t for t in tools if t["name"] != "json_schema_echo")
    return [{"name": "json_schema_echo", "arguments": {"schema": focal.get("inputSchema")}}]


async def accept_with_defaults(params: dict[str, Any]) -> dict[str, Any]:
    """Elicitation: accept, filling every field that has a default in `requestedSchema` (SEP-1034)."""
    schema = params.get("requestedSchema") or {}
    content = {name: prop["default"] for name, prop in (schema.get("properties") or {}).items() if "default" in prop}
    return {"action": "accept", "content": content}


def _auth_log() -> AuthLog:
    log = AuthLog()
    if os.environ.get("MCP_LENS_CONFORMANCE_VERBOSE"):
        log.subscribe(lambda event: print(f"[auth] {event.step}: {event.summary}", file=sys.stderr))
    return log


def make_auth(url: str, scenario: str, context: dict[str, Any]) -> Any:
    """The OAuth provider a user would pick for this server: client credentials for the suite's
    machine-to-machine scenarios (the suite's context has the client id and a secret or a PEM key),
    else the browser flow (with a pre-registered client when the context has one)."""
    extension = extension_profile(url, scenario, context)
    if extension is not None:  # the auth extensions: the profile a user would fill in the Auth tab
        return ServerAuth(extension, backend=MemoryBackend(), log=_auth_log()).provider
    if scenario.startswith("auth/client-credentials-"):
        return client_credentials_provider(
            url,
            ServerTokenStorage(MemoryBackend(), url),
            client_id=context.get("client_id", ""),
            client_secret=context.get("client_secret"),
            private_key_pem=context.get("private_key_pem"),
            signing_algorithm=context.get("signing_algorithm") or "RS256",
            log=_auth_log(),
        )
    profile = ServerProfile(
        name="conformance",
        transport="http",
        url=url,
        oauth_client_id=context.get("client_id"),
        oauth_client_secret=context.get("client_secret"),
    )
    storage = ServerTokenStorage(MemoryBackend(), url, preregistered=preregistered_client(profile))
    browser = HeadlessBrowser()
    log = _auth_log()
    provider = LensOAuthProvider(
        url,
        client_metadata(REDIRECT_URI),
        storage,
        interactive=True,
        redirect_handler=browser.open,
        callback_handler=browser.callback,
        log=log,
        client_metadata_url=CIMD_URL,
    )
    if scenario.startswith("auth/dpop"):  # the user ticked "DPoP-bound tokens" for this server
        bind_dpop(provider, storage, log)
    return provider


def extension_profile(url: str, scenario: str, context: dict[str, Any]) -> ServerProfile | None:
    """SEP-990 and SEP-1933: the JWT the suite hands over goes into an environment variable the profile
    names, as a workload platform or an IdP login tool leaves it for a user."""
    if scenario == "auth/wif-jwt-bearer":
        os.environ["MCP_LENS_CONFORMANCE_JWT"] = context.get("valid_jwt", "")
        return ServerProfile(
            name="conformance",
            transport="http",
            url=url,
            oauth_grant="workload",
            oauth_client_id=context.get("client_id"),
            oauth_assertion_env="MCP_LENS_CONFORMANCE_JWT",
        )
    if scenario == "auth/enterprise-managed-authorization":
        os.environ["MCP_LENS_CONFORMANCE_JWT"] = context.get("idp_id_token", "")
        return ServerProfile(
            name="conformance",
            transport="http",
            url=url,
            oauth_grant="enterprise",
            oauth_client_id=context.get("client_id"),
            oauth_client_secret=context.get("client_secret"),
            oauth_idp_token_endpoint=context.get("idp_token_endpoint"),
            oauth_idp_client_id=context.get("idp_client_id"),
            oauth_assertion_env="MCP_LENS_CONFORMANCE_JWT",
        )
    return None


def era_for(version: str | None) -> str:
    """The `Connection` era setting for the revision the suite asks for (a pinned version, else legacy)."""
    return version.strip() if version and version.strip() else "legacy"


async def run(url: str, scenario: str, context: dict[str, Any], era: str = "legacy") -> None:
    store = TrafficStore()
    profile = ServerProfile(name="conformance", transport="http", url=url)
    auth = make_auth(url, scenario, context)
    handlers = ClientHandlers(elicitation=accept_with_defaults)
    transport = make_transport(profile, store, auth=auth)
    connection = Connection(
        transport, connect_timeout=CONNECT_TIMEOUT_S, request_timeout=REQUEST_TIMEOUT_S, handlers=handlers, era=era
    )
    async with connection as conn:
        if scenario == "initialize":
            return
        if skills.server_setting(conn.capabilities) is not None:
            await use_skills(conn, scenario)
            return
        listing = await conn.list_tools()
        # The suite may say which calls to make (e.g. http-custom-headers); else call every tool.
        calls = context.get("toolCalls") or [{"name": t["name"], "arguments": arguments_for(t)} for t in listing.tools]
        if scenario == "json-schema-2020-12-preservation":
            calls = echo_schema_calls(listing.tools)
        for call in calls:
            await conn.call_tool(call["name"], call.get("arguments") or {})


async def use_skills(conn: Connection, scenario: str) -> None:
    """What a user does in the Skills tab: list the skills (no file is read for that); in the verify
    scenarios, load each skill (its SKILL.md read and verified) and, only when it verified, open each of
    its other files. A skill that fails verification is not used: none of its other files is read."""
    listing = await skills.list_skills(conn)
    if "verify" not in scenario:
        return
    for skill in listing.skills:
        loaded = await skills.load_skill(conn, skill)
        if not loaded.verified:
            print(f"skill {skill.uri}: {loaded.skill_md.status()}", file=sys.stderr)
            continue
        for file in skill.files:
            if file["uri"] != skill.uri:
                await skills.read_file(conn, skill, file["uri"])


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
        asyncio.run(run(argv[-1], scenario, context, era_for(os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION"))))
    except Exception as exc:
        message = getattr(exc, "message", None) or str(exc)
        print(f"conformance client: {scenario}: {type(exc).__name__}: {message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
