"""Render the SVG app icon to PNG sizes, a Windows ``.ico`` and a macOS ``.icns`` (build time only).

    python packaging/make_icons.py [OUT_DIR]      # default: build/icons

Writes ``png/mcp-lens-<N>.png`` for N in SIZES, ``mcp-lens.ico`` (PNG-compressed entries, 16–256) and
``mcp-lens.icns`` (PNG entries, 16–1024). Qt's SVG renderer draws every size from the vector source;
both container formats are small enough to write directly.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "mcp-lens.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# OSType → pixel size of the PNG it holds (Apple's icns types that accept PNG data).
ICNS_TYPES = (
    ("icp4", 16),
    ("icp5", 32),
    ("icp6", 64),
    ("ic07", 128),
    ("ic08", 256),
    ("ic09", 512),
    ("ic10", 1024),
    ("ic11", 32),
    ("ic12", 64),
    ("ic13", 256),
    ("ic14", 512),
)


def render_pngs(svg: Path, sizes: tuple[int, ...]) -> dict[int, bytes]:
    """PNG bytes of the SVG drawn at each size (square, transparent background)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {svg} is not a valid SVG")
    out: dict[int, bytes] = {}
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        buffer.close()
        out[size] = bytes(data)
    return out


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file: ICONDIR, one ICONDIRENTRY per size, then the PNG images (Vista+ reads PNG entries)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, images = b"", b""
    for size in sizes:
        data = pngs[size]
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(data), offset)
        images += data
        offset += len(data)
    return header + entries + images


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICNS file: the 'icns' header, then (type, length, PNG) records; lengths include the 8-byte head."""
    body = b"".join(
        kind.encode("ascii") + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "build" / "icons"
    (out / "png").mkdir(parents=True, exist_ok=True)
    pngs = render_pngs(SVG, SIZES)
    for size, data in pngs.items():
        (out / "png" / f"mcp-lens-{size}.png").write_bytes(data)
    (out / "mcp-lens.ico").write_bytes(ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    (out / "mcp-lens.icns").write_bytes(icns_bytes(pngs))
    print(f"make_icons: {len(pngs)} PNG sizes, mcp-lens.ico and mcp-lens.icns in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
