"""Icons a server sends (2025-11-25 and later): on its server info, tools, resources, templates and prompts.

Everything here is untrusted input. `parse_icons` keeps the well-formed entries of an `icons` array,
`rank` orders them for a size and a theme, `decode_data_url` turns a `data:` image into bytes (capped,
its real format sniffed from the bytes, never taken from the declared type), and `remote_refusal`
says why a URL is never fetched (only https is, and only once the user allows it for that server).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

from inspector.core.public_address import literal_refusal

MAX_DECODED_BYTES = 256 * 1024  # a decoded icon larger than this is refused
MAX_SRC_CHARS = MAX_DECODED_BYTES * 3 + 1024  # percent-encoding takes up to three characters a byte
MAX_URL_CHARS = 2048
MAX_ICONS = 32  # entries read from one `icons` array
KINDS = ("png", "jpeg", "gif", "webp", "svg")  # what we render
_SIZE = re.compile(r"^\s*(\d{1,5})\s*[xX]\s*(\d{1,5})\s*$")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")


class IconRefused(ValueError):
    """An icon we will not show; the message says why in words."""


@dataclass(frozen=True, slots=True)
class Icon:
    """One entry of an `icons` array."""

    src: str
    mime_type: str | None = None
    sizes: tuple[str, ...] = ()
    theme: str | None = None

    @property
    def scheme(self) -> str:
        at = self.src.find(":")  # not partition: that copies the rest (a 20 MB data: URL, on every rank)
        head = self.src[:at] if at > 0 else ""
        return head.lower() if _SCHEME.fullmatch(head) else ""

    def sides(self) -> list[int]:
        """The larger side of each `WxH` size (garbage entries are ignored)."""
        return [max(int(m[1]), int(m[2])) for s in self.sizes if (m := _SIZE.match(s))]

    def scalable(self) -> bool:
        return any(s.strip().lower() == "any" for s in self.sizes) or "svg" in (self.mime_type or "").lower()


@dataclass(frozen=True, slots=True)
class IconBytes:
    """An image's bytes and its format as sniffed from them (one of `KINDS`)."""

    data: bytes
    kind: str


def parse_icons(value: Any) -> list[Icon]:
    """The usable entries of an `icons` value: objects with a string `src` (others are skipped)."""
    if not isinstance(value, list):
        return []
    icons = []
    for entry in value[:MAX_ICONS]:
        if not isinstance(entry, dict) or not isinstance(entry.get("src"), str) or not entry["src"].strip():
            continue
        sizes = entry.get("sizes")
        mime = entry.get("mimeType")
        theme = entry.get("theme")
        icons.append(
            Icon(
                src=entry["src"].strip(),
                mime_type=mime if isinstance(mime, str) else None,
                sizes=tuple(s for s in sizes if isinstance(s, str))[:16] if isinstance(sizes, list) else (),
                theme=theme if theme in ("light", "dark") else None,
            )
        )
    return icons


def icons_of(item: Any) -> list[Icon]:
    """The icons of a tool, resource, template, prompt or server info dict."""
    return parse_icons(item.get("icons")) if isinstance(item, dict) else []


def rank(icons: Iterable[Icon], *, size: int, theme: str | None = None) -> list[Icon]:
    """Icons we might show at `size` pixels, best first: `data:` and `https:` only; the requested theme (or
    none) before the other; scalable or the smallest size at least `size`, then the largest smaller one;
    embedded before remote at equal fit."""

    def fit(icon: Icon) -> tuple[int, int, int]:
        theme_miss = 1 if theme and icon.theme and icon.theme != theme else 0
        sides = icon.sides()
        if icon.scalable() or not sides:
            size_cost = 0 if icon.scalable() else 1  # unknown size: usable, after a known good one
        else:
            bigger = [s for s in sides if s >= size]
            size_cost = (min(bigger) - size) // 8 if bigger else 10_000 + size - max(sides)
        return theme_miss, size_cost, 0 if icon.scheme == "data" else 1

    return sorted((i for i in icons if i.scheme in ("data", "https")), key=fit)


def sniff(data: bytes) -> str | None:
    """The image format the bytes really are (one of `KINDS`), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<?xml", b"<svg", b"<!--")) and b"<svg" in data[:4096].lower():
        return "svg"
    return None


def decode_data_url(src: str) -> IconBytes:
    """The image in a `data:` URL (base64 or percent-encoded); `IconRefused` when it is not one we render,
    is malformed, or decodes to more than `MAX_DECODED_BYTES`."""
    if not src[:5].lower() == "data:":
        raise IconRefused("not a data: URL")
    if len(src) > MAX_SRC_CHARS:
        raise IconRefused(f"the embedded image is larger than {MAX_DECODED_BYTES // 1024} KB")
    header, sep, payload = src[5:].partition(",")
    if not sep:
        raise IconRefused("the data: URL has no ',' before its data")
    params = [p.strip().lower() for p in header.split(";")]
    declared = params[0] or "text/plain"
    if not declared.startswith("image/"):
        raise IconRefused(f"the data: URL is {declared}, not an image")
    try:
        if "base64" in params[1:]:
            compact = re.sub(r"\s+", "", unquote_to_bytes(payload).decode("ascii"))
            data = base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)
        else:
            data = unquote_to_bytes(payload)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise IconRefused(f"the data: URL does not decode: {exc}") from None
    return checked_bytes(data)


def checked_bytes(data: bytes) -> IconBytes:
    """`data` as an image we render, by its sniffed format; `IconRefused` if too large or not an image."""
    if len(data) > MAX_DECODED_BYTES:
        raise IconRefused(f"the image is {len(data) // 1024} KB (more than {MAX_DECODED_BYTES // 1024} KB)")
    kind = sniff(data)
    if kind is None:
        raise IconRefused("the bytes are not a PNG, JPEG, GIF, WebP or SVG image")
    return IconBytes(data, kind)


def remote_refusal(src: str) -> str:
    """Why the icon URL `src` is never fetched ("" when it may be, once the user allows it)."""
    if len(src) > MAX_URL_CHARS:
        return f"the URL is longer than {MAX_URL_CHARS} characters"
    if any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in src):
        return "the URL contains spaces or control characters"
    try:
        parts = urlsplit(src)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError as exc:
        return f"the URL is malformed: {exc}"
    if parts.scheme.lower() != "https":
        scheme = parts.scheme.lower() or "no scheme"
        return f"'{scheme}' icon URLs are never fetched; only https ones are, and only if you allow it"
    if not host:
        return "the URL has no host name"
    if "@" in parts.netloc:
        return "the URL carries a user name or password"
    return ""


def remote_host(src: str) -> str | None:
    """The host of an https icon URL we could fetch, else None."""
    return None if remote_refusal(src) else (urlsplit(src).hostname or None)


def remote_hosts(items: Iterable[Any]) -> list[str]:
    """The hosts of the fetchable https icons of `items` (dicts with `icons`) that may be offered (not
    loopback or private by their form: `never_fetched`), sorted, each once."""
    hosts = {host for item in items for icon in icons_of(item) if (host := remote_host(icon.src))}
    return sorted(host for host in hosts if not literal_refusal(host))


def never_fetched(items: Iterable[Any]) -> list[str]:
    """One word per https icon of `items` whose host is never contacted by its form alone: its kind of
    address ("loopback", "private", …)."""
    hosts = (remote_host(icon.src) for item in items for icon in icons_of(item))
    return [kind for host in hosts if host and (kind := literal_refusal(host))]
