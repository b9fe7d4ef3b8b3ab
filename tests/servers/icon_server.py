"""An MCP server on stdio whose server info, tools, resources, templates and prompts carry icons.

``python icon_server.py [PROBE_URL]``. PROBE_URL (a loopback http server the test watches) is where
the hostile SVG's external references and the plain-http icon point: nothing may ever reach it.
Tools: ``red_png`` (a data: PNG, opaque red), ``blue_svg`` (a data: SVG, blue), ``hostile_svg`` (script,
onload, external hrefs, a local file path, absurd dimensions; it still draws green), ``remote_icon``
(an https icon on ``icons.invalid``, fetched only once allowed), ``plain_http`` (an http icon, never
fetched), ``no_icon``.
"""

from __future__ import annotations

import base64
import struct
import sys
import zlib
from urllib.parse import quote

from mcp.server.mcpserver import MCPServer
from mcp_types import Icon

PROBE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:9/"
REMOTE = "https://icons.invalid/remote.png"


def png(side: int, rgba: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + rgba * side for _ in range(side))
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def icon(src: str, mime: str | None = None, sizes: list[str] | None = None) -> Icon:
    return Icon.model_validate({"src": src, "mimeType": mime, "sizes": sizes})


RED_PNG = "data:image/png;base64," + base64.b64encode(png(16, b"\xff\x00\x00\xff")).decode()
BLUE_SVG = "data:image/svg+xml," + quote(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#0000ff"/></svg>'
)
HOSTILE = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="99999999"'
    f' height="99999999" viewBox="0 0 16 16" onload="fetch(\'{PROBE}onload\')">'
    f"<script>fetch('{PROBE}script')</script>"
    f"<style>@import url({PROBE}import.css);</style>"
    '<rect width="16" height="16" fill="#00ff00"/>'
    f'<image xlink:href="{PROBE}image.png" width="16" height="16"/>'
    f'<image href="{PROBE}image2.png" width="16" height="16"/>'
    '<image href="/etc/hostname" width="16" height="16"/>'
    f'<use xlink:href="{PROBE}sprite.svg#a"/>'
    f'<circle r="4" fill="url({PROBE}paint.svg#p)"/>'
    f'<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="{PROBE}iframe"/></foreignObject>'
    "</svg>"
)
HOSTILE_SVG = "data:image/svg+xml;base64," + base64.b64encode(HOSTILE.encode()).decode()

mcp = MCPServer("icon-server", version="1.0", icons=[icon(BLUE_SVG, "image/svg+xml", ["any"])])


@mcp.tool(icons=[icon(RED_PNG, "image/png", ["16x16"])])
def red_png() -> str:
    """A tool with an embedded PNG icon."""
    return "red"


@mcp.tool(icons=[icon(BLUE_SVG, "image/svg+xml", ["any"])])
def blue_svg() -> str:
    """A tool with an embedded SVG icon."""
    return "blue"


@mcp.tool(icons=[icon(HOSTILE_SVG, "image/svg+xml", ["any"]), icon(f"{PROBE}fallback.png", "image/png")])
def hostile_svg() -> str:
    """A tool whose SVG icon tries to run scripts and load external references."""
    return "green"


@mcp.tool(icons=[icon(REMOTE, "image/png", ["16x16"])])
def remote_icon() -> str:
    """A tool whose icon is on the web."""
    return "remote"


@mcp.tool(icons=[icon(f"{PROBE}plain.png", "image/png")])
def plain_http() -> str:
    """A tool whose icon is a plain http URL (never fetched)."""
    return "http"


@mcp.tool()
def no_icon() -> str:
    """A tool without an icon."""
    return "none"


@mcp.resource("icons://red", name="red_resource", icons=[icon(RED_PNG, "image/png")])
def red_resource() -> str:
    return "a red resource"


@mcp.resource("icons://shade/{name}", name="shade_template", icons=[icon(BLUE_SVG, "image/svg+xml")])
def shade(name: str) -> str:
    return f"shade {name}"


@mcp.prompt(icons=[icon(RED_PNG, "image/png")])
def red_prompt() -> str:
    """A prompt with an icon."""
    return "Say red."


if __name__ == "__main__":
    mcp.run()
