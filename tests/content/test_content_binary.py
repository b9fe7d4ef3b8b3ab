"""Magic-byte sniffing, MIME normalisation, strict base64 and WAV headers."""

from __future__ import annotations

import base64

import pytest

from inspector.content.binary import decode_base64, extension_for, human_size, normalize_mime, read_wav, sniff_mime
from inspector.demo import media


@pytest.mark.parametrize(
    ("data", "mime"),
    [
        (media.render_png(8), "image/png"),
        (b"\xff\xd8\xff\xdb" + b"\x00" * 8, "image/jpeg"),
        (b"GIF89a" + b"\x00" * 8, "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (media.render_tone(440, 0.1), "audio/wav"),
        (b"ID3\x03\x00" + b"\x00" * 8, "audio/mpeg"),
        (b"OggS\x00\x02" + b"\x00" * 8, "audio/ogg"),
        (b"fLaC\x00\x00\x00\x22", "audio/flac"),
        (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
        (b"\x00\x00\x00\x20ftypavif", "image/avif"),
        (b"hello", None),
        (b"", None),
    ],
)
def test_sniff(data: bytes, mime: str | None) -> None:
    assert sniff_mime(data) == mime


def test_normalize_and_extension() -> None:
    assert normalize_mime(" Image/JPG ; q=1") == "image/jpeg"
    assert normalize_mime("audio/x-wav") == "audio/wav"
    assert normalize_mime(None) is None and normalize_mime(3) is None  # type: ignore[arg-type]
    assert extension_for("image/png") == "png" and extension_for("audio/wave") == "wav"
    assert extension_for("application/x-unknown") == "bin"


def test_decode_base64_strict() -> None:
    ok = decode_base64(base64.b64encode(b"\x89PNG\r\n\x1a\nrest").decode(), "image/png")
    assert ok.ok and ok.data == b"\x89PNG\r\n\x1a\nrest" and ok.sniffed_mime == "image/png"
    assert decode_base64("aGVsbG8=").data == b"hello"
    assert decode_base64("aGVs bG8=").error  # whitespace is not allowed by validate=True
    assert decode_base64("aGVsbG8").error  # missing padding
    assert "URL-safe" in (decode_base64("-_-_").error or "")
    assert decode_base64("é").error  # non-ASCII never raises
    assert decode_base64(None).error == "data is missing"
    assert decode_base64(b"aGVsbG8=").error == "data is a bytes, not a base64 string"


def test_read_wav() -> None:
    info, error = read_wav(media.render_tone(440, 1.0))
    assert error is None and info is not None
    assert info.duration_s == pytest.approx(1.0, abs=0.001) and info.frames == 22050
    assert read_wav(b"RIFF\x00\x00\x00\x00WAVE")[0] is None
    assert read_wav(b"")[1]


def test_human_size() -> None:
    assert human_size(10) == "10 bytes"
    assert human_size(1536) == "1.5 KB"
    assert human_size(5 * 1024 * 1024) == "5.0 MB"


def test_human_size_short_for_a_narrow_column() -> None:
    sizes = (0, 1023, 1024, 1536, 20 * 1024 * 1024, 3 * 1024**3)
    assert [human_size(n, short=True) for n in sizes] == [
        "0 B",
        "1023 B",
        "1.0 KB",
        "1.5 KB",
        "20.0 MB",
        "3072.0 MB",  # the traffic log's column counts in MB at most, as it always has
    ]
