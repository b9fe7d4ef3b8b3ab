"""One MCP content block (an untrusted, possibly malformed value) → a preview spec. Never raises."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from inspector.content.binary import MAX_DECODE_BYTES, blob_text, decode_base64, normalize_mime, read_wav
from inspector.content.previews import (
    Annotations,
    AudioPreview,
    BinaryData,
    EmbeddedResourcePreview,
    ImagePreview,
    Preview,
    ResourceLinkPreview,
    TextPreview,
    UnknownPreview,
)
from inspector.core.findings import Finding, check_content_block

MAX_JSON_PARSE_CHARS = 4 * 1024 * 1024  # longer text is not parsed (50 MB of JSON: ~1 s and ~0.5 GB of objects)
BASE64_EXPECTED = "standard base64 (RFC 4648) without whitespace"


def to_json_text(value: Any) -> str:
    """Pretty JSON for display (key order kept, non-ASCII kept); a repr when it cannot be JSON."""
    try:
        return json.dumps(value, indent=2, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        try:
            return repr(value)
        except Exception:  # a pathological object; we still show something
            return f"<unprintable {type(value).__name__}>"


def parse_json_text(text: str) -> tuple[bool, Any]:
    """(True, value) when `text` is a JSON object or array; (False, None) otherwise."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[" or len(stripped) > MAX_JSON_PARSE_CHARS:
        return False, None
    try:
        return True, json.loads(stripped)
    except (ValueError, RecursionError):
        return False, None


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _Reader:
    """Typed access to a block's fields; wrong types become findings instead of exceptions."""

    def __init__(self, obj: dict[str, Any], path: str, findings: list[Finding]) -> None:
        self.obj, self.path, self.findings = obj, path, findings

    def string(self, key: str) -> str | None:
        value = self.obj.get(key)
        if value is None or isinstance(value, str):
            return value
        self.findings.append(Finding(f"{key} is {_type_name(value)}", f"{self.path}.{key}", "a string"))
        return None

    def size(self, key: str) -> int | None:
        value = self.obj.get(key)
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        self.findings.append(Finding(f"{key} is {value!r:.40}", f"{self.path}.{key}", "a non-negative integer"))
        return None


def _annotations(value: Any, path: str, findings: list[Finding]) -> Annotations:
    if value is None:
        return Annotations()
    if not isinstance(value, dict):
        findings.append(Finding(f"annotations is {_type_name(value)}", path, "an object"))
        return Annotations()
    audience = value.get("audience")
    if audience is not None and not (isinstance(audience, list) and all(isinstance(a, str) for a in audience)):
        findings.append(Finding(f"audience is {_clip(repr(audience))}", f"{path}.audience", "an array of roles"))
        audience = None
    elif audience is not None and any(a not in ("user", "assistant") for a in audience):
        findings.append(Finding("audience has an unknown role", f"{path}.audience", '"user" or "assistant"'))
    priority = value.get("priority")
    if priority is not None and (
        isinstance(priority, bool) or not isinstance(priority, int | float) or not 0 <= priority <= 1
    ):
        findings.append(Finding(f"priority is {_clip(repr(priority))}", f"{path}.priority", "a number from 0 to 1"))
        priority = None
    modified = value.get("lastModified")
    if modified is not None and not isinstance(modified, str):
        where = f"{path}.lastModified"
        findings.append(Finding(f"lastModified is {_type_name(modified)}", where, "an ISO 8601 string"))
        modified = None
    return Annotations(
        tuple(audience) if audience is not None else None,
        float(priority) if priority is not None else None,
        modified,
    )


def _payload_findings(payload: BinaryData, path: str, findings: list[Finding], value: Any) -> None:
    if value is not None and not isinstance(value, str):
        findings.append(Finding(f"{path.rsplit('.', 1)[-1]} is {_type_name(value)}", path, "a base64 string"))
    if payload.error and payload.error.startswith("invalid base64"):
        findings.append(Finding(payload.error, path, BASE64_EXPECTED))
    if payload.mime_mismatch:
        findings.append(
            Finding(
                f"the bytes are {payload.sniffed_mime} but mimeType says {payload.declared_mime}",
                path.rsplit(".", 1)[0] + ".mimeType",
                f"the real format ({payload.sniffed_mime})",
            )
        )


def _text(block: dict[str, Any], read: _Reader, limit: int) -> TextPreview:
    value = block.get("text")
    if isinstance(value, str):
        text = value
    else:
        text = "" if value is None else to_json_text(value)
        if value is not None:
            read.findings.append(Finding(f"text is {_type_name(value)}", f"{read.path}.text", "a string"))
    is_json, parsed = parse_json_text(text)
    return TextPreview(
        text=text, json_value=parsed, is_json=is_json, mime_hint="application/json" if is_json else "text/plain"
    )


def _image(block: dict[str, Any], read: _Reader, limit: int) -> ImagePreview:
    mime = read.string("mimeType")
    return ImagePreview(mime_type=mime, payload=_media_payload(block, read, mime, "image", limit))


def _audio(block: dict[str, Any], read: _Reader, limit: int) -> AudioPreview:
    mime = read.string("mimeType")
    payload = _media_payload(block, read, mime, "audio", limit)
    wav, wav_error = None, None
    if payload.data is not None and (payload.sniffed_mime == "audio/wav" or normalize_mime(mime) == "audio/wav"):
        wav, wav_error = read_wav(payload.data)
    return AudioPreview(mime_type=mime, payload=payload, wav=wav, wav_error=wav_error)


def _media_payload(block: dict[str, Any], read: _Reader, mime: str | None, kind: str, limit: int) -> BinaryData:
    """The decoded `data` of an image or audio block, with findings for it and its `mime` type."""
    payload = decode_base64(block.get("data"), mime, limit=limit)
    _payload_findings(payload, f"{read.path}.data", read.findings, block.get("data"))
    if mime is not None and not (normalize_mime(mime) or "").startswith(kind + "/"):
        read.findings.append(
            Finding(f"mimeType {_clip(mime)!r} is not an {kind} type", f"{read.path}.mimeType", f"{kind}/…", "warning")
        )
    return payload


def _link(block: dict[str, Any], read: _Reader, limit: int) -> ResourceLinkPreview:
    return ResourceLinkPreview(
        uri=read.string("uri"),
        name=read.string("name"),
        title=read.string("title"),
        description=read.string("description"),
        mime_type=read.string("mimeType"),
        size=read.size("size"),
    )


def _embedded(block: dict[str, Any], read: _Reader, limit: int) -> EmbeddedResourcePreview:
    resource = block.get("resource")
    path = f"{read.path}.resource"
    if not isinstance(resource, dict):
        if resource is not None:  # a missing resource is already a finding of check_content_block
            read.findings.append(Finding(f"resource is {_type_name(resource)}", path, "an object"))
        return EmbeddedResourcePreview(uri=None, error=f"resource is {_type_name(resource)}, not an object")
    inner = _Reader(resource, path, read.findings)
    uri, mime = inner.string("uri"), inner.string("mimeType")
    if "uri" not in resource:
        read.findings.append(Finding("embedded resource has no uri", f"{path}.uri", "a uri field"))
    if "text" in resource:
        text = inner.string("text")
        if text is None:
            return EmbeddedResourcePreview(uri=uri, mime_type=mime, error="text is not a string")
        is_json, parsed = parse_json_text(text)
        return EmbeddedResourcePreview(uri=uri, mime_type=mime, text=text, json_value=parsed, is_json=is_json)
    if "blob" in resource:
        payload = decode_base64(resource.get("blob"), mime, limit=limit)
        _payload_findings(payload, f"{path}.blob", read.findings, resource.get("blob"))
        text = blob_text(payload, mime)
        is_json, parsed = parse_json_text(text) if text is not None else (False, None)
        return EmbeddedResourcePreview(
            uri=uri, mime_type=mime, payload=payload, blob_text=text, json_value=parsed, is_json=is_json
        )
    read.findings.append(Finding("embedded resource has neither text nor blob", path, "a text or a blob field"))
    return EmbeddedResourcePreview(uri=uri, mime_type=mime, error="the resource has neither text nor blob")


def _unknown(block: Any, reason: str, findings: list[Finding]) -> UnknownPreview:
    kind = block.get("type") if isinstance(block, dict) else None
    return UnknownPreview(
        raw_json=to_json_text(block),
        reason=reason,
        type_name=kind if isinstance(kind, str) else None,
        findings=tuple(findings),
        raw=block,
    )


def _unknown_reason(block: Any) -> str:
    if not isinstance(block, dict):
        return f"Content block is {_type_name(block)}, not an object — shown raw"
    kind = block.get("type")
    if kind is None:
        return "Content block has no type — shown raw"
    if not isinstance(kind, str):
        return f"Content type is {_type_name(kind)}, not a string — shown raw"
    return f"Unknown content type {_clip(kind)!r} — shown raw"


@dataclass(frozen=True)
class ContentType:
    """One content block type: the preview spec it becomes, and `build(block, read, limit)` that makes it."""

    preview: type[Preview]
    build: Callable[[dict[str, Any], _Reader, int], Preview]


# The content types, one table: block "type" → preview spec. Adding a previewer is one entry here (its
# spec in previews.py) plus its widget in the UI's table (inspector/ui/results/factory.py) and a test;
# tests/content/test_content_types.py checks the UI offers a widget for exactly these (and UnknownPreview).
CONTENT_TYPES: dict[str, ContentType] = {
    "text": ContentType(TextPreview, _text),
    "image": ContentType(ImagePreview, _image),
    "audio": ContentType(AudioPreview, _audio),
    "resource_link": ContentType(ResourceLinkPreview, _link),
    "resource": ContentType(EmbeddedResourcePreview, _embedded),
}


def preview(block: Any, path: str = "$", *, limit: int = MAX_DECODE_BYTES) -> Preview:
    """The preview spec of one content block; `path` locates it in findings (e.g. ``$.content[2]``)."""
    try:
        findings = check_content_block(block, path)
        kind = block.get("type") if isinstance(block, dict) else None
        content_type = CONTENT_TYPES.get(kind) if isinstance(block, dict) and isinstance(kind, str) else None
        if content_type is None:
            return _unknown(block, _unknown_reason(block), findings)
        read = _Reader(block, path, findings)
        annotations = _annotations(block.get("annotations"), f"{path}.annotations", findings)
        spec = content_type.build(block, read, limit)
        return _finish(spec, annotations, findings, block)
    except Exception as exc:  # a bug here must not take the result pane down
        return _unknown(block, f"Preview failed ({type(exc).__name__}: {exc}) — shown raw", [])


def _finish(spec: Preview, annotations: Annotations, findings: list[Finding], block: Any) -> Preview:
    return replace(spec, annotations=annotations, findings=tuple(findings), raw=block)
