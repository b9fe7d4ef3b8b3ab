"""Header redaction for the record. Secrets travel on the wire; they never enter the record."""

from __future__ import annotations

from collections.abc import Iterable

REDACTED = "[redacted]"
ALWAYS_SECRET = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"})
_SECRET_WORDS = ("token", "secret", "password", "api-key", "apikey", "auth")


def is_secret_header(name: str, extra: Iterable[str] = ()) -> bool:
    lowered = name.lower()
    if lowered in ALWAYS_SECRET or lowered in {e.lower() for e in extra}:
        return True
    return any(word in lowered for word in _SECRET_WORDS)


def redact_headers(headers: Iterable[tuple[str, str]], extra: Iterable[str] = ()) -> list[list[str]]:
    """Headers as ``[name, value]`` pairs in wire order, secret values replaced."""
    extra = tuple(extra)
    return [[name, REDACTED if is_secret_header(name, extra) else value] for name, value in headers]
