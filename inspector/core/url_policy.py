"""Which URLs a server may ask us to open (URL-mode elicitation, authorization pages): a pure check.

Only absolute `http`/`https` URLs with a host are opened. Everything else (`javascript:`, `file:`,
`data:`, custom schemes, relative or malformed URLs) is refused with a reason the user can read.
Allowed URLs can still carry warnings worth showing before the user agrees: credentials before the
host (the `https://bank.example@evil.example` trick), a non-ASCII or punycode host, plain http.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import SplitResult, urlsplit

ALLOWED_SCHEMES = ("http", "https")
MAX_URL_LENGTH = 8192


@dataclass(frozen=True)
class UrlVerdict:
    url: str
    allowed: bool
    reason: str  # why it was refused; "" when allowed
    host: str = ""
    warnings: tuple[str, ...] = field(default=())


def _refuse(url: str, reason: str) -> UrlVerdict:
    return UrlVerdict(url=url, allowed=False, reason=reason)


def check_url(url: object) -> UrlVerdict:
    """Decide whether `url` may be opened in the system browser."""
    if not isinstance(url, str):
        return _refuse(repr(url), "no URL was given" if url is None else "the URL is not text")
    if not url:
        return _refuse(url, "no URL was given")
    if len(url) > MAX_URL_LENGTH:
        return _refuse(url, f"the URL is {len(url)} characters long (more than {MAX_URL_LENGTH})")
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in url):
        return _refuse(url, "the URL contains spaces or control characters, which can hide its real target")
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError as exc:
        return _refuse(url, f"the URL is malformed: {exc}")
    scheme = parts.scheme.lower()
    if not scheme:
        return _refuse(url, "the URL has no scheme; only http:// and https:// links are opened")
    if scheme not in ALLOWED_SCHEMES:
        return _refuse(url, f"'{scheme}:' links are never opened; only http:// and https:// links are")
    if not host:
        return _refuse(url, "the URL has no host name")
    return UrlVerdict(url=url, allowed=True, reason="", host=host, warnings=tuple(_warnings(parts, host)))


def _warnings(parts: SplitResult, host: str) -> list[str]:
    found: list[str] = []
    if "@" in parts.netloc:
        found.append(f"the URL has a user name before the host; the page really is on {host}")
    if not host.isascii() or any(label.startswith("xn--") for label in host.split(".")):
        found.append(f"the host name {host} uses international characters; check it is the site you expect")
    if parts.scheme.lower() == "http" and not _is_loopback(host):
        found.append("the link is plain http: what you type there is not encrypted")
    return found


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
