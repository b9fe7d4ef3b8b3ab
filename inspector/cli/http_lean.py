"""The CLI's lean Streamable HTTP path: the lean client (`core/lite.py`) on `transports/http_pipes.py`.

Nothing imported that the run does not use: no httpx, no SDK, no pydantic, no OAuth stack. It applies
to a Streamable HTTP URL with no proxy in the environment and no OAuth to load up front (an OAuth
setting or stored credentials); the rest goes through the SDK as before (`connect.connect`). A server
that answers 401 is connected again through the OAuth path, with the stack loaded then.
"""

from __future__ import annotations

import os
import sys
from contextlib import nullcontext
from typing import Any

from inspector.core.era import tries_modern
from inspector.core.errors import ConnectFailed, LensError, ProtocolError, RequestTimeout, describe_code
from inspector.core.lite import LiteConnection
from inspector.traffic.entry import ERA_PROBE, FALLBACK
from inspector.transports.http_pipes import HttpPipes

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")
URL_HINT = "Check the URL's path (often /mcp) and the transport (Streamable HTTP or SSE)."


def lean_http_applies(profile: Any) -> bool:
    """Whether the lean client can reach `profile` as the SDK's would: Streamable HTTP, plain or TLS
    (the SDK trusts the system's store on macOS, which the stdlib does not), no proxy, no OAuth up front."""
    from inspector.auth.applies import oauth_from_the_start, wants_oauth

    url = str(profile.url or "")
    if profile.transport != "http" or not url.startswith(("http://", "https://")):
        return False
    if url.startswith("https://") and sys.platform == "darwin":
        return False
    if _proxied():
        return False
    return not (wants_oauth(profile) and oauth_from_the_start(profile))


def _proxied() -> bool:
    """A proxy httpx would use: the environment's variables (Windows and macOS: their system settings too)."""
    if any(value for name, value in os.environ.items() if name.lower() in PROXY_VARIABLES):
        return True
    if sys.platform in ("darwin", "win32"):
        import urllib.request

        return any(scheme in urllib.request.getproxies() for scheme in ("http", "https", "all"))
    return False


class LeanHttpConnection(LiteConnection):
    """The lean client over HTTP; a failed connect is told in the SDK path's words (with the HTTP status)."""

    pipes: HttpPipes
    _probed = False  # auto sent its era probe: an initialize after it is the fallback

    async def _discover(self, version: str, timeout: float | None) -> dict[str, Any]:
        """As the SDK path records it: auto's probe (the one with a timeout) and its answer are our probe."""
        if timeout is None:
            return await super()._discover(version, timeout)
        self._probed = True
        with self.store.probing("server/discover", ERA_PROBE):
            return await super()._discover(version, timeout)

    async def _initialize(self, version: str) -> dict[str, Any]:
        with self.store.probing("initialize", FALLBACK) if self._probed else nullcontext():
            return await super()._initialize(version)

    async def __aenter__(self) -> LeanHttpConnection:
        try:
            await super().__aenter__()
        except ConnectFailed as exc:
            raise self._in_http_words(exc) from exc.__cause__
        return self

    def lost_error(self) -> ConnectFailed:
        """As the SDK path says it: lost, why, and whether the server stopped answering."""
        reason = self.describe_exit()
        stopped = self.pipes.gone_reason is not None
        return ConnectFailed(f"connection lost: {reason}", lost=True, reason=reason, stopped=stopped)

    def _in_http_words(self, exc: ConnectFailed) -> ConnectFailed:
        cause = exc.__cause__
        if isinstance(cause, RequestTimeout | TimeoutError):
            words = "server/discover or initialize" if self.era_setting == "auto" else None
            words = words or ("server/discover" if tries_modern(self.era_setting) else "initialize")
            return ConnectFailed(
                f"no answer to {words} within {self.connect_timeout:g}s ({self.describe_exit()})",
                hint="Check that the command starts an MCP server on stdio, or that the URL is an MCP endpoint.",
            )
        if not isinstance(cause, ProtocolError):
            return exc
        method = cause.details.get("method") or "the connection"
        message = cause.message.removeprefix(f"{method} failed: ").removesuffix(f" (JSON-RPC error {cause.code})")
        status = self.pipes.last_status
        http = f", after HTTP {status}" if status is not None and status >= 400 else ""
        return ConnectFailed(
            f"the server refused {method}: {message} (code {cause.code}{http}){describe_code(cause.code, cause.data)}",
            hint=URL_HINT if http else exc.hint,
        )


class LeanHttp:
    """``async with LeanHttp(...) as conn``: the lean connection, or after a 401 the OAuth path's."""

    def __init__(self, profile: Any, store: Any, *, stored_only: bool, handlers: Any, **timeouts: Any) -> None:
        self.profile, self.store, self.stored_only = profile, store, stored_only
        self.handlers, self.timeouts = handlers, timeouts
        self._exit: Any = None

    def _lean(self) -> LeanHttpConnection:
        profile = self.profile
        pipes = HttpPipes(
            profile.url,
            self.store,
            headers=dict(profile.headers or {}),
            bearer_token=getattr(profile, "bearer_token", None),
            secret_headers=tuple(getattr(profile, "secret_headers", ())),
            secret_values=tuple(getattr(profile, "secret_values", ())),
            connect_timeout=self.timeouts.get("connect_timeout", 30.0),
        )
        conn = LeanHttpConnection(pipes, **self.timeouts)
        conn.relist_on_change = False
        conn.handlers = self.handlers
        return conn

    async def __aenter__(self) -> Any:
        from inspector.auth.applies import wants_oauth

        since = self.store.next_seq
        lean = self._lean()
        try:
            conn = await lean.__aenter__()
        except LensError:
            if not (wants_oauth(self.profile) and _answered_401(self.store, since)):
                raise
        else:
            self._exit = conn.__aexit__
            return conn
        # The server asked for a sign-in: the OAuth stack loads now, with stored tokens first.
        from inspector.auth.cli import AuthedConnection
        from inspector.auth.signin import ServerAuth

        authed = AuthedConnection(
            self.profile,
            self.store,
            stored_only=self.stored_only,
            auth=ServerAuth(self.profile),
            handlers=self.handlers,
            **self.timeouts,
        )
        authed.relist_on_change = False
        conn = await authed.__aenter__()
        self._exit = authed.__aexit__
        return conn

    async def __aexit__(self, *exc_info: object) -> None:
        if self._exit is not None:
            await self._exit(*exc_info)


def _answered_401(store: Any, since: int) -> bool:
    from inspector.auth.cli import _answered_401 as answered

    return answered(store, since)
