"""The SDK's OAuth client provider, with what a debugger adds around it.

- Requests the provider makes itself are marked, so they are recorded by the OAuth tap.
- Stored expiry and discovered metadata are restored, so an expired token is refreshed before the
  request instead of being found out by a 401 (the SDK keeps neither across runs).
- Non-interactive mode (connections, `--stored-auth-only`): a 401 that stored tokens and a
  refresh could not avoid raises `AuthRequired` at once: no registration, no browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.utils import extract_field_from_www_auth, extract_scope_from_www_auth, union_scopes
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
from pydantic import PrivateAttr

from inspector import __version__
from inspector.auth.dpop import DpopProofs
from inspector.auth.errors import AuthRequired
from inspector.auth.events import AuthLog
from inspector.auth.storage import ServerTokenStorage
from inspector.auth.tap import TapsOwnRequests

PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback"


def client_metadata(
    redirect_uri: str, *, scope: str | None = None, auth_method: str | None = None
) -> OAuthClientMetadata:
    """What MCP Lens registers as: a native app with a loopback redirect (RFC 8252)."""
    return OAuthClientMetadata(
        client_name="MCP Lens",
        client_uri="https://github.com/modelcontextprotocol",
        software_id="mcp-lens",
        software_version=__version__,
        redirect_uris=[redirect_uri],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method=auth_method,  # type: ignore[arg-type]
        scope=scope or None,
    )


class ScopedClientMetadata(OAuthClientMetadata):
    """Client metadata whose scope always includes some extra scopes: whatever scope the SDK's flow
    selects (from the challenge or the metadata), registration and authorization both ask for these too
    (the profile's extra scopes; after a step-up refusal, the scopes held before plus the challenged one)."""

    _extra: str | None = PrivateAttr(default=None)

    @classmethod
    def widen(cls, metadata: OAuthClientMetadata, extra: str) -> ScopedClientMetadata:
        out = cls.model_validate(metadata.model_dump())
        out._extra = extra
        out.scope = metadata.scope
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "scope" and self._extra:
            value = union_scopes(value, self._extra)
        super().__setattr__(name, value)


def needs_authorization(response: httpx2.Response) -> bool:
    if response.status_code == 401:
        return True
    return response.status_code == 403 and extract_field_from_www_auth(response, "error") == "insufficient_scope"


class LensOAuthProvider(DpopProofs, TapsOwnRequests, OAuthClientProvider):
    """`OAuthClientProvider` over a `ServerTokenStorage`; see the module docstring (DPoP: `auth/dpop.py`)."""

    def __init__(
        self,
        server_url: str,
        metadata: OAuthClientMetadata,
        storage: ServerTokenStorage,
        *,
        interactive: bool,
        redirect_handler: Callable[[str], Awaitable[None]] | None = None,
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
        log: AuthLog | None = None,
        extra_scopes: str | None = None,
        client_metadata_url: str | None = None,
    ) -> None:
        if extra_scopes:
            metadata = ScopedClientMetadata.widen(metadata, extra_scopes)
        super().__init__(
            server_url,
            metadata,
            storage,
            redirect_handler=redirect_handler,
            callback_handler=callback_handler,
            client_metadata_url=client_metadata_url,
        )
        self.storage = storage
        self.interactive = interactive
        self.log = log
        self.extra_scopes = extra_scopes
        self.auth_required: str | None = None  # set when a non-interactive run hit a 401 it cannot fix
        # After a 403 insufficient_scope: what the granted token had plus what the server challenged for.
        self.step_up_scope: str | None = None

    @property
    def initialized(self) -> bool:
        return self._initialized

    async def load(self) -> None:
        """(Re)load tokens, client, expiry and metadata from storage."""
        await self._initialize()

    async def _initialize(self) -> None:
        await super()._initialize()
        ctx = self.context
        if ctx.current_tokens is not None:
            ctx.token_expiry_time = self.storage.expires_at()
        oauth, resource = self.storage.metadata()
        if ctx.oauth_metadata is None and oauth is not None:
            ctx.oauth_metadata = oauth
        if ctx.protected_resource_metadata is None and resource is not None:
            ctx.protected_resource_metadata = resource
            if resource.authorization_servers:
                ctx.auth_server_url = str(resource.authorization_servers[0])

    def expire_now(self) -> None:
        """Treat the current access token as expired, so the next request refreshes it first."""
        self.context.token_expiry_time = 1.0  # in the past; 0 would read as "no expiry"

    def forget(self) -> None:
        """Drop everything held in memory (after sign-out)."""
        self.context.clear_tokens()
        self.context.client_info = None
        self._initialized = False

    async def check_response(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """A run that must not open a browser stops at the 401 (or the 403 asking for more scope)."""
        if self.interactive or not needs_authorization(response):
            return
        await response.aread()
        self.auth_required = f"{request.url} answered HTTP {response.status_code}: the server needs a browser sign-in"
        if response.status_code == 403:  # step-up: the next sign-in asks for more (SEP-2350)
            self.step_up_scope = self._step_up_scope(response)
            self.auth_required += f" with more scope ({self.step_up_scope})"
        if self.log is not None:
            self.log.add("authorize", self.auth_required, ok=False)
        raise AuthRequired(
            self.auth_required,
            hint="Sign in from the Auth tab (or run without --stored-auth-only) to store a token.",
        )

    def _step_up_scope(self, response: httpx2.Response) -> str | None:
        """The union of the scope granted so far, the client's requested scope and the challenged one."""
        tokens = self.context.current_tokens
        granted = union_scopes(self.context.client_metadata.scope, tokens.scope if tokens else None)
        return union_scopes(granted, extract_scope_from_www_auth(response)) or None

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        await super()._handle_token_response(response)
        self._after_tokens("signed in")

    async def _handle_refresh_response(self, response: httpx2.Response) -> bool:
        ok = await super()._handle_refresh_response(response)
        if ok:
            self._after_tokens("token refreshed")
        elif self.log is not None:
            self.log.add("refresh", f"refresh refused (HTTP {response.status_code}); stored token dropped", ok=False)
        return ok

    def _after_tokens(self, what: str) -> None:
        self.storage.save_metadata(self.context.oauth_metadata, self.context.protected_resource_metadata)
        if self.log is not None:
            tokens = self.context.current_tokens
            expiry = f", expires in {tokens.expires_in} s" if tokens and tokens.expires_in else ""
            scopes = f", scopes: {tokens.scope}" if tokens and tokens.scope else ""
            self.log.add("info", f"{what}: token stored ({self.storage.backend.name}){expiry}{scopes}")


def redirect_uri_of(client: Any) -> str | None:
    uris = getattr(client, "redirect_uris", None) or []
    return str(uris[0]) if uris else None
