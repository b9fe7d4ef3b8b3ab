"""Content types, one table (`inspector.content.blocks.CONTENT_TYPES`): each type becomes its preview
spec, the spec check knows the same types, and the result pane has a widget for exactly these specs."""

from __future__ import annotations

import base64

import pytest

from inspector.content import UnknownPreview, preview
from inspector.content.blocks import CONTENT_TYPES
from inspector.core.findings import KNOWN_CONTENT_TYPES

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
BLOCKS = {
    "text": {"type": "text", "text": "hello"},
    "image": {"type": "image", "data": PNG, "mimeType": "image/png"},
    "audio": {"type": "audio", "data": "!!", "mimeType": "audio/wav"},  # undecodable: no media player is started
    "resource_link": {"type": "resource_link", "uri": "demo://a", "name": "a"},
    "resource": {"type": "resource", "resource": {"uri": "demo://a", "text": "x"}},
}


def test_every_type_becomes_its_spec() -> None:
    assert set(BLOCKS) == set(CONTENT_TYPES) == KNOWN_CONTENT_TYPES
    for name, content_type in CONTENT_TYPES.items():
        spec = preview(BLOCKS[name])
        assert type(spec) is content_type.preview, name
    assert isinstance(preview({"type": "video", "data": ""}), UnknownPreview)
    assert isinstance(preview({"type": ["text"]}), UnknownPreview)  # an unhashable type is shown raw too


@pytest.mark.parametrize("name", list(CONTENT_TYPES))
def test_the_result_pane_has_a_widget_for_each_type(qtbot, name: str) -> None:
    from inspector.ui.results.factory import WIDGETS, block_widget

    assert set(WIDGETS) == {t.preview for t in CONTENT_TYPES.values()} | {UnknownPreview}
    widget = block_widget(preview(BLOCKS[name]))
    qtbot.addWidget(widget)
    assert type(widget) is WIDGETS[CONTENT_TYPES[name].preview]
