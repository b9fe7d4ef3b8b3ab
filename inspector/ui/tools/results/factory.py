"""The widget for one preview spec."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from inspector.content import (
    AudioPreview,
    EmbeddedResourcePreview,
    ImagePreview,
    Preview,
    ResourceLinkPreview,
    TextPreview,
    UnknownPreview,
)
from inspector.ui.tools.results.audio_block import AudioBlockWidget
from inspector.ui.tools.results.common import BlockWidget
from inspector.ui.tools.results.image_block import ImageBlockWidget
from inspector.ui.tools.results.resource_blocks import EmbeddedResourceWidget, ResourceLinkWidget
from inspector.ui.tools.results.text_block import TextBlockWidget, UnknownBlockWidget


def block_widget(preview: Preview, parent: QWidget | None = None) -> BlockWidget:
    """A `BlockWidget` subclass matching the preview's type."""
    match preview:
        case TextPreview():
            return TextBlockWidget(preview, parent)
        case ImagePreview():
            return ImageBlockWidget(preview, parent)
        case AudioPreview():
            return AudioBlockWidget(preview, parent)
        case ResourceLinkPreview():
            return ResourceLinkWidget(preview, parent)
        case EmbeddedResourcePreview():
            return EmbeddedResourceWidget(preview, parent)
        case UnknownPreview():
            return UnknownBlockWidget(preview, parent)
    raise TypeError(f"not a preview: {type(preview).__name__}")
