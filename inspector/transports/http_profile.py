"""What an HTTP profile's URL and headers mean on the wire, for both HTTP clients (the SDK's through
`http.py`, the CLI's lean one through `http_pipes.py`). Pure: no HTTP client import."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from inspector.config.redact import is_secret_header, redact_value

USERINFO_DROPPED = (
    "the URL's user:password is not sent: the configured Authorization header is used instead "
    "(httpx would replace it with Basic auth from the URL)"
)


def without_overridden_userinfo(url: str, headers: dict[str, str]) -> str | None:
    """`url` without its ``user:password@`` when `headers` configure an Authorization header (the user's
    header wins: httpx would replace it with Basic auth from the URL); None when nothing is dropped."""
    if not any(name.lower() == "authorization" for name in headers):
        return None
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    if not sep or "@" not in authority:
        return None
    return f"{scheme}://{authority.rpartition('@')[2]}{slash}{path}"


class HttpSecrets(NamedTuple):
    """What `profile_secrets` reads of an HTTP profile."""

    url: str
    headers: dict[str, str]
    secret_headers: tuple[str, ...]
    secret_values: tuple[str, ...]


def redact_headers(headers: Iterable[tuple[str, str]], extra: Iterable[str] = ()) -> list[list[str]]:
    """Headers as ``[name, value]`` pairs in wire order, secret values replaced (the wire keeps them)."""
    extra = tuple(extra)
    return [[name, redact_value(value) if is_secret_header(name, extra) else value] for name, value in headers]
