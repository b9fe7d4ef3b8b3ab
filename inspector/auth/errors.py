"""Errors of the OAuth sign-in; each is a `LensError` so the CLI maps it to an exit code."""

from __future__ import annotations

from inspector.core.errors import LensError


class AuthError(LensError):
    """The OAuth flow failed; the message says at which step."""

    exit_code = 11  # 8–10 are `mcp-lens tokens` gates
    kind = "auth"


class AuthRequired(AuthError):
    """The server needs a browser sign-in and this run may not open one (`--stored-auth-only`)."""

    kind = "auth-required"


class AuthCancelled(AuthError):
    kind = "auth-cancelled"


class AuthDenied(AuthError):
    kind = "auth-denied"


class AuthTimedOut(AuthError):
    kind = "auth-timeout"


class UnsafeURL(AuthError):
    """A URL we refuse to open in the browser (anything but http/https)."""

    kind = "unsafe-url"
