"""Profile → unopened connection: the one place that builds a transport and a connection on it.

Every front end reaches a server through here: the app's session (`core/session.py`), the CLI and what it
serves (`cli/connect.py`, `cli/http_lean.py`: ``--cli``, ``tokens``, ``run``, ``doctor``, the Collections tab's
Run all), OAuth's connect-again (`auth/cli.py`), the Doctor tab's short connections and the Budget tab's
fetch of another server's tools. What differs between them is handed in, never chosen by the caller's own
code: ``lean`` picks the lean client (`core/lite.py`, `core/lite_http.py`: no SDK, for stdio and Streamable
HTTP) or the SDK's `Connection`; ``auth`` is the OAuth provider (SDK path only); the rest is passed on.
Each client is imported only when built, so a lean run never loads the SDK.
"""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING, Any, Protocol

from inspector.config.profile import ServerProfile
from inspector.core.client_handlers import ClientHandlers
from inspector.traffic.store import TrafficStore

if TYPE_CHECKING:
    from inspector.core.connection import Connection
    from inspector.core.lite import LiteConnection
    from inspector.core.operations import Operations
    from inspector.transports.http import HttpTransport

LEAN_KINDS = ("stdio", "http")  # the lean client's transports (no legacy SSE)


class UnopenedConnection(Protocol):
    """A connection not entered yet: what `open_connection` returns, and the CLI's wrappers around it that
    connect again after a 401 (`auth/cli.py`, `cli/http_lean.py`). ``async with`` it → the connection."""

    async def __aenter__(self) -> Operations: ...
    async def __aexit__(self, *exc_info: Any) -> Any: ...


def open_connection(
    profile: ServerProfile,
    store: TrafficStore,
    *,
    lean: bool = False,
    auth: Any = None,
    handlers: ClientHandlers | None = None,
    process: subprocess.Popen[bytes] | None = None,
    connect_timeout: float = 30.0,
    request_timeout: float | None = 60.0,
    era: str | None = None,
    remembered_era: str | None = None,
    grace: float | None = None,
    relist_on_change: bool = True,
) -> Connection | LiteConnection:
    """An unopened connection to `profile`'s server (``async with`` it), recording into `store`.

    `lean`: the lean client (stdio or Streamable HTTP; `auth` does not apply) instead of the SDK's.
    `auth`: an `httpx2.Auth` for a URL (the OAuth provider). `process`: a stdio server started early.
    `era`: the protocol-era setting (default: the profile's). `grace`: seconds between closing a lean
    stdio server's stdin and SIGTERM (default: the pipes'). `relist_on_change` off for a one-shot run.
    """
    era = profile.protocol_era if era is None else era
    conn: Connection | LiteConnection
    if lean:
        conn = _lean(profile, store, process, connect_timeout, request_timeout, era, remembered_era, grace)
        if handlers is not None:
            conn.handlers = handlers
    else:
        from inspector.core.connection import Connection  # the SDK: only when this path is taken
        from inspector.core.targets import make_transport

        conn = Connection(
            make_transport(profile, store, process=process, auth=auth),
            connect_timeout=connect_timeout,
            request_timeout=request_timeout,
            handlers=handlers,
            era=era,
            remembered_era=remembered_era,
        )
    conn.relist_on_change = relist_on_change
    return conn


def _lean(
    profile: ServerProfile,
    store: TrafficStore,
    process: subprocess.Popen[bytes] | None,
    connect_timeout: float,
    request_timeout: float | None,
    era: str,
    remembered_era: str | None,
    grace: float | None,
) -> LiteConnection:
    timeouts: dict[str, Any] = {
        "connect_timeout": connect_timeout,
        "request_timeout": request_timeout,
        "era": era,
        "remembered_era": remembered_era,
    }
    if profile.transport == "stdio":
        from inspector.core.lite import LiteConnection
        from inspector.transports.process import StdioCommand
        from inspector.transports.stdio_pipes import StdioPipes

        command = StdioCommand.from_profile(profile)
        pipes = StdioPipes(command, store, process=process, **({} if grace is None else {"grace": grace}))
        return LiteConnection(pipes, **timeouts)
    if profile.transport == "http":
        from inspector.core.lite_http import LeanHttpConnection

        return LeanHttpConnection(_http_pipes(profile, store, connect_timeout), **timeouts)
    raise ValueError(f"the lean client has no {profile.transport!r} transport: use one of {', '.join(LEAN_KINDS)}")


def probe_transport(url: str, profile: ServerProfile, store: TrafficStore, *, auth: Any) -> HttpTransport:
    """The HTTP transport for a request of MCP Lens's own to `url` through `auth` (the sign-in's probe, sent
    with its `client()`): the profile's kind (SSE or else Streamable HTTP) and headers, no connection on it."""
    from inspector.transports.http import HttpTransport

    kind = getattr(profile, "transport", "http")
    return HttpTransport(
        url,
        store,
        kind=kind if kind in ("http", "sse") else "http",
        headers=dict(getattr(profile, "headers", None) or {}),
        secret_headers=getattr(profile, "secret_headers", ()),
        auth=auth,
    )


def open_pipes(target: list[str] | str | ServerProfile, store: TrafficStore, *, bearer_token: str | None = None) -> Any:
    """Raw JSON-RPC pipes to `target` (an argv, a Streamable HTTP URL, or a profile: stdio with its env and
    folder, Streamable HTTP with its headers and secrets as a connect sends them), unstarted: for what speaks
    the wire itself, as `mcp-lens replay --against` does. `bearer_token`: a stored sign-in's access token."""
    from inspector.transports.http_pipes import HttpPipes
    from inspector.transports.process import StdioCommand
    from inspector.transports.stdio_pipes import StdioPipes

    if isinstance(target, str):
        return HttpPipes(target, store, bearer_token=bearer_token)
    if isinstance(target, list):
        return StdioPipes(StdioCommand(target[0], list(target[1:])), store)
    if target.transport == "http":
        return _http_pipes(target, store, 30.0, bearer_token)
    return StdioPipes(StdioCommand.from_profile(target), store)


def _http_pipes(profile: ServerProfile, store: TrafficStore, connect_timeout: float, bearer: str | None = None) -> Any:
    from inspector.transports.http_pipes import HttpPipes

    return HttpPipes(
        profile.url,
        store,
        headers=dict(profile.headers or {}),
        bearer_token=bearer or getattr(profile, "bearer_token", None),
        secret_headers=tuple(getattr(profile, "secret_headers", ())),
        secret_values=tuple(getattr(profile, "secret_values", ())),
        connect_timeout=connect_timeout,
    )
