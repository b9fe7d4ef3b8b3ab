"""Binary payloads: strict base64 decoding with a size guard, magic-byte sniffing, WAV headers."""

from __future__ import annotations

import base64
import binascii
import io
import wave
from typing import Any

from inspector.content.previews import BinaryData, WavInfo

MAX_DECODE_BYTES = 64 * 1024 * 1024  # payloads larger than this are not decoded
MAX_BLOB_TEXT_BYTES = 8 * 1024 * 1024  # textual blobs up to this size are also shown as text
TEXT_MIMES = frozenset(
    {"application/json", "application/xml", "application/javascript", "application/yaml", "application/x-yaml"}
    | {"application/toml", "application/sql", "application/x-sh", "application/csv", "application/ld+json"}
)

_ALIASES = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/x-png": "image/png",
    "image/x-icon": "image/vnd.microsoft.icon",
    "image/x-ms-bmp": "image/bmp",
    "image/x-bmp": "image/bmp",
    "audio/wave": "audio/wav",
    "audio/x-wav": "audio/wav",
    "audio/vnd.wave": "audio/wav",
    "audio/x-pn-wav": "audio/wav",
    "audio/mp3": "audio/mpeg",
    "audio/x-mp3": "audio/mpeg",
    "audio/mpeg3": "audio/mpeg",
    "audio/x-flac": "audio/flac",
    "audio/x-aiff": "audio/aiff",
    "audio/x-m4a": "audio/mp4",
    "audio/m4a": "audio/mp4",
    "audio/vorbis": "audio/ogg",
    "audio/opus": "audio/ogg",
    "application/ogg": "audio/ogg",
    "video/webm": "audio/webm",
}

EXTENSIONS = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/gif": "gif",
    "image/webp": "webp",
    "image/bmp": "bmp",
    "image/tiff": "tiff",
    "image/avif": "avif",
    "image/heic": "heic",
    "image/svg+xml": "svg",
    "image/vnd.microsoft.icon": "ico",
    "audio/wav": "wav",
    "audio/mpeg": "mp3",
    "audio/ogg": "ogg",
    "audio/flac": "flac",
    "audio/aiff": "aiff",
    "audio/mp4": "m4a",
    "audio/webm": "webm",
    "application/json": "json",
    "application/pdf": "pdf",
    "text/plain": "txt",
    "text/markdown": "md",
    "text/html": "html",
    "text/csv": "csv",
}


def normalize_mime(mime: str | None) -> str | None:
    """Lower case, parameters dropped, common aliases folded (``image/jpg`` → ``image/jpeg``)."""
    if not isinstance(mime, str):
        return None
    base = mime.split(";", 1)[0].strip().lower()
    return _ALIASES.get(base, base) or None


def is_textual(mime: str | None) -> bool:
    """Whether a MIME type names text (``text/*``, JSON, XML, YAML, …)."""
    base = normalize_mime(mime) or ""
    return base.startswith("text/") or base in TEXT_MIMES or base.endswith(("+json", "+xml", "+yaml"))


def blob_text(payload: BinaryData, mime: str | None) -> str | None:
    """A decoded blob as text, when its MIME type says text, its bytes are UTF-8 and it is not too big."""
    data = payload.data
    if data is None or len(data) > MAX_BLOB_TEXT_BYTES or not is_textual(mime):
        return None
    if payload.sniffed_mime is not None and not is_textual(payload.sniffed_mime):
        return None  # the bytes are an image or audio whatever the mimeType says
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def extension_for(mime: str | None, default: str = "bin") -> str:
    """A file extension for a MIME type, for suggested file names."""
    return EXTENSIONS.get(normalize_mime(mime) or "", default)


def sniff_mime(data: bytes) -> str | None:
    """The format the magic bytes say, or None when unrecognised."""
    head = data[:64]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if head[:4] in (b"RIFF", b"RIFX", b"RF64") and head[8:12] == b"WAVE":
        return "audio/wav"
    if head.startswith(b"BM") and len(head) >= 26:
        return "image/bmp"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    if head.startswith(b"\x00\x00\x01\x00"):
        return "image/vnd.microsoft.icon"
    if head[4:8] == b"ftyp":
        brand = head[8:12]
        if brand in (b"avif", b"avis"):
            return "image/avif"
        if brand in (b"heic", b"heix", b"mif1", b"msf1"):
            return "image/heic"
        if brand in (b"M4A ", b"M4B "):
            return "audio/mp4"
        return None
    if head.startswith(b"OggS"):
        return "audio/ogg"
    if head.startswith(b"fLaC"):
        return "audio/flac"
    if head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        return "audio/aiff"
    if head.startswith(b"ID3") or (len(head) >= 2 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        return "audio/mpeg"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "audio/webm"
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith(b"<svg") or (text.startswith(b"<?xml") and b"<svg" in data[:4096].lower()):
        return "image/svg+xml"
    return None


def estimated_size(encoded: str) -> int:
    """Decoded size of a base64 string, without decoding it."""
    stripped = encoded.rstrip("=")
    return len(stripped) * 3 // 4


def decode_base64(value: Any, declared_mime: Any = None, *, limit: int = MAX_DECODE_BYTES) -> BinaryData:
    """Strictly decode `value`; problems are reported in `BinaryData.error`, never raised."""
    declared = declared_mime if isinstance(declared_mime, str) else None
    if not isinstance(value, str):
        kind = "missing" if value is None else f"a {type(value).__name__}, not a base64 string"
        return BinaryData(None, f"data is {kind}", 0, declared_mime=declared)
    size = estimated_size(value)
    if size > limit:
        error = f"not decoded: about {human_size(size)} is over the {human_size(limit)} preview limit"
        return BinaryData(None, error, size, declared_mime=declared)
    try:
        data = base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError) as exc:
        error = f"invalid base64: {exc}"
        if value.startswith("data:"):
            error += " (this is a data: URL; the spec wants bare base64)"
        elif any(c in value for c in "\r\n \t"):
            error += " (it contains whitespace or line breaks)"
        elif "-" in value or "_" in value:
            error += " (URL-safe alphabet? the spec wants standard base64)"
        return BinaryData(None, error, size, declared_mime=declared)
    sniffed = sniff_mime(data)
    declared_norm = normalize_mime(declared)
    mismatch = sniffed is not None and declared_norm is not None and sniffed != declared_norm
    return BinaryData(data, None, len(data), sniffed, declared, mismatch)


def read_wav(data: bytes) -> tuple[WavInfo | None, str | None]:
    """Header facts of a WAV file via the stdlib `wave` module: (info, None) or (None, reason)."""
    try:
        with wave.open(io.BytesIO(data), "rb") as reader:
            rate = reader.getframerate()
            frames = reader.getnframes()
            channels = reader.getnchannels()
            width = reader.getsampwidth()
    except Exception as exc:  # wave.Error, EOFError, struct.error… on a broken or exotic header
        return None, f"WAV header not readable: {exc or type(exc).__name__}"
    if rate <= 0:
        return None, f"WAV header says the sample rate is {rate}"
    available = len(data) // max(1, channels * width)
    frames = min(frames, available)  # a truncated file's header claims more than the payload holds
    return WavInfo(frames / rate, rate, channels, width, frames), None


def human_size(size: int, *, short: bool = False) -> str:
    """1536 → ``1.5 KB``; under 1 KB ``10 bytes``, or ``10 B`` when `short` (a narrow column, which counts
    in MB at most, as the traffic log always has)."""
    value = float(size)
    units = ("bytes", "KB", "MB") if short else ("bytes", "KB", "MB", "GB")
    for unit in units:
        if value < 1024 or unit == units[-1]:
            return f"{size} {'B' if short else 'bytes'}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} bytes"
