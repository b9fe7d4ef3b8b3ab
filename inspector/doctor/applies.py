"""When a check of the table applies, from the connection alone (its transport and era): the table's
``applies`` column. The engine says "not applicable" for a check whose rule does not hold, whether the
check's turn came or the server stopped answering before it (then it was not "skipped")."""

from __future__ import annotations

from typing import Any

from inspector.doctor.http_probe import endpoint_of, is_loopback

NOT_HTTP = "not Streamable HTTP"
LEGACY = "a 2026-07-28 rule; the server speaks the legacy era"


def http(conn: Any) -> str | None:
    """Streamable HTTP only (not stdio, not legacy SSE)."""
    return None if endpoint_of(conn) is not None else NOT_HTTP


def loopback_http(conn: Any) -> str | None:
    """A plain-HTTP endpoint on this machine."""
    endpoint = endpoint_of(conn)
    if endpoint is None:
        return NOT_HTTP
    return None if is_loopback(endpoint[0]) else "not a plain-HTTP server on loopback"


def modern(conn: Any) -> str | None:
    """A 2026-07-28 rule."""
    return None if getattr(conn, "era", None) == "modern" else LEGACY


def modern_http(conn: Any) -> str | None:
    return modern(conn) or http(conn)


def legacy(conn: Any) -> str | None:
    """A legacy-era rule 2026-07-28 removed (ping)."""
    return "2026-07-28 removed ping" if getattr(conn, "era", None) == "modern" else None
