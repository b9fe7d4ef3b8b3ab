"""preview(): one content block → a preview spec, for every block type and for malformed blocks."""

from __future__ import annotations

import base64

import pytest

from inspector.content import (
    AudioPreview,
    EmbeddedResourcePreview,
    ImagePreview,
    ResourceLinkPreview,
    TextPreview,
    UnknownPreview,
    preview,
)
from inspector.demo import media

PNG = media.render_png(12, "rings")
WAV = media.render_tone(440, 0.5)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def messages(spec) -> list[str]:
    return [f.message for f in spec.findings]


def test_text_plain_and_json() -> None:
    plain = preview({"type": "text", "text": "hello <b>world</b>"})
    assert isinstance(plain, TextPreview)
    assert (plain.text, plain.is_json, plain.mime_hint, plain.findings) == (
        "hello <b>world</b>",
        False,
        "text/plain",
        (),
    )
    data = preview({"type": "text", "text": ' {"a": [1, 2], "b": null} '})
    assert isinstance(data, TextPreview)
    assert data.is_json and data.json_value == {"a": [1, 2], "b": None}
    assert data.mime_hint == "application/json"
    assert not preview({"type": "text", "text": "42"}).is_json  # scalars stay text
    assert not preview({"type": "text", "text": "{not json"}).is_json


def test_text_missing_or_wrong_type() -> None:
    missing = preview({"type": "text"}, "$.content[0]")
    assert isinstance(missing, TextPreview) and missing.text == ""
    assert [f.path for f in missing.findings] == ["$.content[0].text"]
    number = preview({"type": "text", "text": 12})
    assert isinstance(number, TextPreview) and number.text == "12"
    assert messages(number) == ["text is int"]


def test_annotations_kept_and_checked() -> None:
    spec = preview(
        {"type": "text", "text": "x", "annotations": {"audience": ["user"], "priority": 0.25, "lastModified": "2025"}}
    )
    assert spec.annotations.audience == ("user",)
    assert spec.annotations.priority == 0.25
    assert spec.annotations.last_modified == "2025"
    assert spec.annotations.describe() == "audience: user · priority 0.25 · modified 2025"
    bad = preview({"type": "text", "text": "x", "annotations": {"audience": "user", "priority": 7}})
    assert bad.annotations.empty
    assert [f.path for f in bad.findings] == ["$.annotations.audience", "$.annotations.priority"]
    assert messages(preview({"type": "text", "text": "x", "annotations": []})) == ["annotations is list"]


def test_image_decoded_and_sniffed() -> None:
    spec = preview({"type": "image", "mimeType": "image/png", "data": b64(PNG)})
    assert isinstance(spec, ImagePreview)
    assert spec.payload.data == PNG and spec.payload.byte_size == len(PNG)
    assert spec.payload.sniffed_mime == "image/png" and not spec.payload.mime_mismatch
    assert spec.findings == ()


def test_png_declared_as_jpeg_is_flagged() -> None:
    spec = preview({"type": "image", "mimeType": "image/jpeg", "data": b64(PNG)}, "$.content[1]")
    assert isinstance(spec, ImagePreview)
    assert spec.payload.data == PNG  # still shown
    assert spec.payload.mime_mismatch and spec.payload.sniffed_mime == "image/png"
    assert [(f.path, f.message) for f in spec.findings] == [
        ("$.content[1].mimeType", "the bytes are image/png but mimeType says image/jpeg")
    ]


def test_mime_aliases_are_not_a_mismatch() -> None:
    jpeg = b"\xff\xd8\xff\xe0" + b"\x00" * 20
    assert not preview({"type": "image", "mimeType": "image/jpg", "data": b64(jpeg)}).payload.mime_mismatch
    assert not preview({"type": "audio", "mimeType": "audio/x-wav", "data": b64(WAV)}).payload.mime_mismatch


@pytest.mark.parametrize(
    ("data", "hint"),
    [
        ("not base64!!", "invalid base64"),
        ("iVBORw0KGgo\nAAAA", "line breaks"),
        ("data:image/png;base64," + b64(PNG), "data: URL"),
        ("abc", "invalid base64"),  # bad padding
    ],
)
def test_invalid_base64_is_an_error_not_an_exception(data: str, hint: str) -> None:
    spec = preview({"type": "image", "mimeType": "image/png", "data": data}, "$.content[0]")
    assert isinstance(spec, ImagePreview)
    assert spec.payload.data is None and hint in (spec.payload.error or "")
    assert [f.path for f in spec.findings] == ["$.content[0].data"]


def test_image_missing_fields_and_wrong_types() -> None:
    spec = preview({"type": "image"})
    assert isinstance(spec, ImagePreview) and spec.payload.data is None
    assert sorted(f.path for f in spec.findings) == ["$.data", "$.mimeType"]
    typed = preview({"type": "image", "mimeType": 5, "data": 5})
    assert isinstance(typed, ImagePreview) and typed.mime_type is None
    assert sorted(messages(typed)) == ["data is int", "mimeType is int"]
    odd = preview({"type": "image", "mimeType": "text/plain", "data": b64(b"hi")})
    assert any(f.severity == "warning" and "not an image type" in f.message for f in odd.findings)


def test_size_guard_skips_decoding() -> None:
    spec = preview({"type": "image", "mimeType": "image/png", "data": b64(PNG)}, limit=100)
    assert isinstance(spec, ImagePreview)
    assert spec.payload.data is None and "not decoded" in (spec.payload.error or "")
    assert abs(spec.payload.byte_size - len(PNG)) <= 2
    assert spec.findings == ()  # a big payload is not a spec violation


def test_audio_wav_parsed() -> None:
    spec = preview({"type": "audio", "mimeType": "audio/wav", "data": b64(WAV)})
    assert isinstance(spec, AudioPreview)
    assert spec.payload.data == WAV and spec.wav is not None
    assert spec.wav.sample_rate == 22050 and spec.wav.channels == 1 and spec.wav.sample_width == 2
    assert spec.duration_s == pytest.approx(0.5, abs=0.001)


def test_audio_broken_wav_header() -> None:
    broken = WAV[:12] + b"garbage" * 3
    spec = preview({"type": "audio", "mimeType": "audio/wav", "data": b64(broken)})
    assert isinstance(spec, AudioPreview) and spec.wav is None
    assert spec.wav_error and "WAV header" in spec.wav_error


def test_audio_truncated_wav_duration_is_capped() -> None:
    spec = preview({"type": "audio", "mimeType": "audio/wav", "data": b64(WAV[: 44 + 2205 * 2])})
    assert isinstance(spec, AudioPreview) and spec.duration_s == pytest.approx(0.1, abs=0.002)


def test_resource_link() -> None:
    block = {
        "type": "resource_link",
        "uri": "demo://docs/guide",
        "name": "guide",
        "title": "Guide",
        "description": "What it is.",
        "mimeType": "text/markdown",
        "size": 1200,
    }
    spec = preview(block)
    assert isinstance(spec, ResourceLinkPreview)
    assert (spec.uri, spec.name, spec.title, spec.description, spec.mime_type, spec.size) == (
        "demo://docs/guide",
        "guide",
        "Guide",
        "What it is.",
        "text/markdown",
        1200,
    )
    broken = preview({"type": "resource_link", "uri": 3, "size": -1})
    assert isinstance(broken, ResourceLinkPreview) and broken.uri is None and broken.size is None
    assert {f.path for f in broken.findings} == {"$.uri", "$.name", "$.size"}


def test_embedded_text_and_blob() -> None:
    text = preview({"type": "resource", "resource": {"uri": "x://a", "mimeType": "application/json", "text": "[1]"}})
    assert isinstance(text, EmbeddedResourcePreview)
    assert text.text == "[1]" and text.is_json and text.json_value == [1] and text.payload is None
    blob = preview({"type": "resource", "resource": {"uri": "x://b", "mimeType": "image/png", "blob": b64(PNG)}})
    assert isinstance(blob, EmbeddedResourcePreview) and blob.text is None
    assert blob.payload is not None and blob.payload.data == PNG and blob.payload.sniffed_mime == "image/png"


def test_textual_blobs_are_decoded_for_display() -> None:
    def blob(data: bytes, mime: str) -> EmbeddedResourcePreview:
        spec = preview({"type": "resource", "resource": {"uri": "x://t", "mimeType": mime, "blob": b64(data)}})
        assert isinstance(spec, EmbeddedResourcePreview) and spec.payload is not None
        return spec

    plain = blob("Grüße\nline two".encode(), "text/plain; charset=utf-8")
    assert plain.blob_text == "Grüße\nline two" and plain.text is None and not plain.is_json
    data = blob(b'{"a": 1}', "application/json")
    assert data.blob_text == '{"a": 1}' and data.is_json and data.json_value == {"a": 1}
    assert blob(b"\xff\xfe\x00bad", "text/plain").blob_text is None, "not UTF-8: no text"
    assert blob(PNG, "text/plain").blob_text is None, "the bytes are a PNG whatever the mimeType says"
    assert blob(b"plain words", "application/octet-stream").blob_text is None


def test_embedded_malformed() -> None:
    empty = preview({"type": "resource", "resource": {"uri": "x://c"}})
    assert isinstance(empty, EmbeddedResourcePreview) and empty.error
    assert messages(empty) == ["embedded resource has neither text nor blob"]
    bad_blob = preview({"type": "resource", "resource": {"uri": "x://d", "blob": "%%%"}})
    assert isinstance(bad_blob, EmbeddedResourcePreview)
    assert bad_blob.payload is not None and bad_blob.payload.data is None
    assert [f.path for f in bad_blob.findings] == ["$.resource.blob"]
    not_object = preview({"type": "resource", "resource": "x://e"})
    assert isinstance(not_object, EmbeddedResourcePreview) and not_object.error
    assert messages(preview({"type": "resource", "resource": {"text": "t"}})) == ["embedded resource has no uri"]


@pytest.mark.parametrize(
    ("block", "reason", "type_name"),
    [
        ({"type": "video", "url": "x"}, "Unknown content type 'video' — shown raw", "video"),
        ({"text": "no type"}, "Content block has no type — shown raw", None),
        ({"type": 3}, "Content type is int, not a string — shown raw", None),
        ("just a string", "Content block is str, not an object — shown raw", None),
        (None, "Content block is null, not an object — shown raw", None),
        ([1, 2], "Content block is list, not an object — shown raw", None),
    ],
)
def test_unknown_blocks_shown_raw(block, reason: str, type_name: str | None) -> None:
    spec = preview(block, "$.content[4]")
    assert isinstance(spec, UnknownPreview)
    assert spec.reason == reason and spec.type_name == type_name
    assert spec.findings and spec.findings[0].path.startswith("$.content[4]")
    assert spec.raw_json  # the block itself, as JSON


def test_findings_reuse_core_check() -> None:
    from inspector.core.findings import check_content_block

    block = {"type": "audio"}
    assert set(check_content_block(block, "$")) <= set(preview(block).findings)
