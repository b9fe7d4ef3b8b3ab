"""Build a tapped transport from a server profile (stdio command, or HTTP/SSE URL)."""

from __future__ import annotations

import subprocess
from typing import Any

from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand


def make_transport(
    profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None = None, auth: Any = None
) -> Any:
    """`profile` is duck-typed on `inspector.config.profile.ServerProfile`'s fields; `auth` is an
    `httpx2.Auth` (the OAuth provider, see `inspector.auth`) for HTTP/SSE, ignored for stdio."""
    if profile.transport == "stdio":
        from inspector.transports.stdio import StdioTransport

        command = StdioCommand.from_profile(profile)
        return StdioTransport(command, store, process=process)
    from inspector.transports.http import HttpTransport

    return HttpTransport(
        profile.url,
        store,
        kind=profile.transport,
        headers=dict(profile.headers or {}),
        bearer_token=getattr(profile, "bearer_token", None),
        secret_headers=getattr(profile, "secret_headers", ()),
        auth=auth,
    )
