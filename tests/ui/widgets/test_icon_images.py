"""Drawing a server's icons (issue 13 point 8): every image format the spec names, the pixel cap checked
before decoding, SVG only after sanitising, and what Qt's SVG renderer would do without it."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage

from inspector.core.icons import IconBytes, checked_bytes
from inspector.ui.widgets.icon_images import MAX_SIDE, image_from_bytes, raster_image, svg_image


@contextmanager
def probe() -> Iterator[tuple[str, list[str]]]:
    """A loopback http server recording every request."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", hits
    finally:
        server.shutdown()
        server.server_close()


# A 1×1 GIF whose one pixel is red (Qt reads GIF but does not write it).
RED_GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\x00\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
RED = (255, 0, 0)


def encoded(fmt: str, side: int = 8, rgb: tuple[int, int, int] = RED) -> bytes:
    if fmt == "GIF":
        return RED_GIF
    image = QImage(side, side, QImage.Format.Format_RGB32)
    image.fill(QColor(*rgb))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, fmt), fmt
    return bytes(buffer.data())


def centre(image: QImage | None) -> QColor | None:
    return None if image is None else image.pixelColor(image.width() // 2, image.height() // 2).toRgb()


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "WEBP"])
def test_every_raster_format_draws_at_the_asked_size(qapp, fmt: str) -> None:
    icon = checked_bytes(encoded(fmt, 40))
    assert icon.kind == fmt.lower()
    image = image_from_bytes(icon, 16)
    assert image is not None and image.width() == 16
    colour = centre(image)
    assert colour is not None and colour.red() > 200 and colour.green() < 60


def test_a_raster_larger_than_the_cap_is_not_decoded(qapp) -> None:
    assert raster_image(encoded("PNG", MAX_SIDE + 1), "png", 16) is None
    assert raster_image(encoded("PNG", MAX_SIDE), "png", 16) is not None


def test_a_png_whose_header_claims_a_huge_size_is_refused_before_decoding(qapp) -> None:
    data = bytearray(encoded("PNG", 8))
    data[16:24] = (100_000).to_bytes(4, "big") * 2  # IHDR width and height (the CRC no longer matches)
    assert raster_image(bytes(data), "png", 16) is None


def test_an_svg_draws_into_a_square_of_the_asked_size(qapp) -> None:
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00f"/></svg>'
    )
    image = image_from_bytes(IconBytes(svg, "svg"), 32)
    assert image is not None and (image.width(), image.height()) == (32, 32)
    assert centre(image) == QColor(0, 0, 255)


def test_a_hostile_svg_draws_without_any_request_or_file_read(qapp, tmp_path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(encoded("PNG", 16, RED))
    with probe() as (url, hits):
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1e9"'
            f' height="1e9" viewBox="0 0 16 16" onload="fetch(\'{url}onload\')"><script>fetch("{url}s")</script>'
            f'<style>@import url({url}i.css);</style><rect width="16" height="16" fill="#0f0"/>'
            f'<image xlink:href="{url}a.png" width="16" height="16"/><use xlink:href="{url}u.svg#x"/>'
            f'<image href="{secret}" width="16" height="16"/>'
            f'<foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="{url}f.png"/></foreignObject></svg>'
        ).encode()
        image = svg_image(svg, 16)
        assert centre(image) == QColor(0, 255, 0)  # the file's red never reached the drawing

        # Without the sanitiser Qt's renderer fetches nothing over http, but it does read a local file path:
        from PySide6.QtGui import QPainter
        from PySide6.QtSvg import QSvgRenderer

        raw = QImage(16, 16, QImage.Format.Format_ARGB32)
        raw.fill(0)
        painter = QPainter(raw)
        QSvgRenderer(QByteArray(svg)).render(painter)
        painter.end()
        assert centre(raw) == QColor(255, 0, 0)
        assert hits == []


def test_svgs_that_are_refused_draw_nothing(qapp) -> None:
    assert svg_image(b'<!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg"/>', 16) is None
    assert svg_image(b"<svg><broken></svg>", 16) is None
    assert image_from_bytes(IconBytes(b"\x89PNG\r\n\x1a\nnot really", "png"), 16) is None
