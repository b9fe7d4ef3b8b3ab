"""Small media generators for the demo server: PNG images and WAV tones, stdlib only."""

import io
import math
import struct
import sys
import wave
import zlib
from array import array
from typing import Literal

Pattern = Literal["gradient", "rings", "checker"]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, payload: bytes) -> bytes:
    """One PNG chunk: length, type, payload, CRC over type + payload."""
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def encode_png(width: int, height: int, rgb_rows: list[bytes]) -> bytes:
    """Encode 8-bit RGB rows (``3 * width`` bytes each) as a PNG file."""
    if len(rgb_rows) != height or any(len(row) != 3 * width for row in rgb_rows):
        raise ValueError("rows do not match the image size")
    raw = b"".join(b"\x00" + row for row in rgb_rows)  # filter type 0 (None) on every scanline
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit truecolour, no interlace
    return (
        PNG_SIGNATURE
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(raw, 9))
        + _png_chunk(b"IEND", b"")
    )


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[float, float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


_TEAL = (20, 184, 166)
_INDIGO = (79, 70, 229)
_PINK = (236, 72, 153)


def _pixel(pattern: Pattern, u: float, v: float) -> tuple[float, float, float]:
    """Colour of the point (u, v) in [0, 1]² for the given pattern."""
    base = _mix(_mix(_TEAL, _INDIGO, u), _mix(_INDIGO, _PINK, u), v)
    dx, dy = u - 0.5, v - 0.5
    distance = math.hypot(dx, dy)
    if pattern == "gradient":
        glow = max(0.0, 1.0 - distance * 2.2) ** 2 * 0.55  # soft white highlight in the centre
        return tuple(c + (255 - c) * glow for c in base)  # type: ignore[return-value]
    if pattern == "rings":
        shade = 0.72 + 0.28 * math.cos(distance * 2 * math.pi * 6)
        return tuple(c * shade for c in base)  # type: ignore[return-value]
    dark = (int(u * 8) + int(v * 8)) % 2 == 0
    return tuple(c * (0.55 if dark else 1.0) for c in base)  # type: ignore[return-value]


def render_png(size: int = 64, pattern: Pattern = "gradient") -> bytes:
    """A ``size`` × ``size`` PNG of a colourful pattern."""
    if not 1 <= size <= 1024:
        raise ValueError("size must be between 1 and 1024")
    scale = max(size - 1, 1)
    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            r, g, b = _pixel(pattern, x / scale, y / scale)
            row += bytes((min(255, round(r)), min(255, round(g)), min(255, round(b))))
        rows.append(bytes(row))
    return encode_png(size, size, rows)


def render_tone(
    frequency: float = 440.0, duration: float = 1.0, sample_rate: int = 22050, volume: float = 0.5
) -> bytes:
    """A 16-bit mono WAV file holding a sine tone with short fades (no clicks)."""
    if duration <= 0 or sample_rate <= 0 or frequency <= 0:
        raise ValueError("frequency, duration and sample_rate must be positive")
    count = round(duration * sample_rate)
    fade = max(1, min(count // 2, sample_rate // 50))  # 20 ms
    amplitude = 32767 * max(0.0, min(volume, 1.0))
    step = 2 * math.pi * frequency / sample_rate
    samples = array("h", bytes(2 * count))
    for i in range(count):
        envelope = min(1.0, i / fade, (count - 1 - i) / fade)
        samples[i] = round(amplitude * envelope * math.sin(step * i))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(sample_rate)
        if sys.byteorder == "big":  # WAV samples are little-endian
            samples.byteswap()
        out.writeframes(samples.tobytes())
    return buffer.getvalue()
