"""Server icons in the core (issue 13 point 8): parsing, ranking, `data:` decoding, the SVG sanitiser and
the remote policy. The fetch path runs with an injected httpx2 transport (loopback TLS is not set up
here); the refusal of plain http is checked against a real loopback server that must see no request."""

from __future__ import annotations

import asyncio
import base64
import http.server
import struct
import threading
import tracemalloc
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import httpx2
import pytest

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.core.icon_fetch import RemoteIcons, fetch_icon
from inspector.core.icon_svg import sanitize_svg
from inspector.core.icons import (
    MAX_DECODED_BYTES,
    Icon,
    IconBytes,
    IconRefused,
    decode_data_url,
    icons_of,
    parse_icons,
    rank,
    remote_hosts,
    remote_refusal,
)


def png(width: int = 1, height: int = 1) -> bytes:
    """A valid RGBA PNG of the given size (opaque red)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


@contextmanager
def loopback_http() -> Iterator[tuple[int, list[str]]]:
    """A plain HTTP server on 127.0.0.1 that records every request path."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = png()
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


# -- parsing and ranking -----------------------------------------------------------------------


def test_parse_keeps_well_formed_entries_and_skips_the_rest() -> None:
    icons = parse_icons(
        [
            {"src": "https://a.example/i.png", "mimeType": "image/png", "sizes": ["48x48", 7], "theme": "dark"},
            {"src": 42},
            "not an object",
            {"src": "   "},
            {"src": "data:image/png;base64,AAAA", "theme": "purple"},
        ]
    )
    assert icons == [
        Icon("https://a.example/i.png", "image/png", ("48x48",), "dark"),
        Icon("data:image/png;base64,AAAA", None, (), None),
    ]
    assert parse_icons({"src": "x"}) == [] and icons_of("nope") == [] and icons_of({"icons": None}) == []


def test_rank_prefers_the_theme_then_the_closest_size_at_least_asked_and_drops_other_schemes() -> None:
    small = Icon("https://h.example/16.png", sizes=("16x16",))
    big = Icon("https://h.example/256.png", sizes=("256x256",))
    mid = Icon("https://h.example/32.png", sizes=("32x32",))
    dark = Icon("https://h.example/dark.png", sizes=("32x32",), theme="dark")
    plain_http = Icon("http://h.example/i.png")
    script = Icon("javascript:alert(1)")
    ranked = rank([big, small, plain_http, dark, mid, script], size=20, theme="light")
    assert ranked == [mid, big, small, dark]
    assert rank([dark, mid], size=20, theme="dark")[0] in (dark, mid)
    svg = Icon("data:image/svg+xml,<svg/>", mime_type="image/svg+xml", sizes=("any",))
    assert rank([big, svg], size=16)[0] == svg


def test_a_huge_data_icon_is_ranked_and_refused_without_a_copy_of_it() -> None:
    """A 20 MB `data:` icon was copied whole each time its scheme was read (`str.partition`): in every rank
    for every list row, header and side (issue 21 point 4, a 20 MB transient each time)."""
    src = "data:image/png;base64," + "iVBORw0KGgo" * 900_000  # ~10 MB
    items = [{"name": "big", "icons": [{"src": src}]}]
    tracemalloc.start()
    try:
        icons = icons_of(items[0])
        ranked = rank(icons, size=18)
        with pytest.raises(IconRefused, match="larger than"):
            decode_data_url(ranked[0].src)
        assert remote_hosts(items) == [] and icons[0].scheme == "data"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert ranked[0].src is src
    assert peak < len(src) / 10, f"ranking a {len(src) / 2**20:.0f} MB icon peaked at {peak / 2**20:.1f} MB"
    assert [Icon(s).scheme for s in ("HTTPS://a", "data:,", "no scheme", ":x", "1x:y", "a b:c")] == [
        "https",
        "data",
        "",
        "",
        "",
        "",
    ]


def test_remote_hosts_lists_each_fetchable_host_once() -> None:
    items = [
        {"icons": [{"src": "https://cdn.example/a.png"}, {"src": "http://plain.example/b.png"}]},
        {"icons": [{"src": "https://cdn.example/c.png"}, {"src": "https://other.example/d.svg"}]},
        {"icons": [{"src": data_url(png())}]},
        {"name": "no icons"},
    ]
    assert remote_hosts(items) == ["cdn.example", "other.example"]


# -- data: URLs ------------------------------------------------------------------------------


def test_a_data_png_decodes_to_its_bytes() -> None:
    assert decode_data_url(data_url(png(4, 4))) == IconBytes(png(4, 4), "png")


def test_a_percent_encoded_svg_decodes_and_the_format_is_sniffed_not_declared() -> None:
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>'
    assert decode_data_url("data:image/svg+xml," + quote(svg)).kind == "svg"
    assert decode_data_url(data_url(svg, "image/png")).kind == "svg"  # says png, is svg: treated as svg


@pytest.mark.parametrize(
    ("src", "reason"),
    [
        ("data:text/html;base64,PHNjcmlwdD4=", "not an image"),
        ("data:image/png;base64,%%%not base64", "does not decode"),
        ("data:image/png;base64" + "AAAA", "no ','"),
        (data_url(b"MZ\x90\x00 an executable"), "not a PNG"),
        (data_url(b"\x89PNG\r\n\x1a\n" + bytes(MAX_DECODED_BYTES)), "KB"),
        ("https://example.com/i.png", "not a data: URL"),
    ],
)
def test_data_urls_that_are_not_images_we_render_are_refused_with_a_reason(src: str, reason: str) -> None:
    with pytest.raises(IconRefused, match=reason):
        decode_data_url(src)


# -- the SVG sanitiser -------------------------------------------------------------------------

HOSTILE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     width="100000000" height="100000000" onload="alert(1)" viewBox="0 0 16 16">
  <script>alert(document.cookie)</script>
  <style>@import url(https://evil.example/x.css); rect {{ fill: red }}</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="blue"/></linearGradient></defs>
  <rect width="16" height="16" fill="url(#g)" onclick="steal()"/>
  <circle r="3" style="fill: url(https://evil.example/f.svg#p)"/>
  <image xlink:href="{base}/image.png" width="16" height="16"/>
  <image href="/etc/passwd" width="4" height="4"/>
  <image href="file:///home/user/secret.png" width="4" height="4"/>
  <use xlink:href="{base}/sprite.svg#icon"/>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <a xlink:href="javascript:alert(1)"><text>click</text></a>
  <set attributeName="href" to="https://evil.example/"/>
</svg>"""


def test_the_sanitiser_keeps_the_drawing_and_strips_code_and_every_external_reference() -> None:
    clean = sanitize_svg(HOSTILE_SVG.format(base="https://evil.example").encode()).decode()
    root = ET.fromstring(clean)  # still a well-formed SVG document
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    for gone in ("script", "onload", "onclick", "alert", "@import", "evil.example", "/etc/passwd", "file:"):
        assert gone not in clean, gone
    for gone in ("foreignObject", "<set", "xhtml"):
        assert gone not in clean
    assert 'fill="url(#g)"' in clean and "<linearGradient" in clean and "<text>click</text>" in clean


def test_the_sanitiser_keeps_inline_raster_images_and_fragment_references() -> None:
    inline = data_url(png())
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
        f'<defs><circle id="c" r="2"/></defs><use xlink:href="#c"/><image href="{inline}"/></svg>'
    )
    clean = sanitize_svg(svg.encode()).decode()
    assert 'xlink:href="#c"' in clean and inline in clean
    nested = data_url(b"<svg/>", "image/svg+xml")  # an SVG inside an SVG would escape the sanitiser
    assert nested not in sanitize_svg(svg.replace(inline, nested).encode()).decode()


def test_nested_use_fan_out_is_cut() -> None:
    levels = ['<g id="l0"><rect width="1" height="1"/></g>']
    for n in range(1, 8):
        uses = "".join(f'<use href="#l{n - 1}"/>' for _ in range(10))
        levels.append(f'<g id="l{n}">{uses}</g>')
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{"".join(levels)}<use href="#l7"/></svg>'
    clean = sanitize_svg(svg.encode()).decode()
    assert clean.count("<use") == 10  # only the uses of the plain rectangle survive


@pytest.mark.parametrize(
    ("svg", "reason"),
    [
        (b'<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>', "DTD"),
        (b"<svg><unclosed></svg>", "does not parse"),
        (b"<html><body/></html>", "not an SVG"),
        (b"<svg>" + b"<g>" * 100 + b"</g>" * 100 + b"</svg>", "deeper"),
        (b"<svg>" + b"<rect/>" * 6000 + b"</svg>", "elements"),
    ],
)
def test_svgs_the_sanitiser_refuses(svg: bytes, reason: str) -> None:
    with pytest.raises(IconRefused, match=reason):
        sanitize_svg(svg)


# -- the remote policy and the fetch -----------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "refused"),
    [
        ("https://cdn.example/icon.png", ""),
        ("http://cdn.example/icon.png", "'http' icon URLs are never fetched"),
        ("ftp://cdn.example/icon.png", "'ftp'"),
        ("file:///etc/passwd", "'file'"),
        ("javascript:alert(1)", "'javascript'"),
        ("https://user:pw@cdn.example/i.png", "user name"),
        ("https:///no-host.png", "no host"),
        ("https://cdn.example/a b.png", "spaces"),
    ],
)
def test_only_https_urls_with_a_host_may_be_fetched(src: str, refused: str) -> None:
    assert refused in remote_refusal(src) if refused else remote_refusal(src) == ""


def test_plain_http_is_refused_without_a_request() -> None:
    with loopback_http() as (port, hits):
        with pytest.raises(IconRefused, match="never fetched"):
            fetch_icon(f"http://127.0.0.1:{port}/icon.png")
        assert hits == []


def public(_host: str, _port: int) -> list[str]:
    """The name lookup for the injected transport's hosts: a public address."""
    return ["93.184.215.14"]


def serving(routes: dict[str, httpx2.Response]) -> tuple[httpx2.MockTransport, list[str]]:
    """An injected transport answering from `routes` (URL → response) and recording each URL asked for."""
    asked: list[str] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        asked.append(str(request.url))
        return routes.get(str(request.url), httpx2.Response(404))

    return httpx2.MockTransport(handle), asked


def test_an_https_icon_is_fetched_and_sniffed() -> None:
    transport, asked = serving({"https://cdn.example/i.png": httpx2.Response(200, content=png(2, 2))})
    assert fetch_icon("https://cdn.example/i.png", transport=transport, resolver=public) == IconBytes(png(2, 2), "png")
    assert asked == ["https://cdn.example/i.png"]


def test_a_redirect_to_http_is_not_followed() -> None:
    moved = httpx2.Response(302, headers={"Location": "http://cdn.example/i.png"})
    transport, asked = serving({"https://cdn.example/i.png": moved})
    with pytest.raises(IconRefused, match="never fetched"):
        fetch_icon("https://cdn.example/i.png", transport=transport, resolver=public)
    assert asked == ["https://cdn.example/i.png"]


def test_https_redirects_are_followed_a_few_times_only() -> None:
    hop = {f"https://h.example/{n}": httpx2.Response(301, headers={"Location": f"/{n + 1}"}) for n in range(9)}
    transport, asked = serving({**hop, "https://h.example/2": httpx2.Response(200, content=png())})
    assert fetch_icon("https://h.example/0", transport=transport, resolver=public).kind == "png"
    transport, asked = serving(hop)
    with pytest.raises(IconRefused, match="redirected more than 3 times"):
        fetch_icon("https://h.example/0", transport=transport, resolver=public)
    assert len(asked) == 4


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (httpx2.Response(200, content=b"\x89PNG\r\n\x1a\n" + bytes(300_000)), "292 KB \\(more than 256 KB"),
        (httpx2.Response(200, content=iter([bytes(65_536)] * 100)), "larger than 256 KB"),  # no length given
        (httpx2.Response(200, content=b"<html>not an image</html>"), "not a PNG"),
        (httpx2.Response(500), "HTTP 500"),
    ],
)
def test_remote_icons_that_are_refused(response: httpx2.Response, reason: str) -> None:
    transport, _ = serving({"https://cdn.example/i.png": response})
    with pytest.raises(IconRefused, match=reason):
        fetch_icon("https://cdn.example/i.png", transport=transport, resolver=public)


def test_the_session_cache_fetches_each_url_once_in_a_worker_thread() -> None:
    threads: list[str] = []

    def fetch(url: str) -> IconBytes:
        threads.append(threading.current_thread().name)
        if url.endswith("bad"):
            raise IconRefused("nope")
        return IconBytes(png(), "png")

    async def main() -> None:
        cache = RemoteIcons(fetch)
        first, second, bad = await asyncio.gather(
            cache.load("https://h.example/i"), cache.load("https://h.example/i"), cache.load("https://h.example/bad")
        )
        assert first == second == cache.get("https://h.example/i") == IconBytes(png(), "png")
        assert isinstance(bad, IconRefused) and cache.get("https://h.example/bad") is bad
        await cache.load("https://h.example/i")
        assert cache.fetched == ["https://h.example/i", "https://h.example/bad"]

    asyncio.run(main())
    assert len(threads) == 2 and threading.main_thread().name not in threads


def test_the_permission_is_remembered_in_the_profile_file(tmp_path) -> None:
    store = ProfileStore(tmp_path / "servers.json")
    store.load()
    store.add(ServerProfile(name="web", transport="http", url="https://mcp.example/mcp")).load_remote_icons = True
    store.add(ServerProfile(name="local", command="srv"))
    store.save()
    again = ProfileStore(tmp_path / "servers.json")
    again.load()
    assert again.get("web").load_remote_icons is True and again.get("local").load_remote_icons is False
