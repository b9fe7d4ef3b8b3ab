"""OAuth for one HTTP server profile: the connection's provider, sign in, refresh, sign out.

Connections use a non-interactive provider: stored tokens, refreshed when expired; a 401 that
needs the browser fails the connect with `AuthRequired` (the app then offers Sign in). Sign in
runs the interactive flow on its own, outside any connect timeout: a loopback listener is
opened, the user confirms the authorization URL, the browser opens it, and a probe request to the
server drives the SDK provider through discovery, registration, PKCE and the token exchange.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp.client.auth.utils import union_scopes
from mcp.shared.auth import OAuthClientInformationFull
from mcp_types import LATEST_PROTOCOL_VERSION

from inspector.auth.browser import check_browser_url, open_in_browser
from inspector.auth.errors import AuthCancelled, AuthError
from inspector.auth.events import AuthLog
from inspector.auth.extensions import idp_login, with_dpop
from inspector.auth.loopback import DEFAULT_TIMEOUT, LoopbackListener
from inspector.auth.provider import PLACEHOLDER_REDIRECT, LensOAuthProvider, client_metadata, redirect_uri_of
from inspector.auth.storage import Backend, ServerTokenStorage, TokenState, open_backend
from inspector.auth.tap import TRANSPORT_NAME
from inspector.traffic.entry import Direction, Kind

Confirm = Callable[[str], Awaitable[bool]]
Opener = Callable[[str], Any]  # async, or a plain function (run on a worker thread)

_PROBE = b'{"jsonrpc":"2.0","id":"mcp-lens-auth-probe","method":"ping"}'


def preregistered_client(profile: Any) -> OAuthClientInformationFull | None:
    """The client id/secret configured in the profile, if any."""
    client_id = getattr(profile, "oauth_client_id", None)
    if not client_id:
        return None
    secret = getattr(profile, "oauth_client_secret", None) or None
    return OAuthClientInformationFull(
        client_id=client_id,
        client_secret=secret,
        token_endpoint_auth_method="client_secret_basic" if secret else "none",
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )


def _covers(registered: str | None, wanted: str | None) -> bool:
    """Whether a registration's scope (None: the server's default, assumed enough) includes every wanted scope."""
    if registered is None or not wanted:
        return True
    return set(wanted.split()) <= set(registered.split())


async def _always(_url: str) -> bool:
    return True


class ServerAuth:
    """OAuth state for one server URL. `provider` goes to `open_connection(..., auth=…)`."""

    def __init__(self, profile: Any, *, backend: Backend | None = None, log: AuthLog | None = None) -> None:
        self.profile = profile
        self.server_url: str = profile.url
        self.log = log or AuthLog()
        self.storage = ServerTokenStorage(
            backend or open_backend(), self.server_url, preregistered=preregistered_client(profile)
        )
        self._provider: LensOAuthProvider | None = None
        self.listener: LoopbackListener | None = None

    # -- the connection's provider ----------------------------------------------------------
    @property
    def machine(self) -> bool:
        """The profile's grant needs no browser, ever (client credentials, the JWT-bearer extensions)."""
        from inspector.auth.extensions import needs_browser

        return not needs_browser(self.profile)

    def _machine_provider(self) -> Any:
        from inspector.auth.extensions import jwt_bearer_provider
        from inspector.auth.machine import client_credentials_provider, signing_algorithm_for

        if getattr(self.profile, "oauth_grant", None) != "client_credentials":
            return jwt_bearer_provider(self.profile, self.storage, self.log)

        key_file = getattr(self.profile, "oauth_private_key_file", None)
        try:
            pem = Path(key_file).expanduser().read_text(encoding="utf-8") if key_file else None
            return client_credentials_provider(
                self.server_url,
                self.storage,
                client_id=getattr(self.profile, "oauth_client_id", None) or "",
                client_secret=getattr(self.profile, "oauth_client_secret", None),
                private_key_pem=pem,
                signing_algorithm=signing_algorithm_for(pem) if pem else "RS256",
                scope=getattr(self.profile, "oauth_scopes", None),
                log=self.log,
            )
        except (OSError, ValueError) as exc:
            raise AuthError(f"client credentials: {exc}", hint="Set them in the Auth tab's OAuth client box.") from exc

    @property
    def provider(self) -> Any:
        """The non-interactive provider connections use (one per ServerAuth, so a refresh shows in it)."""
        if self._provider is None and (self.machine or idp_login(self.profile)):
            self._provider = with_dpop(self._machine_provider(), self.profile, self.storage, self.log)
        if self._provider is None:
            stored = self.storage.preregistered or None
            redirect = redirect_uri_of(stored) or PLACEHOLDER_REDIRECT
            self._provider = LensOAuthProvider(
                self.server_url,
                client_metadata(redirect),
                self.storage,
                interactive=False,
                log=self.log,
                extra_scopes=getattr(self.profile, "oauth_scopes", None),
            )
            with_dpop(self._provider, self.profile, self.storage, self.log)
        return self._provider

    def state(self) -> TokenState:
        return self.storage.state()

    @property
    def failure(self) -> AuthError | None:
        """The last refusal a connection's grant met (token endpoint, identity provider, DPoP nonces), if any."""
        return getattr(self._provider, "failure", None) if self._provider is not None else None

    @property
    def needs_sign_in(self) -> bool:
        return self._provider is not None and self._provider.auth_required is not None

    # -- actions -----------------------------------------------------------------------------
    async def sign_in(
        self,
        store: Any,
        *,
        confirm: Confirm = _always,
        opener: Opener = open_in_browser,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> TokenState:
        """Run the browser flow (client credentials: just the token request); returns the new token
        state. Raises an `AuthError` saying what failed."""
        self.log.add("info", f"sign-in to {self.server_url} started")
        self.storage.clear_tokens()
        if self.machine:
            return await self._sign_in_machine(store)
        if idp_login(self.profile):
            return await self._sign_in_idp(store, confirm, opener, timeout)
        async with LoopbackListener(timeout=timeout, log=self.log) as listener:
            self.listener = listener
            try:
                await self._sign_in(store, listener, confirm, opener)
            except AuthError as exc:
                self.log.add("error", f"sign-in failed: {exc.message}", ok=False)
                raise
            except Exception as exc:
                self.log.add("error", f"sign-in failed: {type(exc).__name__}: {exc}", ok=False)
                raise AuthError(f"sign-in failed: {exc}") from exc
            finally:
                self.listener = None
        if self._provider is not None:
            self._provider.forget()  # reload what the flow stored on the next request
            self._provider.auth_required = None
            self._provider.step_up_scope = None
        return self.state()

    async def _sign_in(self, store: Any, listener: LoopbackListener, confirm: Confirm, opener: Opener) -> None:
        registered = await self.storage.get_client_info()
        scopes = self._sign_in_scopes()
        stale = registered is not None and redirect_uri_of(registered) != listener.redirect_uri
        narrow = registered is not None and not _covers(registered.scope, scopes)
        if self.storage.preregistered is None and (stale or narrow):
            # registered for another loopback port, or for fewer scopes than a step-up needs: register again
            self.storage.forget_client()

        redirect = self._redirect_handler(store, listener, confirm, opener)

        provider = LensOAuthProvider(
            self.server_url,
            client_metadata(listener.redirect_uri),
            self.storage,
            interactive=True,
            redirect_handler=redirect,
            callback_handler=listener.wait,
            log=self.log,
            extra_scopes=scopes,
        )
        with_dpop(provider, self.profile, self.storage, self.log)
        status = await self.probe(store, provider)
        if status in (401, 403):
            raise AuthError(f"the server still answers HTTP {status} after sign-in")
        if self.storage.tokens() is None:
            raise AuthError(
                f"the server did not ask for authorization (HTTP {status} without a 401): nothing to sign in to",
                hint="This server works without OAuth; just connect.",
            )

    async def _sign_in_idp(self, store: Any, confirm: Confirm, opener: Opener, timeout: float) -> TokenState:
        """Enterprise-managed authorization with a browser sign-in at the IdP for the ID token, then the rest."""
        from inspector.auth.extensions import jwt_bearer_provider

        async with LoopbackListener(timeout=timeout, log=self.log) as listener:
            self.listener = listener
            try:
                redirect = self._redirect_handler(store, listener, confirm, opener)
                browser = (listener.redirect_uri, redirect, listener.wait)
                provider = jwt_bearer_provider(self.profile, self.storage, self.log, browser=browser)
                with_dpop(provider, self.profile, self.storage, self.log)
                await self.probe(store, provider)
            except AuthError as exc:
                self.log.add("error", f"sign-in failed: {exc.message}", ok=False)
                raise
            except Exception as exc:
                self.log.add("error", f"sign-in failed: {type(exc).__name__}: {exc}", ok=False)
                raise AuthError(f"sign-in failed: {exc}") from exc
            finally:
                self.listener = None
        if self.storage.tokens() is None:
            raise AuthError("no token was issued after the sign-in at the identity provider")
        if self._provider is not None:
            self._provider.forget()
            self._provider.auth_required = None
        return self.state()

    def _redirect_handler(
        self, store: Any, listener: LoopbackListener, confirm: Confirm, opener: Opener
    ) -> Callable[[str], Awaitable[None]]:
        """What a sign-in does with an authorization URL: check it, note it, ask, open the browser."""

        async def redirect(url: str) -> None:
            check_browser_url(url)
            listener.expect(url)
            self.log.add("authorize", f"authorization URL: {url}")
            if store is not None:  # the browser's request is not ours to tap: note it in the traffic log
                store.record(
                    Direction.OUT,
                    TRANSPORT_NAME,
                    Kind.HTTP_META,
                    f"GET {url}  (opened in the browser)".encode(),
                    http={"method": "GET", "url": url, "oauth": "authorize"},
                    notes=["OAuth authorization request"],
                )
            if not await confirm(url):
                raise AuthCancelled("sign-in cancelled: the authorization URL was not opened")
            self.log.add("authorize", "opening the authorization URL in the browser; waiting for the redirect")
            if inspect.iscoroutinefunction(opener) or inspect.iscoroutinefunction(type(opener).__call__):
                await opener(url)
            else:  # webbrowser may wait for the browser it starts (terminal browsers do): not on the loop
                await asyncio.to_thread(opener, url)

        return redirect

    async def _sign_in_machine(self, store: Any) -> TokenState:
        try:
            provider = self.provider
            provider.forget()
            status = await self.probe(store, provider)
        except AuthError as exc:
            self.log.add("error", f"sign-in failed: {exc.message}", ok=False)
            raise
        except Exception as exc:
            self.log.add("error", f"sign-in failed: {type(exc).__name__}: {exc}", ok=False)
            raise AuthError(f"sign-in failed: {exc}") from exc
        if self.storage.tokens() is None:
            raise AuthError(f"no token was issued (the server answered HTTP {status})")
        return self.state()

    def _sign_in_scopes(self) -> str | None:
        """The profile's extra scopes, plus, after a step-up refusal (HTTP 403 insufficient_scope), the
        scope held before and the one the server asked for: the new token keeps what the old one could
        do (SEP-2350)."""
        step_up = self._provider.step_up_scope if self._provider is not None else None
        if step_up:
            self.log.add("info", f"step-up: asking for {step_up}")
        return union_scopes(getattr(self.profile, "oauth_scopes", None), step_up) or None

    async def refresh(self, store: Any) -> TokenState:
        """Use the refresh token now (through the connection's provider, so a live connection uses the new one)."""
        provider = self.provider
        await provider.load()
        if not hasattr(provider, "context"):  # the JWT-bearer grants: a new grant is the refresh, no browser
            return await self.sign_in(store)
        if provider.context.current_tokens is None or not provider.context.current_tokens.refresh_token:
            raise AuthError("no refresh token is stored for this server", hint="Sign in again.")
        before = provider.context.current_tokens.access_token
        provider.expire_now()
        self.log.add("refresh", "refreshing the access token")
        await self.probe(store, provider)
        after = provider.context.current_tokens
        if after is None or after.access_token == before:
            raise AuthError("the token was not refreshed", hint="Sign in again.")
        return self.state()

    def sign_out(self) -> None:
        """Forget the tokens and the registered client of this server (memory and storage)."""
        self.storage.clear()
        if self._provider is not None:
            self._provider.forget()
        self.log.add("info", f"signed out: stored credentials for {self.server_url} deleted")

    def cancel(self) -> None:
        if self.listener is not None:
            self.listener.cancel()

    async def probe(self, store: Any, provider: LensOAuthProvider) -> int:
        """Send one small request through `provider` (and our taps); returns the final HTTP status."""
        from inspector.core.open_connection import probe_transport

        transport = probe_transport(self.server_url, self.profile, store, auth=provider)
        async with transport.client() as client:
            if transport.kind == "sse":
                async with client.stream("GET", self.server_url, headers={"Accept": "text/event-stream"}) as response:
                    return response.status_code
            response = await client.post(
                self.server_url,
                content=_PROBE,
                headers={
                    "Content-Type": "application/json",
                    "Accept": "application/json, text/event-stream",
                    "MCP-Protocol-Version": LATEST_PROTOCOL_VERSION,
                },
            )
            return response.status_code
