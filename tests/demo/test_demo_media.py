"""In-process checks of the demo's media generators, CLI parsing and import hygiene."""

import io
import os
import struct
import subprocess
import sys
import wave
import zlib
from itertools import pairwise

import pytest
from demo_support import DEMO_ENV, REPO_ROOT

from inspector.demo import media
from inspector.demo.server import main


def png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """Split a PNG into (type, payload) chunks, checking every CRC."""
    assert png.startswith(media.PNG_SIGNATURE)
    chunks, offset = [], len(media.PNG_SIGNATURE)
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, payload = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + payload), kind
        chunks.append((kind, payload))
        offset += 12 + length
    return chunks


@pytest.mark.parametrize("pattern", ["gradient", "rings", "checker"])
def test_png_is_well_formed_and_colourful(pattern: media.Pattern) -> None:
    chunks = png_chunks(media.render_png(64, pattern))
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (width, height, depth, colour) == (64, 64, 8, 2)
    raw = zlib.decompress(chunks[1][1])
    assert len(raw) == 64 * (1 + 64 * 3)
    pixels = {raw[i : i + 3] for row in range(64) for i in range(row * 193 + 1, row * 193 + 193, 3)}
    assert len(pixels) > 50  # a pattern, not a flat colour


def test_png_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError):
        media.render_png(0)
    with pytest.raises(ValueError):
        media.encode_png(2, 2, [b"\x00" * 6])


def test_tone_is_a_16_bit_mono_wav_of_the_requested_length() -> None:
    with wave.open(io.BytesIO(media.render_tone(440, 1.25))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
        assert wav.getnframes() == round(1.25 * 22050)
        frames = wav.readframes(wav.getnframes())
    samples = struct.unpack(f"<{len(frames) // 2}h", frames)
    assert samples[0] == 0 and samples[-1] == 0  # faded in and out: no clicks
    assert 0.4 * 32767 < max(samples) <= 0.5 * 32767 + 1
    crossings = sum(1 for a, b in pairwise(samples) if a < 0 <= b)
    assert abs(crossings - 440 * 1.25) <= 2  # about 440 cycles per second


def test_cli_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--http", "70000"])
    assert exit_.value.code == 2
    assert "--http PORT" in capsys.readouterr().err


def test_demo_never_imports_qt() -> None:
    code = (
        "import sys; from inspector.demo.server import build_server; build_server(); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'PySide6', 'shiboken6', 'qasync'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    env = {**os.environ, **DEMO_ENV}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
