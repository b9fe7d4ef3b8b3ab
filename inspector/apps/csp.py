"""The content-security policy an MCP App runs under, built from its resource's `_meta.ui.csp`.

Nothing declared means no network at all (the extension's secure default): inline script and style,
images and media from `data:` / `blob:` only, no fetch, no frames. Declared origins open exactly their
directive: `connectDomains` → connect-src, `resourceDomains` → script/style/img/font/media-src,
`frameDomains` → frame-src, `baseUriDomains` → base-uri. An origin that is not a plain
`scheme://host[:port]` (with an optional `*.` subdomain wildcard) is dropped, so a server cannot
smuggle a directive in through it.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

KINDS = {"connect": "connectDomains", "resource": "resourceDomains", "frame": "frameDomains", "base": "baseUriDomains"}
"""What a request is for (the request interceptor's word) → the `_meta.ui.csp` key that allows it."""

ORIGIN = re.compile(r"^(https?|wss?)://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?/?$")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
NONE, SELF, INLINE = "'none'", "'self'", "'unsafe-inline'"
LOCAL_SCHEMES = ("data", "blob")  # inline content the default policy allows for resources


def declared(csp_meta: Any, kind: str) -> list[str]:
    """The well-formed origins `csp_meta` declares for `kind` ("connect", "resource", "frame", "base")."""
    values = csp_meta.get(KINDS[kind]) if isinstance(csp_meta, dict) else None
    if not isinstance(values, list):
        return []
    return [v.rstrip("/") for v in values if isinstance(v, str) and ORIGIN.match(v)]


def findings(csp_meta: Any) -> list[str]:
    """What in `csp_meta` was ignored, in words."""
    if csp_meta is None:
        return []
    if not isinstance(csp_meta, dict):
        return ["_meta.ui.csp is not an object; nothing allowed"]
    found: list[str] = []
    for key in KINDS.values():
        values = csp_meta.get(key)
        if values is None:
            continue
        if not isinstance(values, list):
            found.append(f"_meta.ui.csp.{key} is not a list; ignored")
            continue
        for value in values:
            if not (isinstance(value, str) and ORIGIN.match(value)):
                found.append(f"_meta.ui.csp.{key}: {value!r} is not an origin; ignored")
    return found


def policy(csp_meta: Any) -> str:
    """The Content-Security-Policy header value for the app."""
    connect = declared(csp_meta, "connect")
    resource = declared(csp_meta, "resource")
    frame = declared(csp_meta, "frame")
    base = declared(csp_meta, "base")

    def sources(*items: str) -> str:
        return " ".join(items) if items else NONE

    directives = [
        "default-src 'none'",
        f"script-src {sources(INLINE, *resource)}",
        f"style-src {sources(INLINE, *resource)}",
        f"img-src {sources('data:', 'blob:', *resource)}",
        f"font-src {sources('data:', *resource)}",
        f"media-src {sources('data:', 'blob:', *resource)}",
        f"connect-src {sources(*connect)}",
        f"frame-src {sources(*frame)}",
        f"base-uri {sources(*base) if base else SELF}",
        "form-action 'none'",
        "object-src 'none'",
    ]
    return "; ".join(directives)


def _matches(url: str, origin: str) -> bool:
    want = urlsplit(origin)
    got = urlsplit(url)
    if got.scheme.lower() != want.scheme.lower() or not got.hostname or not want.hostname:
        return False
    try:
        got_port = got.port or DEFAULT_PORTS.get(got.scheme.lower())
    except ValueError:
        return False
    want_port = want.port or DEFAULT_PORTS.get(want.scheme.lower())
    if got_port != want_port:
        return False
    host, pattern = got.hostname.lower(), want.hostname.lower()
    if pattern.startswith("*."):
        return host.endswith(pattern[1:]) and host != pattern[2:]
    return host == pattern


def allowed(url: str, csp_meta: Any, kind: str) -> bool:
    """Whether the app may load `url` for `kind` under its policy (for the view's request interceptor);
    `data:` and `blob:` are allowed for resources, everything else must match a declared origin."""
    scheme = urlsplit(url).scheme.lower()
    if kind == "resource" and scheme in LOCAL_SCHEMES:
        return True
    return any(_matches(url, origin) for origin in declared(csp_meta, kind))


LABELS = {
    "connect": "Connects to",
    "resource": "Loads resources from",
    "frame": "Frames",
    "base": "Base URI",
}


def summary(csp_meta: Any) -> str:
    """The policy for the user, plain text: "Network: none", or one line per kind of access."""
    lines = [f"{LABELS[kind]}: {', '.join(origins)}" for kind in KINDS if (origins := declared(csp_meta, kind))]
    return "\n".join(lines) if lines else "Network: none"
