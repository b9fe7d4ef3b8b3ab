"""Build a tapped transport from a server profile, by its kind (`inspector.transports.kinds`).

`make_transport` is called by the connection seam (`core/open_connection.py`) alone; the kinds table is
also offered here for the layers above that may not reach into `transports` (the profile dialog's choices).
"""

from __future__ import annotations

import subprocess
from typing import Any

from inspector.traffic.store import TrafficStore
from inspector.transports.interface import Transport
from inspector.transports.kinds import TRANSPORT_KINDS, URL_KINDS, transport_kind

__all__ = ["TRANSPORT_KINDS", "URL_KINDS", "make_transport"]


def make_transport(
    profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None = None, auth: Any = None
) -> Transport:
    """`profile` is duck-typed on `inspector.config.profile.ServerProfile`'s fields; `auth` is an
    `httpx2.Auth` for HTTP/SSE (the OAuth provider, see `inspector.auth`, which also routes and records
    its own requests: `inspector.transports.http.RoutesOwnRequests`), ignored for stdio."""
    return transport_kind(profile.transport).make(profile, store, process=process, auth=auth)
