"""An MCP server behind a machine-to-machine authorization server (the `client_credentials` grant only).

    python tests/auth/machine_server.py PORT PUBLIC_KEY_PEM_FILE

The MCP endpoint http://127.0.0.1:PORT/mcp is an SDK `MCPServer` resource server; the same origin
serves the authorization-server metadata and `/token`, which accepts `grant_type=client_credentials`
from the client `m2m-client` authenticated either with HTTP Basic (secret `m2m-secret`) or with a
`private_key_jwt` assertion signed by the key whose public half is in PUBLIC_KEY_PEM_FILE (iss = sub
= the client id, aud = the issuer). There is no /authorize: a browser flow cannot work here.
`GET /stats` reports the token requests it saw.
"""

from __future__ import annotations

import argparse
import base64
import secrets
import time
from pathlib import Path
from typing import Any

import jwt
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from starlette.requests import Request
from starlette.responses import JSONResponse

CLIENT_ID = "m2m-client"
CLIENT_SECRET = "m2m-secret"
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


class Tokens:
    """The access tokens `/token` issued; the MCP server's token verifier."""

    def __init__(self) -> None:
        self.issued: dict[str, AccessToken] = {}

    async def verify_token(self, token: str) -> AccessToken | None:
        return self.issued.get(token)


def build(port: int, public_key: str) -> MCPServer:
    base = f"http://127.0.0.1:{port}"
    tokens = Tokens()
    stats: dict[str, Any] = {"token_requests": []}
    server = MCPServer(
        "m2m-test",
        token_verifier=tokens,
        auth=AuthSettings(issuer_url=base, resource_server_url=f"{base}/mcp", validate_token_resource=False),
    )

    @server.tool()
    def whoami() -> str:
        """Says that the caller is a machine client."""
        return "machine client"

    @server.custom_route("/.well-known/oauth-authorization-server", methods=["GET"])
    async def metadata(_request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "response_types_supported": ["code"],
                "grant_types_supported": ["client_credentials"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
                "token_endpoint_auth_signing_alg_values_supported": ["ES256"],
            }
        )

    @server.custom_route("/token", methods=["POST"])
    async def token(request: Request) -> JSONResponse:
        form = dict(await request.form())
        seen = {"grant_type": form.get("grant_type"), "auth": "none"}
        stats["token_requests"].append(seen)
        if form.get("grant_type") != "client_credentials":
            return JSONResponse({"error": "unsupported_grant_type"}, 400)
        basic = request.headers.get("authorization", "")
        if basic.startswith("Basic "):
            seen["auth"] = "client_secret_basic"
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            if (client_id, secret) != (CLIENT_ID, CLIENT_SECRET):
                return JSONResponse({"error": "invalid_client"}, 401)
        elif form.get("client_assertion_type") == ASSERTION_TYPE:
            seen["auth"] = "private_key_jwt"
            try:
                claims = jwt.decode(form.get("client_assertion", ""), public_key, algorithms=["ES256"], audience=base)
            except jwt.PyJWTError as exc:
                seen["error"] = str(exc)
                return JSONResponse({"error": "invalid_client", "error_description": str(exc)}, 401)
            if claims.get("iss") != CLIENT_ID or claims.get("sub") != CLIENT_ID:
                return JSONResponse({"error": "invalid_client"}, 401)
        else:
            return JSONResponse({"error": "invalid_client"}, 401)
        access = f"m2m-{secrets.token_urlsafe(16)}"
        tokens.issued[access] = AccessToken(
            token=access, client_id=CLIENT_ID, scopes=[], expires_at=int(time.time()) + 3600
        )
        return JSONResponse({"access_token": access, "token_type": "Bearer", "expires_in": 3600})

    @server.custom_route("/stats", methods=["GET"])
    async def report(_request: Request) -> JSONResponse:
        return JSONResponse(stats)

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("public_key", type=Path)
    args = parser.parse_args()
    server = build(args.port, args.public_key.read_text())
    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
