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
from inspector.ui.results.audio_block import AudioBlockWidget
from inspector.ui.results.common import BlockWidget
from inspector.ui.results.image_block import ImageBlockWidget
from inspector.ui.results.resource_blocks import EmbeddedResourceWidget, ResourceLinkWidget
from inspector.ui.results.text_block import TextBlockWidget, UnknownBlockWidget

# Preview spec → its widget: one entry per entry of `inspector.content.blocks.CONTENT_TYPES`, plus the
# fallback for anything else (tests/content/test_content_types.py checks they match).
WIDGETS: dict[type, type[BlockWidget]] = {
    TextPreview: TextBlockWidget,
    ImagePreview: ImageBlockWidget,
    AudioPreview: AudioBlockWidget,
    ResourceLinkPreview: ResourceLinkWidget,
    EmbeddedResourcePreview: EmbeddedResourceWidget,
    UnknownPreview: UnknownBlockWidget,
}


def block_widget(preview: Preview, parent: QWidget | None = None) -> BlockWidget:
    """A `BlockWidget` subclass matching the preview's type."""
    widget = WIDGETS.get(type(preview))
    if widget is None:
        raise TypeError(f"not a preview: {type(preview).__name__}")
    return widget(preview, parent)
