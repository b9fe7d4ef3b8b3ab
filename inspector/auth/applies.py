"""Whether OAuth applies to a profile. Light on purpose: the main window imports it before it is shown."""

from __future__ import annotations

from typing import Any


def wants_oauth(profile: Any) -> bool:
    """HTTP/SSE profiles without a static Authorization header or bearer token."""
    if getattr(profile, "transport", "stdio") not in ("http", "sse") or getattr(profile, "bearer_token", None):
        return False
    return not any(key.lower() == "authorization" for key in (getattr(profile, "headers", None) or {}))
