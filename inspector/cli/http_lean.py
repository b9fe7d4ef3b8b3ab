"""The CLI's lean Streamable HTTP path: the lean client (`core/lite_http.py`) on `transports/http_pipes.py`.

Nothing imported that the run does not use: no httpx, no SDK, no pydantic, no OAuth stack. It applies
to a Streamable HTTP URL with no proxy in the environment and no OAuth to load up front (an OAuth
setting or stored credentials); the rest goes through the SDK as before (`connect.connect`). A server
that answers 401 is connected again through the OAuth path, with the stack loaded then.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from inspector.core.errors import LensError
from inspector.core.lite_http import LeanHttpConnection

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy")


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


class LeanHttp:
    """``async with LeanHttp(...) as conn``: the lean connection, or after a 401 the OAuth path's."""

    def __init__(self, profile: Any, store: Any, *, stored_only: bool, handlers: Any, **timeouts: Any) -> None:
        self.profile, self.store, self.stored_only = profile, store, stored_only
        self.handlers, self.timeouts = handlers, timeouts
        self._exit: Any = None

    def _lean(self) -> LeanHttpConnection:
        from inspector.core.open_connection import open_connection

        conn = open_connection(
            self.profile, self.store, lean=True, handlers=self.handlers, relist_on_change=False, **self.timeouts
        )
        assert isinstance(conn, LeanHttpConnection)
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
