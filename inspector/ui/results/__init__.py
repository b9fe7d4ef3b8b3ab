"""How a `tools/call` result is shown: one widget per content block, and `ResultView` for a whole result."""

from inspector.ui.results.audio_block import AudioBlockWidget
from inspector.ui.results.common import BlockWidget, ErrorTile
from inspector.ui.results.factory import block_widget
from inspector.ui.results.image_block import ImageBlockWidget, ImageViewer
from inspector.ui.results.resource_blocks import EmbeddedResourceWidget, ResourceLinkWidget
from inspector.ui.results.result_view import ResultView
from inspector.ui.results.text_block import TextBlockWidget, TextPane, UnknownBlockWidget

__all__ = [
    "AudioBlockWidget",
    "BlockWidget",
    "EmbeddedResourceWidget",
    "ErrorTile",
    "ImageBlockWidget",
    "ImageViewer",
    "ResourceLinkWidget",
    "ResultView",
    "TextBlockWidget",
    "TextPane",
    "UnknownBlockWidget",
    "block_widget",
]
