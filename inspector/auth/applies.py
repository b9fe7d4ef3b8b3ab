"""Whether OAuth applies to a profile, and whether its stack must load now. Light on purpose: the main
window imports it before it is shown, and the CLI decides with it before importing the SDK's OAuth code."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any

OAUTH_SETTINGS = (
    "oauth_client_id",
    "oauth_client_secret",
    "oauth_scopes",
    "oauth_grant",
    "oauth_private_key_file",
    "oauth_assertion_file",
    "oauth_assertion_env",
    "oauth_idp_token_endpoint",
    "oauth_idp_issuer",
    "oauth_idp_client_id",
    "oauth_idp_client_secret",
    "oauth_issuer",
    "oauth_dpop",
)


def wants_oauth(profile: Any) -> bool:
    """HTTP/SSE profiles without a static Authorization header or bearer token."""
    if getattr(profile, "transport", "stdio") not in ("http", "sse") or getattr(profile, "bearer_token", None):
        return False
    return not any(key.lower() == "authorization" for key in (getattr(profile, "headers", None) or {}))


def record_key(server_url: str) -> str:
    """A stable file-name-safe key for a server URL (the URL itself is stored inside the record)."""
    return hashlib.sha256(server_url.strip().encode()).hexdigest()[:32]


def default_auth_dir(environ: Mapping[str, str] | None = None) -> Path:
    """`auth/` beside the profiles file: `$XDG_CONFIG_HOME/mcp-lens/auth` (or the platform's config folder)."""
    from inspector.config.store import default_path

    return default_path(environ=environ).parent / "auth"


def keyring_may_hold() -> bool:
    """Whether `storage.open_backend` may pick the OS keyring (it is installed and not turned off)."""
    return os.environ.get("MCP_LENS_NO_KEYRING") != "1" and find_spec("keyring") is not None


def oauth_from_the_start(profile: Any) -> bool:
    """Whether a connection needs the OAuth provider from its first request: the profile has an OAuth
    setting, or credentials may be stored for its URL (a record file, or a keyring we cannot ask cheaply).
    Otherwise the provider loads only when the server answers 401."""
    if any(getattr(profile, name, None) for name in OAUTH_SETTINGS):
        return True
    if keyring_may_hold():
        return True
    return (default_auth_dir() / f"{record_key(profile.url)}.json").exists()
