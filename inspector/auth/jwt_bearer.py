"""The RFC 7523 JWT-bearer grant, for the two auth extensions that present a JWT instead of a browser sign-in.

- **Workload identity federation** (SEP-1933, `io.modelcontextprotocol/auth/wif`): the workload's own JWT
  (from a file or an environment variable the user names; the platform rewrites it) is the assertion.
  A public client: the client id goes in the form, no secret.
- **Enterprise-managed authorization** (SEP-990, `io.modelcontextprotocol/enterprise-managed-authorization`):
  the user's ID token from the enterprise identity provider is exchanged there (RFC 8693 token exchange,
  `requested_token_type` ID-JAG, `audience` the MCP server's authorization server, `resource` the MCP
  server) for an Identity Assertion JWT Authorization Grant, which is then the assertion at the MCP
  server's authorization server, with the client's id and secret (HTTP Basic).

`JwtBearerProvider` is an `httpx2.Auth` like the SDK's providers: on a 401 it discovers the protected
resource metadata and the authorization server (or uses the issuer the user configured), gets the
assertion, asks for a token once (a refusal is final: no retry, no other grant, as SEP-1933 asks) and
sends the request again. Its own requests go through the OAuth tap (`TapsOwnRequests`), so each step is
in the traffic log and the Auth tab's flow view, secrets redacted (`assertion`, `subject_token`, the
ID-JAG answered as `access_token`). `DpopProofs` binds its tokens when DPoP is on.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote

import anyio
import httpx2
from mcp.client.auth import OAuthFlowError, OAuthTokenError, TokenStorage
from mcp.client.auth.utils import (
    build_oauth_authorization_server_metadata_discovery_urls,
    build_protected_resource_metadata_discovery_urls,
    create_oauth_metadata_request,
    extract_field_from_www_auth,
    extract_resource_metadata_from_www_auth,
    extract_scope_from_www_auth,
    handle_token_response_scopes,
    issuers_match,
    union_scopes,
)
from mcp.shared._httpx_utils import RedirectAwareAuth
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE
from mcp.shared.auth_utils import calculate_token_expiry, check_resource_allowed, resource_url_from_server_url

from inspector.auth.dpop import NO_DPOP, DpopProofs
from inspector.auth.errors import AuthError, AuthRequired
from inspector.auth.events import AuthLog
from inspector.auth.idp_signin import IdpSignIn
from inspector.auth.tap import TapsOwnRequests

TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"
ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag"


IDP_HINT = (
    "Check the identity provider's settings (its token endpoint, client id and secret, the ID token) in the Auth "
    "tab (or the --oauth-idp-* options)."
)


@dataclass(frozen=True)
class ServerMetadata:
    """What this grant needs of RFC 8414 metadata (the SDK's model also requires an authorization endpoint,
    which a server offering only the JWT-bearer grant need not have)."""

    issuer: str
    token_endpoint: str


def _metadata(body: bytes) -> ServerMetadata | None:
    try:
        document = json.loads(body)
    except ValueError:
        return None
    if not isinstance(document, dict):
        return None
    issuer, endpoint = document.get("issuer"), document.get("token_endpoint")
    if not isinstance(issuer, str) or not isinstance(endpoint, str) or not endpoint.startswith(("https:", "http:")):
        return None
    return ServerMetadata(issuer, endpoint)


@dataclass(frozen=True)
class TokenSource:
    """Where a JWT is read from, each time it is needed (a workload platform rewrites its file)."""

    file: str | None = None
    env: str | None = None
    what: str = "JWT"

    def describe(self) -> str:
        return f"file {self.file}" if self.file else f"environment variable {self.env}" if self.env else "nowhere"

    def read(self) -> str:
        if self.file:
            try:
                value = Path(self.file).expanduser().read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as exc:
                raise AuthError(f"cannot read the {self.what} from {self.file}: {exc}") from exc
        elif self.env:
            value = os.environ.get(self.env, "").strip()
        else:
            raise AuthError(f"no {self.what} configured", hint="Name a file or an environment variable for it.")
        if value.count(".") != 2:
            raise AuthError(f"the {self.what} from {self.describe()} is not a JWT (three dot-separated parts)")
        return value


@dataclass(frozen=True)
class IdentityProvider:
    """The enterprise IdP's token endpoint for the RFC 8693 exchange, the client registered there, and where the
    ID token comes from: a file or variable, else the browser sign-in at the IdP (`login`)."""

    token_endpoint: str
    id_token: TokenSource | None
    client_id: str | None = None
    client_secret: str | None = None
    login: IdpSignIn | None = None

    def exchange_request(self, subject_token: str, audience: str, resource: str, scope: str | None) -> httpx2.Request:
        data = {
            "grant_type": TOKEN_EXCHANGE_GRANT,
            "requested_token_type": ID_JAG_TYPE,
            "subject_token": subject_token,
            "subject_token_type": ID_TOKEN_TYPE,
            "audience": audience,
            "resource": resource,
        }
        if scope:
            data["scope"] = scope
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        if self.client_id and self.client_secret:
            headers["Authorization"] = basic_auth(self.client_id, self.client_secret)
        elif self.client_id:
            data["client_id"] = self.client_id
        return httpx2.Request("POST", self.token_endpoint, data=data, headers=headers, extensions={NO_DPOP: True})


def basic_auth(client_id: str, secret: str) -> str:
    """RFC 6749 §2.3.1: each part form-encoded, then base64 of `id:secret`."""
    pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}"
    return "Basic " + base64.b64encode(pair.encode()).decode()


def _error_text(response: httpx2.Response) -> str:
    try:
        body = json.loads(response.content)
    except ValueError:
        return f"HTTP {response.status_code}"
    if not isinstance(body, dict):
        return f"HTTP {response.status_code}"
    error, description = body.get("error"), body.get("error_description")
    return f"HTTP {response.status_code} {error or ''}{': ' + str(description) if description else ''}".strip()


def _shown(content: bytes) -> str:
    """What came back, in words: its first 200 characters, control and invisible characters escaped."""
    text = content.decode("utf-8", "replace")
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text[:200])
    more = f" … ({len(text)} characters)" if len(text) > 200 else ""
    return f"{shown!r}{more}" if text.strip() else "an empty body"


class JwtBearerProvider(DpopProofs, TapsOwnRequests, RedirectAwareAuth):
    """`httpx2.Auth` for the JWT-bearer grant; see the module docstring."""

    requires_response_body = True
    auth_required: str | None = None  # set when a connection needs a sign-in at the IdP first
    failure: AuthError | None = None  # the last token endpoint failure (a sign-in failure, not a connection's)
    step_up_scope: str | None = None

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        *,
        client_id: str,
        assertion: TokenSource | None = None,
        idp: IdentityProvider | None = None,
        client_secret: str | None = None,
        scope: str | None = None,
        issuer: str | None = None,
        log: AuthLog | None = None,
    ) -> None:
        if (assertion is None) == (idp is None):
            raise ValueError("a JWT-bearer grant needs either a workload JWT or an identity provider")
        if not client_id:
            raise ValueError("a JWT-bearer grant needs a client id")
        self.server_url = server_url
        self.storage = storage
        self.client_id = client_id
        self.client_secret = client_secret
        self.assertion = assertion
        self.idp = idp
        self.scope = scope
        self.issuer = issuer
        self.log = log
        self.metadata: ServerMetadata | None = None
        self.resource: str | None = None
        self._tokens: Any = None
        self._expiry: float | None = None
        self._initialized = False
        self._lock = anyio.Lock()

    # -- what the Auth tab asks of a provider -------------------------------------------------
    def forget(self) -> None:
        self._tokens, self._expiry, self._initialized = None, None, False

    async def load(self) -> None:
        self._tokens = await self.storage.get_tokens()
        expires_at = getattr(self.storage, "expires_at", None)
        self._expiry = expires_at() if callable(expires_at) else None
        self._initialized = True

    def _note(self, step: str, summary: str, *, ok: bool = True) -> None:
        if self.log is not None:
            self.log.add(step, summary, ok=ok)

    # -- the flow -----------------------------------------------------------------------------
    async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        async with self._lock:
            if not self._initialized:
                await self.load()
            if self._tokens is not None and (self._expiry is None or time.time() < self._expiry - 5):
                request.headers["Authorization"] = f"Bearer {self._tokens.access_token}"
            response = yield request
            if response.status_code == 401:
                scope = self.scope or extract_scope_from_www_auth(response)
            elif response.status_code == 403 and extract_field_from_www_auth(response, "error") == "insufficient_scope":
                scope = union_scopes(self.scope, extract_scope_from_www_auth(response))
            else:
                return
            if self.metadata is None:
                discover = self._discover(response)
                try:
                    step = await discover.__anext__()
                    while True:
                        step = await discover.asend((yield step))
                except StopAsyncIteration:
                    pass
            assert self.metadata is not None and self.resource is not None
            if self.idp is not None:
                subject: str | None = None
                if self.idp.login is not None:  # the ID token from a browser sign-in at the IdP (kept until it expires)
                    login = self.idp.login.requests()
                    try:
                        step = await login.__anext__()
                        while True:
                            step = await login.asend((yield step))
                    except StopAsyncIteration:
                        pass
                    except AuthRequired as exc:
                        self.auth_required = exc.message
                        self._note("authorize", exc.message, ok=False)
                        raise
                    subject = self.idp.login.storage.id_token()
                elif self.idp.id_token is not None:
                    subject = self.idp.id_token.read()
                if not subject:
                    raise AuthError("no ID token for the token exchange at the identity provider")
                exchange = self.idp.exchange_request(subject, self.metadata.issuer, self.resource, scope)
                self._note("token", "token exchange at the identity provider: ID token → ID-JAG (RFC 8693)")
                answer = yield exchange
                assertion = self._id_jag(answer)
            else:
                assert self.assertion is not None
                assertion = self.assertion.read()
                self._note("token", f"workload JWT read from {self.assertion.describe()}")
            grant = yield self._grant_request(assertion, scope)
            where = f"the authorization server's token endpoint {grant.request.url}"
            if grant.status_code != 200:
                self._fail(
                    f"the authorization server refused the JWT-bearer grant: its token endpoint {grant.request.url} "
                    f"answered {_error_text(grant)}",
                    "(not retried)",
                )
            try:
                tokens = await handle_token_response_scopes(grant)
            except OAuthTokenError:
                self._fail(f"{where} answered HTTP 200 without a usable token: {_shown(grant.content)}")
            if tokens.scope is None:
                tokens.scope = scope
            self._tokens, self._expiry = tokens, calculate_token_expiry(tokens.expires_in)
            self.failure = None
            await self.storage.set_tokens(tokens)
            expiry = f", expires in {tokens.expires_in} s" if tokens.expires_in else ""
            self._note("info", f"access token stored{expiry}")
            request.headers["Authorization"] = f"Bearer {tokens.access_token}"
            yield request

    async def _discover(self, challenge: httpx2.Response) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """Protected resource metadata (for the resource and, unless configured, the authorization server),
        then the authorization server's metadata. Yields the requests; sets `metadata` and `resource`."""
        authorization_server = self.issuer
        for url in build_protected_resource_metadata_discovery_urls(
            extract_resource_metadata_from_www_auth(challenge), self.server_url
        ):
            answer = yield create_oauth_metadata_request(url)
            if answer.status_code != 200:
                continue
            try:
                document = json.loads(await answer.aread())
            except ValueError:
                continue
            if isinstance(document, dict) and isinstance(document.get("resource"), str):
                own = resource_url_from_server_url(self.server_url)
                if check_resource_allowed(requested_resource=own, configured_resource=document["resource"]):
                    self.resource = document["resource"]  # exactly as published (RFC 9728)
                else:  # a resource that is not this server's would aim the grant at another one
                    self._note("info", f"the metadata names another resource ({document['resource']}); using {own}")
                servers = document.get("authorization_servers") or []
                if authorization_server is None and servers and isinstance(servers[0], str):
                    authorization_server = servers[0]
                break
        if self.resource is None:
            self.resource = resource_url_from_server_url(self.server_url)
        if self.issuer is None:
            self._note("info", "no authorization server issuer configured: the one the MCP server names is used")
        for url in build_oauth_authorization_server_metadata_discovery_urls(authorization_server, self.server_url):
            answer = yield create_oauth_metadata_request(url)
            if answer.status_code >= 500:
                break
            metadata = _metadata(await answer.aread()) if answer.status_code == 200 else None
            if metadata is None:
                continue
            if authorization_server and not issuers_match(metadata.issuer, authorization_server):
                raise OAuthFlowError(
                    f"authorization server metadata issuer mismatch: {metadata.issuer} != {authorization_server}"
                )
            self.metadata = metadata
            return
        raise OAuthFlowError(f"no authorization server metadata found for {authorization_server or self.server_url}")

    def _fail(self, message: str, note: str = "", hint: str | None = None) -> NoReturn:
        """A token endpoint's failure: logged, kept as `failure` (the CLI's exit 11), raised. The message says
        who refused and what they answered; the hint what to check."""
        self._note("error", f"{message} {note}".strip(), ok=False)
        what = "client id, workload JWT, issuer" if self.assertion is not None else "client id and secret, issuer"
        hint = hint or f"Check the grant's settings ({what}) in the Auth tab (or the --oauth-* options); not retried."
        self.failure = AuthError(message, hint=hint)
        raise self.failure

    def _id_jag(self, answer: httpx2.Response) -> str:
        where = f"the identity provider's token endpoint {answer.request.url}"
        if answer.status_code != 200:
            self._fail(
                f"the identity provider refused the token exchange: its token endpoint {answer.request.url} "
                f"answered {_error_text(answer)}",
                hint=IDP_HINT,
            )
        try:
            body = json.loads(answer.content)
        except ValueError:
            body = None
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or token.count(".") != 2:
            self._fail(
                f"{where} answered without an ID-JAG (a JWT access_token): {_shown(answer.content)}", hint=IDP_HINT
            )
        if body.get("issued_token_type") not in (None, ID_JAG_TYPE):
            self._note("info", f"the identity provider said issued_token_type {body.get('issued_token_type')}")
        self._note("token", "ID-JAG received; presenting it to the MCP server's authorization server (RFC 7523)")
        return token

    def _grant_request(self, assertion: str, scope: str | None) -> httpx2.Request:
        assert self.metadata is not None and self.resource is not None
        data = {"grant_type": JWT_BEARER_GRANT_TYPE, "assertion": assertion, "resource": self.resource}
        if scope:
            data["scope"] = scope
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        if self.client_secret:
            headers["Authorization"] = basic_auth(self.client_id, self.client_secret)
        else:
            data["client_id"] = self.client_id
        return httpx2.Request("POST", self.metadata.token_endpoint, data=data, headers=headers)
