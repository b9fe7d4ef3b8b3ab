"""OAuth in the headless CLI: stored tokens first; a browser sign-in only when allowed.

`--stored-auth-only` (for CI): use stored tokens and refresh them, never open a browser; a server
that needs a sign-in fails the run with `AuthRequired` (exit code 8) and a message saying so.
Without it, a 401 that stored tokens cannot answer prints the authorization URL, opens the
browser, waits for the loopback redirect, then connects again.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from inspector.auth.applies import oauth_from_the_start, wants_oauth  # noqa: F401  # wants_oauth: for the CLI
from inspector.auth.browser import check_browser_url
from inspector.auth.errors import AuthRequired
from inspector.core.errors import LensError

if TYPE_CHECKING:
    from inspector.auth.signin import ServerAuth
    from inspector.core.operations import Operations


def terminal_opener(url: str) -> None:
    """Show the URL first, then try the browser; without one the user opens the URL by hand."""
    check_browser_url(url)
    import webbrowser

    sys.stderr.write(f"mcp-lens: this server needs a sign-in. Authorization URL:\n  {url}\n")
    if not webbrowser.open(url):
        sys.stderr.write("mcp-lens: no browser could be started: open the URL above yourself.\n")
    sys.stderr.write("mcp-lens: waiting for the browser to come back…\n")
    sys.stderr.flush()


class AuthedConnection:
    """``async with AuthedConnection(profile, store, stored_only=…) as conn`` → a connected `Connection`."""

    def __init__(self, profile: Any, store: Any, *, stored_only: bool, auth: ServerAuth | None = None, **timeouts: Any):
        self.profile = profile
        self.store = store
        self.stored_only = stored_only
        self.timeouts = timeouts
        # The OAuth stack (the SDK's provider, pydantic models, storage) loads only when it can matter:
        # an OAuth setting or stored credentials, else the server's first 401.
        self.auth = auth
        if self.auth is None and oauth_from_the_start(profile):
            self.auth = self._load_auth()
        self.relist_on_change = True
        self._conn: Operations | None = None

    def _load_auth(self) -> ServerAuth:
        from inspector.auth.signin import ServerAuth

        return ServerAuth(self.profile)

    async def _open(self) -> Operations:
        from inspector.core.open_connection import open_connection

        auth = self.auth.provider if self.auth is not None else None
        conn = open_connection(
            self.profile, self.store, lean=False, auth=auth, relist_on_change=self.relist_on_change, **self.timeouts
        )
        self._conn = await conn.__aenter__()
        return self._conn

    async def __aenter__(self) -> Operations:
        if self.auth is None:
            since = self.store.next_seq
            try:
                return await self._open()
            except LensError:
                if not _answered_401(self.store, since):
                    raise
            self.auth = self._load_auth()  # the server asked: try again with stored tokens, then sign in
        try:
            return await self._open()
        except LensError:
            failure = getattr(self.auth.provider, "failure", None)
            if failure is not None:  # a token endpoint's refusal or garbage: a sign-in failure (exit 11)
                raise failure from None
            if not self.auth.needs_sign_in:
                raise
            if self.stored_only:
                raise AuthRequired(
                    f"{self.profile.url} needs a browser sign-in, and --stored-auth-only forbids one "
                    "(no stored token, or the stored token could not be refreshed)",
                    hint="Sign in once (mcp-lens --cli without --stored-auth-only, or the app's Auth tab); "
                    "the token is stored per server and reused.",
                ) from None
        await self.auth.sign_in(self.store, opener=terminal_opener)
        return await self._open()

    async def __aexit__(self, *exc_info: object) -> None:
        if self._conn is not None:
            await self._conn.__aexit__(*exc_info)
        if self.auth is not None:
            say_where_tokens_are(self.auth.storage.backend)


_said: set[str] = set()


def say_where_tokens_are(backend: Any) -> None:
    """On stderr, once a run: a token kept for this session only (no keyring, no tick), or read from a
    plain file an earlier version wrote."""
    from inspector.config.secret_keeping import NO_KEYRING_SESSION, PLAIN_FILE_NOTE

    if getattr(backend, "name", "") != "session":
        return
    notes = [PLAIN_FILE_NOTE] if backend.read_plain_file else []
    if any(record.get("tokens") for record in backend.records.values()):
        notes.append(NO_KEYRING_SESSION)
    for note in notes:
        if note not in _said:
            _said.add(note)
            sys.stderr.write(f"mcp-lens: {note}\n")


def _answered_401(store: Any, since: int) -> bool:
    """Whether the server answered HTTP 401 to a request recorded from seq `since` on."""
    from inspector.traffic.entry import Kind

    return any(
        entry.seq >= since and entry.kind == Kind.HTTP_META and (entry.http or {}).get("status") == 401
        for entry in store
    )
