"""Helpers for the core tests: open a connection of either flavour and run a body in a fresh loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.lite import LiteConnection
from inspector.core.operations import Operations
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes


# These helpers serve the handshake-era tests (elicitation mid-call, subscribe, ping, setLevel): their
# profiles pin `legacy`. The era tests (test_era.py) choose auto / modern themselves.
def stdio_profile(argv: list[str], *, era: str = "legacy", **env: str) -> ServerProfile:
    return ServerProfile(
        name="test", transport="stdio", command=argv[0], args=argv[1:], env=dict(env), protocol_era=era
    )


def http_profile(url: str, transport: str = "http", *, era: str = "legacy", **kwargs: Any) -> ServerProfile:
    return ServerProfile(name="test", transport=transport, url=url, protocol_era=era, **kwargs)


def open_connection(
    profile: ServerProfile, store: TrafficStore, *, lite: bool = False, **kwargs: Any
) -> Connection | LiteConnection:
    if lite:
        command = StdioCommand.from_profile(profile)
        return LiteConnection(StdioPipes(command, store), era=kwargs.pop("era", profile.protocol_era), **kwargs)
    kwargs.setdefault("era", profile.protocol_era)
    return Connection(make_transport(profile, store), **kwargs)


def run_with(
    profile: ServerProfile,
    body: Callable[[Operations], Awaitable[Any]],
    *,
    lite: bool = False,
    store: TrafficStore | None = None,
    **kwargs: Any,
) -> Any:
    """Connect, run ``await body(conn)``, disconnect; in a fresh event loop. Auto's probe waits up to
    60 s unless a test sets ``probe_timeout``: a loaded machine may start a server slower than the app's 3 s."""
    kwargs.setdefault("probe_timeout", 60.0)
    store = store if store is not None else TrafficStore()

    async def main() -> Any:
        async with open_connection(profile, store, lite=lite, **kwargs) as conn:
            return await body(conn)

    return asyncio.run(main())
