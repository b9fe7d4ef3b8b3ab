"""An MCP server behind an authorization server that speaks the auth extensions, and an enterprise IdP beside it.

    python tests/servers/auth_extensions.py PORT TRUSTED_PUBLIC_KEY_PEM [--dpop] [--nonce] [--client-secret S]

All on http://127.0.0.1:PORT:
- `/mcp`: an SDK `MCPServer` resource server (tool `whoami`); its protected resource metadata names this
  origin as the authorization server.
- `/token`: the JWT-bearer grant (RFC 7523) only. The assertion is either a workload JWT (SEP-1933: any
  client id, no secret; signed by the trusted key, `aud` this issuer) or an ID-JAG this server's IdP issued
  (SEP-990: `typ` oauth-id-jag+jwt, client `ema-client` with secret `ema-secret` (or `--client-secret`)
  over HTTP Basic, the
  ID-JAG's `client_id` and `resource` matching). A refused grant says why (`error_description`).
- `/idp/token`: the enterprise IdP's RFC 8693 token exchange: an ID token (signed by the trusted key,
  issuer `IDP_ISSUER`, audience `idp-client`; or one from a login here) → an ID-JAG for the `audience` and
  `resource` asked. The IdP also signs users in (OpenID Connect: `/idp/.well-known/openid-configuration`,
  `/idp/authorize` redirects straight back with a code, `/idp/token` answers it with an ID token, PKCE
  checked, issuer `…/idp`, the asked nonce).
- `--dpop`: the token endpoint wants a DPoP proof (RFC 9449) and issues tokens bound to its key
  (`token_type: DPoP`, `cnf.jkt`); `/mcp` then accepts only `Authorization: DPoP` with a valid proof
  (`htm`, `htu`, `ath`, a fresh `jti`, the bound key). `--nonce`: both also demand their `DPoP-Nonce`
  (`use_dpop_nonce`: HTTP 400 at the token endpoint, HTTP 401 at `/mcp`).
- `--unbound` (with `--dpop`): the token endpoint checks the proof but issues a Bearer token.
- `--foreign-resource URL`: the protected resource metadata names that resource instead of `/mcp`.
- `GET /stats`: what each endpoint saw.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jwt
import uvicorn
from cryptography.hazmat.primitives.asymmetric import ec
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from starlette.requests import Request
from starlette.responses import JSONResponse

JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
IDP_ISSUER = "https://idp.example.test"
IDP_CLIENT = "idp-client"
EMA_CLIENT, EMA_SECRET = "ema-client", "ema-secret"
AS_NONCE, RS_NONCE = "as-nonce-1", "rs-nonce-1"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _thumbprint(jwk: dict[str, Any]) -> str:
    members = {k: jwk[k] for k in ("crv", "kty", "x", "y")}
    return _b64(hashlib.sha256(json.dumps(members, sort_keys=True, separators=(",", ":")).encode()).digest())


def check_proof(proof: str | None, method: str, url: str, *, token: str | None, nonce: str | None) -> dict[str, Any]:
    """A DPoP proof's claims and key thumbprint; raises ValueError naming what is wrong."""
    if not proof or "," in proof:
        raise ValueError("missing DPoP proof" if not proof else "more than one DPoP proof")
    header = jwt.get_unverified_header(proof)
    if header.get("typ") != "dpop+jwt" or not isinstance(header.get("jwk"), dict) or "d" in header["jwk"]:
        raise ValueError("not a DPoP proof header (typ dpop+jwt, a public jwk)")
    key = jwt.PyJWK(header["jwk"], header.get("alg"))
    claims = jwt.decode(proof, key.key, algorithms=["ES256"])
    if claims.get("htm") != method or claims.get("htu") != url or not isinstance(claims.get("jti"), str):
        raise ValueError(f"htm/htu/jti wrong: {claims.get('htm')} {claims.get('htu')}")
    if abs(time.time() - claims.get("iat", 0)) > 300:
        raise ValueError("iat outside the window")
    if token is not None and claims.get("ath") != _b64(hashlib.sha256(token.encode()).digest()):
        raise ValueError("ath does not match the token")
    claims["jkt"] = _thumbprint(header["jwk"])
    claims["nonce_ok"] = nonce is None or claims.get("nonce") == nonce
    return claims


class Tokens:
    """Issued access tokens (with the key each is bound to); the MCP server's token verifier."""

    def __init__(self) -> None:
        self.issued: dict[str, AccessToken] = {}
        self.bound: dict[str, str] = {}

    async def verify_token(self, token: str) -> AccessToken | None:
        return self.issued.get(token)


def build(
    port: int,
    trusted_key: str,
    *,
    dpop: bool,
    nonce: bool,
    client_secret: str = EMA_SECRET,
    unbound: bool = False,
    nonce_always: bool = False,
) -> Any:
    base = f"http://127.0.0.1:{port}"
    tokens = Tokens()
    stats: dict[str, Any] = {"token_requests": [], "exchanges": [], "resource": [], "idp_logins": []}
    jag_key = ec.generate_private_key(ec.SECP256R1())
    idp_key = ec.generate_private_key(ec.SECP256R1())  # signs the ID tokens of a browser login at /idp
    codes: dict[str, dict[str, str]] = {}
    jtis: set[str] = set()
    server = MCPServer(
        "auth-extensions-test",
        token_verifier=tokens,
        auth=AuthSettings(issuer_url=base, resource_server_url=f"{base}/mcp", validate_token_resource=False),
    )

    @server.tool()
    def whoami() -> str:
        """Says how the caller signed in."""
        return "signed in through an auth extension"

    @server.custom_route("/.well-known/oauth-authorization-server", methods=["GET"])
    async def metadata(_request: Request) -> JSONResponse:
        document = {
            "issuer": base,
            "token_endpoint": f"{base}/token",
            "response_types_supported": ["code"],
            "grant_types_supported": [JWT_BEARER],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic"],
        }
        if dpop:
            document["dpop_signing_alg_values_supported"] = ["ES256"]
        return JSONResponse(document)

    @server.custom_route("/idp/.well-known/openid-configuration", methods=["GET"])
    async def idp_metadata(_request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "issuer": f"{base}/idp",
                "authorization_endpoint": f"{base}/idp/authorize",
                "token_endpoint": f"{base}/idp/token",
                "grant_types_supported": ["authorization_code", TOKEN_EXCHANGE],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    @server.custom_route("/idp/authorize", methods=["GET"])
    async def idp_authorize(request: Request) -> Any:
        from starlette.responses import RedirectResponse

        query = dict(request.query_params)
        code = f"idp-code-{secrets.token_urlsafe(8)}"
        codes[code] = query
        stats["idp_logins"].append({k: query.get(k) for k in ("client_id", "scope", "code_challenge_method")})
        return RedirectResponse(f"{query['redirect_uri']}?code={code}&state={quote(query.get('state', ''))}", 302)

    def _login_code(form: dict[str, Any]) -> JSONResponse:
        asked = codes.pop(str(form.get("code")), None)
        verifier = str(form.get("code_verifier") or "")
        if asked is None or _b64(hashlib.sha256(verifier.encode()).digest()) != asked.get("code_challenge"):
            return JSONResponse({"error": "invalid_grant", "error_description": "code or PKCE verifier"}, 400)
        now = int(time.time())
        claims = {"iss": f"{base}/idp", "sub": "sso-user@example.test", "aud": asked["client_id"], "iat": now}
        claims.update(exp=now + 600, nonce=asked.get("nonce"))
        return JSONResponse({"id_token": jwt.encode(claims, idp_key, algorithm="ES256"), "token_type": "Bearer"})

    @server.custom_route("/idp/token", methods=["POST"])
    async def idp_token(request: Request) -> JSONResponse:
        form = dict(await request.form())
        if form.get("grant_type") == "authorization_code":
            return _login_code(form)
        seen = {k: form.get(k) for k in ("grant_type", "requested_token_type", "subject_token_type", "audience")}
        seen["resource"], seen["dpop"] = form.get("resource"), "dpop" in request.headers
        stats["exchanges"].append(seen)
        if form.get("grant_type") != TOKEN_EXCHANGE or form.get("requested_token_type") != ID_JAG:
            return JSONResponse({"error": "unsupported_grant_type"}, 400)
        subject = str(form.get("subject_token"))
        try:
            if jwt.decode(subject, options={"verify_signature": False}).get("iss") == f"{base}/idp":  # our login's
                claims = jwt.decode(subject, idp_key.public_key(), algorithms=["ES256"], audience=IDP_CLIENT)
            else:
                claims = jwt.decode(subject, trusted_key, algorithms=["ES256"], audience=IDP_CLIENT, issuer=IDP_ISSUER)
        except jwt.PyJWTError as exc:
            return JSONResponse({"error": "invalid_grant", "error_description": f"ID token: {exc}"}, 400)
        now = int(time.time())
        jag = {
            "iss": IDP_ISSUER,
            "sub": claims["sub"],
            "aud": form.get("audience"),
            "resource": form.get("resource"),
            "client_id": EMA_CLIENT,
            "jti": secrets.token_urlsafe(8),
            "iat": now,
            "exp": now + 300,
        }
        assertion = jwt.encode(jag, jag_key, algorithm="ES256", headers={"typ": "oauth-id-jag+jwt"})
        return JSONResponse({"access_token": assertion, "issued_token_type": ID_JAG, "token_type": "N_A"})

    def _grant(request: Request, form: dict[str, Any]) -> tuple[str, str] | JSONResponse:
        """(client id, subject) of a valid JWT-bearer grant, else the refusal."""
        assertion = str(form.get("assertion") or "")
        try:
            header = jwt.get_unverified_header(assertion)
        except jwt.PyJWTError:
            return JSONResponse({"error": "invalid_request", "error_description": "no assertion"}, 400)
        if header.get("typ") == "oauth-id-jag+jwt":
            basic = request.headers.get("authorization", "")
            pair = base64.b64decode(basic[6:]).decode() if basic.startswith("Basic ") else ""
            if pair != f"{EMA_CLIENT}:{quote(client_secret, safe='')}":
                return JSONResponse({"error": "invalid_client"}, 401)
            try:
                claims = jwt.decode(assertion, jag_key.public_key(), algorithms=["ES256"], audience=base)
            except jwt.PyJWTError as exc:
                return JSONResponse({"error": "invalid_grant", "error_description": f"ID-JAG: {exc}"}, 400)
            if claims.get("client_id") != EMA_CLIENT or claims.get("resource") != f"{base}/mcp":
                return JSONResponse({"error": "invalid_grant", "error_description": "ID-JAG client/resource"}, 400)
            return EMA_CLIENT, claims["sub"]
        try:
            claims = jwt.decode(assertion, trusted_key, algorithms=["ES256"], audience=base)
        except jwt.PyJWTError as exc:
            return JSONResponse({"error": "invalid_grant", "error_description": f"workload JWT: {exc}"}, 400)
        return str(form.get("client_id") or ""), claims["sub"]

    @server.custom_route("/token", methods=["POST"])
    async def token(request: Request) -> JSONResponse:
        form = dict(await request.form())
        seen: dict[str, Any] = {"grant_type": form.get("grant_type"), "dpop": None}
        stats["token_requests"].append(seen)
        if form.get("grant_type") != JWT_BEARER:
            return JSONResponse({"error": "unsupported_grant_type"}, 400)
        jkt = None
        if dpop:
            try:
                proof = check_proof(request.headers.get("dpop"), "POST", f"{base}/token", token=None, nonce=None)
            except (ValueError, jwt.PyJWTError) as exc:
                seen["dpop"] = f"bad: {exc}"
                return JSONResponse({"error": "invalid_dpop_proof", "error_description": str(exc)}, 400)
            if nonce and proof.get("nonce") != AS_NONCE:
                seen["dpop"] = "nonce asked"
                return JSONResponse({"error": "use_dpop_nonce"}, 400, headers={"DPoP-Nonce": AS_NONCE})
            seen["dpop"], jkt = "ok", proof["jkt"]
        granted = _grant(request, form)
        if isinstance(granted, JSONResponse):
            seen["refused"] = json.loads(granted.body)
            return granted
        seen["client_id"], seen["subject"] = granted
        access = f"ext-{secrets.token_urlsafe(16)}"
        if unbound:  # --unbound: the proof is checked, the token issued as Bearer all the same
            jkt = None
        if jkt:  # a bound token is a JWT naming its key (cnf.jkt), as the suite's and real servers' are
            access = jwt.encode({"jti": access, "cnf": {"jkt": jkt}}, jag_key, algorithm="ES256")
            tokens.bound[access] = jkt
        tokens.issued[access] = AccessToken(
            token=access, client_id=granted[0], scopes=[], expires_at=int(time.time()) + 3600
        )
        return JSONResponse({"access_token": access, "token_type": "DPoP" if jkt else "Bearer", "expires_in": 3600})

    @server.custom_route("/stats", methods=["GET"])
    async def report(_request: Request) -> JSONResponse:
        return JSONResponse(stats)

    app = server.streamable_http_app()
    if not dpop:
        return app

    async def resource_guard(scope: dict[str, Any], receive: Any, send: Any) -> None:
        """`/mcp` with DPoP: check the proof, then hand the SDK's bearer check the token it knows."""
        if scope["type"] != "http" or scope["path"] != "/mcp":
            return await app(scope, receive, send)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        scheme, _, token = headers.get("authorization", "").partition(" ")
        seen: dict[str, Any] = {"scheme": scheme}
        stats["resource"].append(seen)
        problem = None
        if token and token in tokens.bound:
            try:
                proof = check_proof(headers.get("dpop"), scope["method"], f"{base}/mcp", token=token, nonce=RS_NONCE)
                if scheme != "DPoP":
                    problem = "a DPoP-bound token presented as " + scheme
                elif proof["jkt"] != tokens.bound[token]:
                    problem = "proof key is not the token's"
                elif proof["jti"] in jtis:
                    problem = "proof replayed"
                elif nonce_always:  # a new nonce demanded every time, whatever the proof carries
                    seen["nonce"] = "asked"
                    fresh = f"rs-nonce-{secrets.token_urlsafe(6)}"
                    return await _answer(send, 401, "use_dpop_nonce", {"DPoP-Nonce": fresh})
                elif nonce and not proof["nonce_ok"]:
                    seen["nonce"] = "asked"
                    return await _answer(send, 401, "use_dpop_nonce", {"DPoP-Nonce": RS_NONCE})
                jtis.add(proof["jti"])
            except (ValueError, jwt.PyJWTError) as exc:
                problem = str(exc)
            if problem:
                seen["problem"] = problem
                return await _answer(send, 401, "invalid_dpop_proof", {})
            seen["ok"] = True
            scope = {
                **scope,
                "headers": [
                    *_without(scope["headers"], b"authorization"),
                    (b"authorization", f"Bearer {token}".encode()),
                ],
            }
        return await app(scope, receive, send)

    async def _answer(send: Any, status: int, error: str, extra: dict[str, str]) -> None:
        challenge = f'DPoP error="{error}", resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"'
        headers = [(b"content-type", b"application/json"), (b"www-authenticate", challenge.encode())]
        headers += [(k.lower().encode(), v.encode()) for k, v in extra.items()]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": json.dumps({"error": error}).encode()})

    return resource_guard


def _without(headers: list[tuple[bytes, bytes]], name: bytes) -> list[tuple[bytes, bytes]]:
    return [(k, v) for k, v in headers if k.lower() != name]


def _foreign_resource(app: Any, port: int, resource: str) -> Any:
    """The protected resource metadata names `resource` (not this server) and this authorization server."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/.well-known/oauth-protected-resource"):
            return await app(scope, receive, send)
        body = json.dumps({"resource": resource, "authorization_servers": [f"http://127.0.0.1:{port}"]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})

    return wrapped


def _token_answer(app: Any, body: str) -> Any:
    """`--token-answer BODY`: the token endpoint answers HTTP 200 with BODY as it is (garbage, bad types)."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/token":
            return await app(scope, receive, send)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body.encode())).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body.encode()})

    return wrapped


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("trusted_key", type=Path, help="public key (PEM) of workload JWTs and ID tokens")
    parser.add_argument("--dpop", action="store_true")
    parser.add_argument("--nonce", action="store_true")
    parser.add_argument("--client-secret", default=EMA_SECRET)
    parser.add_argument("--unbound", action="store_true", help="--dpop: issue Bearer tokens despite the proof")
    parser.add_argument("--nonce-always", action="store_true", help="--dpop: /mcp asks a new nonce every time")
    parser.add_argument("--foreign-resource", metavar="URL", help="the resource metadata names this resource instead")
    parser.add_argument("--token-answer", metavar="BODY", help="the token endpoint answers HTTP 200 with BODY as is")
    args = parser.parse_args()
    app = build(
        args.port,
        args.trusted_key.read_text(),
        dpop=args.dpop,
        nonce=args.nonce,
        client_secret=args.client_secret,
        unbound=args.unbound,
        nonce_always=args.nonce_always,
    )
    if args.foreign_resource:
        app = _foreign_resource(app, args.port, args.foreign_resource)
    if args.token_answer is not None:
        app = _token_answer(app, args.token_answer)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", lifespan="on")


if __name__ == "__main__":
    main()
