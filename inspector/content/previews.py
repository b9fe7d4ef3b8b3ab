"""Preview specs: what one content block is, decoded and checked, ready for any front end.

Every field holds plain Python values; nothing here knows about Qt. A preview is built by
`inspector.content.blocks.preview` and never from a server's values directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.core.findings import Finding


@dataclass(frozen=True, slots=True)
class Annotations:
    """The optional `annotations` object of a content block (only its well-formed fields)."""

    audience: tuple[str, ...] | None = None
    priority: float | None = None
    last_modified: str | None = None

    @property
    def empty(self) -> bool:
        return self.audience is None and self.priority is None and self.last_modified is None

    def describe(self) -> str:
        """One line such as ``audience: user, assistant · priority 0.8``; empty when nothing is set."""
        parts = []
        if self.audience is not None:
            parts.append("audience: " + (", ".join(self.audience) or "(none)"))
        if self.priority is not None:
            parts.append(f"priority {self.priority:g}")
        if self.last_modified is not None:
            parts.append(f"modified {self.last_modified}")
        return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class WavInfo:
    """What the stdlib `wave` module reads from a WAV header."""

    duration_s: float
    sample_rate: int
    channels: int
    sample_width: int  # bytes per sample
    frames: int


@dataclass(frozen=True, slots=True)
class BinaryData:
    """A base64 payload after strict decoding.

    `data` is None when decoding failed or was skipped; `error` says why. `byte_size` is the decoded
    size, or an estimate from the base64 length when the payload was not decoded.
    """

    data: bytes | None = field(repr=False)
    error: str | None
    byte_size: int
    sniffed_mime: str | None = None  # from magic bytes
    declared_mime: str | None = None
    mime_mismatch: bool = False  # the magic bytes contradict the declared mimeType

    @property
    def ok(self) -> bool:
        return self.data is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class _Base:
    annotations: Annotations = field(default_factory=Annotations)
    findings: tuple[Finding, ...] = ()
    raw: Any = field(default=None, compare=False, repr=False)  # the block as received

    @property
    def has_errors(self) -> bool:
        return any(f.severity == "error" for f in self.findings)


@dataclass(frozen=True, slots=True, kw_only=True)
class TextPreview(_Base):
    text: str
    json_value: Any = None  # the parsed value when the text is a JSON object or array
    is_json: bool = False
    mime_hint: str = "text/plain"  # "application/json" when the text parses as JSON
    kind: str = "text"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImagePreview(_Base):
    mime_type: str | None
    payload: BinaryData
    kind: str = "image"


@dataclass(frozen=True, slots=True, kw_only=True)
class AudioPreview(_Base):
    mime_type: str | None
    payload: BinaryData
    wav: WavInfo | None = None
    wav_error: str | None = None  # why a WAV-looking payload could not be read
    kind: str = "audio"

    @property
    def duration_s(self) -> float | None:
        return self.wav.duration_s if self.wav else None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResourceLinkPreview(_Base):
    uri: str | None
    name: str | None = None
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    kind: str = "resource_link"


@dataclass(frozen=True, slots=True, kw_only=True)
class EmbeddedResourcePreview(_Base):
    uri: str | None
    mime_type: str | None = None
    text: str | None = None  # a text resource
    json_value: Any = None
    is_json: bool = False
    payload: BinaryData | None = None  # a blob resource
    blob_text: str | None = None  # a blob of a textual MIME type, decoded as UTF-8 for display
    error: str | None = None  # the resource has neither text nor blob, or is not an object
    kind: str = "resource"


@dataclass(frozen=True, slots=True, kw_only=True)
class UnknownPreview(_Base):
    raw_json: str
    reason: str  # e.g. "Unknown content type 'video' — shown raw"
    type_name: str | None = None  # the block's "type" when it is a string
    kind: str = "unknown"


Preview = TextPreview | ImagePreview | AudioPreview | ResourceLinkPreview | EmbeddedResourcePreview | UnknownPreview
