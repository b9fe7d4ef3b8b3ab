"""Opening the authorization URL: only http/https, and only after the user saw it."""

from __future__ import annotations

from urllib.parse import urlsplit

from inspector.auth.errors import AuthError, UnsafeURL


def check_browser_url(url: str) -> str:
    """Return `url` if it is an absolute http(s) URL with a host; raise `UnsafeURL` otherwise."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise UnsafeURL(
            f"refusing to open {url[:200]!r}: only http:// and https:// URLs are opened in the browser",
            hint="The authorization server advertised an authorization endpoint that is not a web page.",
        )
    return url.strip()


def open_in_browser(url: str) -> None:
    """Open `url` in the system browser after `check_browser_url`; raise if no browser could open it."""
    import webbrowser

    checked = check_browser_url(url)
    if not webbrowser.open(checked):
        raise AuthError(
            "no web browser could be started",
            hint="Copy the authorization URL into a browser yourself.",
        )
