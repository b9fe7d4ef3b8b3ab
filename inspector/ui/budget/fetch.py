"""Fetch another server's tool list briefly: connect, list tools, close (no Qt)."""

from __future__ import annotations

from typing import Any

from inspector.core.errors import LensError
from inspector.traffic.store import TrafficStore


class FetchError(Exception):
    """Listing a server's tools failed; the message says what to check."""


async def fetch_tools(profile: Any, timeout: float = 30.0) -> tuple[list[dict[str, Any]], str]:
    """(tools, server name) of `profile`'s server. Its traffic goes to a throwaway store."""
    from inspector.core.era import DEFAULT_ERA
    from inspector.core.open_connection import open_connection

    try:
        profile = _resolved(profile)
        # The SDK's connection (imported only now: it is slow), in the default era as it always was.
        unopened = open_connection(
            profile,
            TrafficStore(),
            lean=False,
            connect_timeout=timeout,
            request_timeout=timeout,
            era=DEFAULT_ERA,
            relist_on_change=False,
        )
        async with unopened as conn:
            listing = await conn.list_tools()
            name = conn.server_info.get("name")
    except LensError as exc:
        raise FetchError(exc.message + (f" — {exc.hint}" if exc.hint else "")) from exc
    except (TimeoutError, OSError, ValueError) as exc:
        raise FetchError(f"{type(exc).__name__}: {exc}") from exc
    tools = [tool for tool in listing.tools if isinstance(tool, dict)]
    return tools, str(name) if isinstance(name, str) and name else str(getattr(profile, "name", "server"))


def _resolved(profile: Any) -> Any:
    """`${VAR}` / `${env:VAR}` resolved from the environment; a `${input:…}` placeholder is never sent."""
    import os

    from inspector.config.references import Unresolved, resolve_profile

    try:
        return resolve_profile(profile, os.environ)
    except Unresolved as exc:
        raise FetchError(f"{exc} (connect to it from the Servers list, which asks for its inputs)") from exc
