"""An OAuth-protected MCP server for the auth tests: SDK `MCPServer` + a minimal in-memory authorization server.

    python tests/auth/oauth_server.py PORT [--token-lifetime SECONDS] [--step-up-scope SCOPE] [--trust URL]

The MCP endpoint is http://127.0.0.1:PORT/mcp (resource server); the authorization server lives on
the same origin (/authorize, /token, /register and the RFC 8414 / RFC 9728 metadata) and approves
every authorization request at once: /authorize redirects straight back with a code, like the
conformance suite's test server. `GET /stats` (no auth) reports what the AS did, for assertions.
With `--step-up-scope SCOPE`, `tools/call` also needs SCOPE: a token without it gets HTTP 403
`insufficient_scope` naming only SCOPE (a per-operation step-up, like the suite's `auth/scope-step-up`).

Authorization-server migration (like the suite's `auth/authorization-server-migration`): `POST
/migrate?to=URL` drops every token this server issued and makes its protected-resource metadata name
the authorization server URL instead; with `--trust URL` the resource server also accepts the tokens
that server's `GET /introspect?token=` (test-only, no auth) says are active.
"""

from __future__ import annotations

import argparse
import json
import secrets
import time
import urllib.parse
import urllib.request
from typing import Any

import anyio
import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import InvalidRedirectUriError, OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl
from starlette.requests import Request
from starlette.responses import JSONResponse

PRE_CLIENT_ID = "lens-preregistered"
PRE_CLIENT_SECRET = "pre-secret-value-123"


class LoopbackClient(OAuthClientInformationFull):
    """A pre-registered native client: any 127.0.0.1 port is fine for its redirect (RFC 8252 section 7.3)."""

    def validate_redirect_uri(self, redirect_uri: AnyUrl | None) -> AnyUrl:
        if redirect_uri is None or redirect_uri.host != "127.0.0.1" or redirect_uri.path != "/callback":
            raise InvalidRedirectUriError(f"redirect URI {redirect_uri} is not a loopback callback")
        return redirect_uri


class MemoryAuthServer:
    """Implements the SDK's `OAuthAuthorizationServerProvider` protocol in memory."""

    def __init__(self, token_lifetime: int, redirect_for_preregistered: list[str] | None = None) -> None:
        self.token_lifetime = token_lifetime
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.stats: dict[str, Any] = {"registrations": 0, "authorizations": 0, "code_exchanges": 0, "refreshes": 0}
        self.stats["challenges"] = []
        self.stats["scopes_requested"] = []
        self.stats["step_ups"] = 0
        self.stats["authorized_clients"] = []
        self.trusted: str | None = None  # another AS whose tokens this resource server accepts
        self.migrated_to: str | None = None  # the AS the resource metadata names after /migrate

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self.stats["registrations"] += 1
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        self.stats["authorizations"] += 1
        self.stats["challenges"].append(params.code_challenge)
        self.stats["scopes_requested"].append(" ".join(params.scopes or []))
        self.stats["authorized_clients"].append(client.client_id)
        code = secrets.token_urlsafe(24)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or ["mcp"],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client: OAuthClientInformationFull, authorization_code: str):
        code = self.codes.get(authorization_code)
        return code if code and code.client_id == client.client_id else None

    async def exchange_authorization_code(self, client: OAuthClientInformationFull, authorization_code) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        self.stats["code_exchanges"] += 1
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str):
        token = self.refresh.get(refresh_token)
        return token if token and token.client_id == client.client_id else None

    async def exchange_refresh_token(self, client, refresh_token, scopes) -> OAuthToken:
        if self.refresh.pop(refresh_token.token, None) is None:
            raise TokenError("invalid_grant", "refresh token already used")
        self.stats["refreshes"] += 1
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        access = self.access.get(token)
        if access is None and self.trusted:
            access = await anyio.to_thread.run_sync(_introspect, self.trusted, token)
        if access is None or (access.expires_at is not None and access.expires_at < time.time()):
            return None
        return access

    async def revoke_token(self, token) -> None:
        self.access.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = f"at-{secrets.token_urlsafe(24)}", f"rt-{secrets.token_urlsafe(24)}"
        expires = int(time.time()) + self.token_lifetime
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes, resource=resource)
        return OAuthToken(
            access_token=access, expires_in=self.token_lifetime, scope=" ".join(scopes), refresh_token=refresh
        )


def _introspect(server: str, token: str) -> AccessToken | None:
    url = f"{server.rstrip('/')}/introspect?{urllib.parse.urlencode({'token': token})}"
    with urllib.request.urlopen(url, timeout=5) as response:
        answer = json.loads(response.read())
    return AccessToken(**answer["token"]) if answer.get("active") else None


class Migrating:
    """ASGI middleware: after `/migrate`, the protected-resource metadata names the new server."""

    def __init__(self, app: Any, provider: MemoryAuthServer) -> None:
        self.app, self.provider = app, provider

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        target = self.provider.migrated_to
        if (
            scope["type"] != "http"
            or not target
            or not scope["path"].startswith("/.well-known/oauth-protected-resource")
        ):
            return await self.app(scope, receive, send)
        parts: list[bytes] = []

        async def keep(message: dict) -> None:
            if message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await self.app(scope, receive, keep)
        metadata = json.loads(b"".join(parts))
        metadata["authorization_servers"] = [target]
        await JSONResponse(metadata)(scope, receive, send)


class StepUp:
    """ASGI middleware: `tools/call` needs `scope` on top of what the endpoint requires."""

    def __init__(self, app: Any, provider: MemoryAuthServer, scope: str, resource_metadata: str) -> None:
        self.app, self.provider, self.scope, self.resource_metadata = app, provider, scope, resource_metadata

    async def __call__(self, asgi_scope: dict, receive: Any, send: Any) -> None:
        if asgi_scope["type"] != "http" or asgi_scope["method"] != "POST" or asgi_scope["path"] != "/mcp":
            return await self.app(asgi_scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        try:
            method = json.loads(body).get("method")
        except (ValueError, AttributeError):
            method = None
        headers = dict(asgi_scope["headers"])
        token = headers.get(b"authorization", b"").decode().removeprefix("Bearer ")
        access = self.provider.access.get(token)
        if method == "tools/call" and access is not None and self.scope not in access.scopes:
            self.provider.stats["step_ups"] += 1
            challenge = (
                f'Bearer error="insufficient_scope", scope="{self.scope}", resource_metadata="{self.resource_metadata}"'
            )
            response = JSONResponse({"error": "insufficient_scope"}, 403, headers={"WWW-Authenticate": challenge})
            return await response(asgi_scope, receive, send)
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await self.app(asgi_scope, replay, send)


def build(port: int, token_lifetime: int) -> tuple[MCPServer, MemoryAuthServer]:
    base = f"http://127.0.0.1:{port}"
    provider = MemoryAuthServer(token_lifetime)
    provider.clients[PRE_CLIENT_ID] = LoopbackClient(
        client_id=PRE_CLIENT_ID,
        client_secret=PRE_CLIENT_SECRET,
        token_endpoint_auth_method="client_secret_basic",
        redirect_uris=None,
        scope="mcp extra",
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    server = MCPServer(
        "oauth-test",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=base,
            resource_server_url=f"{base}/mcp",
            validate_token_resource=False,
            required_scopes=["mcp"],
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=["mcp", "extra"], default_scopes=["mcp"]
            ),
        ),
    )

    @server.tool()
    def whoami() -> str:
        """Says that the caller is signed in."""
        return "signed in"

    @server.custom_route("/introspect", methods=["GET"])
    async def introspect(request: Request) -> JSONResponse:
        access = provider.access.get(request.query_params.get("token", ""))
        return JSONResponse({"active": True, "token": access.model_dump()} if access else {"active": False})

    @server.custom_route("/migrate", methods=["POST"])
    async def migrate(request: Request) -> JSONResponse:
        provider.migrated_to = request.query_params["to"]
        provider.access.clear()
        provider.refresh.clear()
        return JSONResponse({"migrated_to": provider.migrated_to})

    @server.custom_route("/stats", methods=["GET"])
    async def stats(_request: Request) -> JSONResponse:
        return JSONResponse({**provider.stats, "clients": len(provider.clients)})

    return server, provider


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--token-lifetime", type=int, default=3600)
    parser.add_argument("--step-up-scope", default=None)
    parser.add_argument("--trust", default=None, help="also accept tokens this authorization server issued")
    args = parser.parse_args()
    server, provider = build(args.port, args.token_lifetime)
    provider.trusted = args.trust
    app: Any = Migrating(server.streamable_http_app(), provider)
    if args.step_up_scope:
        metadata = f"http://127.0.0.1:{args.port}/.well-known/oauth-protected-resource/mcp"
        app = StepUp(app, provider, args.step_up_scope, metadata)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
