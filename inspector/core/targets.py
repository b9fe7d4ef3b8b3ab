"""Build a tapped transport from a server profile, by its kind (`inspector.transports.kinds`)."""

from __future__ import annotations

import subprocess
from typing import Any

from inspector.traffic.store import TrafficStore
from inspector.transports.kinds import transport_kind


def make_transport(
    profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None = None, auth: Any = None
) -> Any:
    """`profile` is duck-typed on `inspector.config.profile.ServerProfile`'s fields; `auth` is an
    `httpx2.Auth` for HTTP/SSE (the OAuth provider, see `inspector.auth`, which also routes and records
    its own requests: `inspector.transports.http.RoutesOwnRequests`), ignored for stdio."""
    return transport_kind(profile.transport).make(profile, store, process=process, auth=auth)
