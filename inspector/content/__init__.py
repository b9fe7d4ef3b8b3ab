"""Content blocks → preview specs (text, image, audio, resource link, embedded resource, unknown); no Qt."""

from inspector.content.binary import MAX_DECODE_BYTES, extension_for, human_size, normalize_mime, sniff_mime
from inspector.content.blocks import parse_json_text, preview, to_json_text
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
    WavInfo,
)
from inspector.content.summary import ResultSummary, result_summary

__all__ = [
    "MAX_DECODE_BYTES",
    "Annotations",
    "AudioPreview",
    "BinaryData",
    "EmbeddedResourcePreview",
    "ImagePreview",
    "Preview",
    "ResourceLinkPreview",
    "ResultSummary",
    "TextPreview",
    "UnknownPreview",
    "WavInfo",
    "extension_for",
    "human_size",
    "normalize_mime",
    "parse_json_text",
    "preview",
    "result_summary",
    "sniff_mime",
    "to_json_text",
]
