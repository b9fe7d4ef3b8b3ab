"""packaging/make_icons.py: PNG sizes, .ico and .icns rendered from the SVG, readable by Qt's own readers."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

from lens_support import REPO

SCRIPT = REPO / "packaging" / "make_icons.py"


def test_icons_from_the_svg(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    from PySide6.QtGui import QImage

    for size in (16, 32, 48, 256, 512):
        image = QImage(str(tmp_path / "png" / f"mcp-lens-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel() and image.pixelColor(0, 0).alpha() == 0  # rounded corner: transparent
        assert image.pixelColor(size // 2, size // 2).alpha() == 255

    ico = (tmp_path / "mcp-lens.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind, count) == (0, 1, 7)
    sides = []
    for n in range(count):
        width, _h, _c, _r, _planes, _bpp, size, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * n)
        assert ico[offset : offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + size <= len(ico)
        sides.append(width or 256)
    assert sides == [16, 24, 32, 48, 64, 128, 256]
    assert not QImage(str(tmp_path / "mcp-lens.ico")).isNull()  # Qt's ico plugin reads it

    icns = (tmp_path / "mcp-lens.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack_from(">I", icns, 4)[0] == len(icns)
    kinds, pos = [], 8
    while pos < len(icns):
        kind, length = icns[pos : pos + 4].decode(), struct.unpack_from(">I", icns, pos + 4)[0]
        assert icns[pos + 8 : pos + 16] == b"\x89PNG\r\n\x1a\n"
        kinds.append(kind)
        pos += length
    assert pos == len(icns) and {"ic07", "ic08", "ic09", "ic10", "icp4"} <= set(kinds)
    assert not QImage(str(tmp_path / "mcp-lens.icns")).isNull()  # Qt's icns plugin reads it
