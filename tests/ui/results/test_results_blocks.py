"""Block widgets on hand-made (often malformed or hostile) blocks: never a crash, always plain text."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from factories import call_result
from PySide6.QtCore import Qt
from PySide6.QtMultimedia import QMediaPlayer
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from inspector.content import preview
from inspector.demo import media
from inspector.ui.results import (
    AudioBlockWidget,
    EmbeddedResourceWidget,
    ImageBlockWidget,
    ResourceLinkWidget,
    ResultView,
    TextBlockWidget,
    UnknownBlockWidget,
    block_widget,
)
from inspector.ui.results.common import safe_file_name
from inspector.ui.results.text_block import BIG_CHARS, PREVIEW_CHARS

HOSTILE = '<img src="file:///etc/passwd"> <a href="https://x">x</a>'
PNG = media.render_png(20, "checker")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def widget(qtbot, block, path: str = "$.content[0]"):
    w = block_widget(preview(block, path))
    qtbot.addWidget(w)
    w.resize(600, 400)
    w.show()
    return w


def plain_labels(w) -> list[str]:
    labels = w.findChildren(QLabel)
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    return [label.text() for label in labels]


def test_hostile_text_shown_literally(qtbot) -> None:
    w = widget(qtbot, {"type": "text", "text": HOSTILE})
    assert isinstance(w, TextBlockWidget)
    assert w.pane.text() == HOSTILE
    assert w.pane.edit.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    plain_labels(w)


def test_hostile_resource_link_and_unknown_type(qtbot) -> None:
    link = widget(
        qtbot, {"type": "resource_link", "uri": "file:///etc/passwd", "name": HOSTILE, "description": HOSTILE}
    )
    assert isinstance(link, ResourceLinkWidget)
    assert HOSTILE in plain_labels(link) and link.fields["Name"] == HOSTILE
    with qtbot.waitSignal(link.readResourceRequested) as signal:
        link.read_button.click()
    assert signal.args == ["file:///etc/passwd"]  # handed to the workbench, never opened here
    unknown = widget(qtbot, {"type": HOSTILE})
    assert isinstance(unknown, UnknownBlockWidget)
    assert unknown.flag.text() == f"Unknown content type {HOSTILE!r} — shown raw"
    plain_labels(unknown)


def test_link_without_uri_cannot_be_read(qtbot) -> None:
    link = widget(qtbot, {"type": "resource_link", "name": "x"})
    assert isinstance(link, ResourceLinkWidget) and not link.read_button.isEnabled()
    assert link.fields["URI"] == "(missing)"
    assert any("resource_link block has no uri" in t for t in plain_labels(link))


def test_invalid_base64_image_is_an_error_tile(qtbot, tmp_path: Path) -> None:
    w = widget(qtbot, {"type": "image", "mimeType": "image/png", "data": "***not base64***"})
    assert isinstance(w, ImageBlockWidget) and w.viewer is None and w.error_tile is not None
    assert "invalid base64" in w.error_tile.text() and w.error_tile.text().endswith("bytes")
    assert not w.save_button.isEnabled()
    with pytest.raises(ValueError):
        w.save_to(tmp_path / "x.png")


def test_undecodable_image_is_an_error_tile(qtbot) -> None:
    w = widget(qtbot, {"type": "image", "mimeType": "image/png", "data": b64(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)})
    assert isinstance(w, ImageBlockWidget) and w.viewer is None and w.error_tile is not None
    assert "could not be decoded" in w.error_tile.text() and "48 bytes" in w.error_tile.text()
    assert w.save_button.isEnabled()  # the bytes can still be saved for inspection


def test_png_declared_as_jpeg_still_shows_and_is_flagged(qtbot, tmp_path: Path) -> None:
    w = widget(qtbot, {"type": "image", "mimeType": "image/jpeg", "data": b64(PNG)})
    assert isinstance(w, ImageBlockWidget) and w.viewer is not None and w.viewer.image_size == (20, 20)
    assert "actually image/png" in w.detail_label.text()
    assert any("the bytes are image/png but mimeType says image/jpeg" in label.text() for label in w.finding_labels)
    w.save_to(tmp_path / "x.png")
    assert (tmp_path / "x.png").read_bytes() == PNG


def test_big_image_starts_fitted(qtbot) -> None:
    w = widget(qtbot, {"type": "image", "mimeType": "image/png", "data": b64(media.render_png(600, "gradient"))})
    assert isinstance(w, ImageBlockWidget) and w.viewer is not None
    qtbot.waitUntil(lambda: w.viewer.zoom < 1)
    assert w.viewer.image_label.pixmap().height() <= w.viewer.max_height
    w.viewer.actual_size()
    assert w.viewer.image_label.pixmap().width() == 600


def test_audio_errors_do_not_crash(qtbot) -> None:
    bad = widget(qtbot, {"type": "audio", "mimeType": "audio/wav", "data": "!!"})
    assert isinstance(bad, AudioBlockWidget) and bad.player is None and bad.error_tile is not None
    assert not bad.save_button.isEnabled()
    noise = widget(qtbot, {"type": "audio", "mimeType": "audio/mpeg", "data": b64(b"\x00\x01\x02" * 50)})
    assert isinstance(noise, AudioBlockWidget) and noise.player is not None
    invalid = QMediaPlayer.MediaStatus.InvalidMedia
    qtbot.waitUntil(lambda: noise.player.mediaStatus() == invalid, timeout=15_000)
    qtbot.waitUntil(lambda: noise.note.text().startswith("Cannot play this audio"), timeout=15_000)
    assert not noise.play_button.isEnabled() and noise.note.isVisibleTo(noise)
    noise.dispose()


def test_big_json_text_highlights_on_demand(qtbot) -> None:
    value = {"items": [{"id": i, "name": f"item {i}"} for i in range(8000)]}
    w = widget(qtbot, {"type": "text", "text": json.dumps(value)})
    assert isinstance(w, TextBlockWidget) and len(w.pane.full_text) > BIG_CHARS
    assert w.pane.highlighter is None and not w.pane.highlight_button.isHidden()
    w.pane.highlight_button.click()
    assert w.pane.highlighter is not None and w.pane.highlight_button.isHidden()
    assert json.loads(w.pane.text()) == value
    assert w.pane.edit.height() <= w.pane.edit.max_height


def test_huge_text_shows_a_part_first(qtbot) -> None:
    text = ("x" * 99 + "\n") * 25_000  # 2.5 MB
    w = widget(qtbot, {"type": "text", "text": text})
    assert isinstance(w, TextBlockWidget) and w.pane.truncated
    assert len(w.pane.text()) == PREVIEW_CHARS
    w.pane.all_button.click()
    qtbot.waitUntil(lambda: not w.pane.loading, timeout=60_000)
    assert w.pane.text() == text and not w.pane.truncated


def test_a_huge_line_is_never_wrapped(qtbot) -> None:
    w = widget(qtbot, {"type": "text", "text": "x" * (PREVIEW_CHARS + 10)})
    assert isinstance(w, TextBlockWidget) and w.pane.truncated and len(w.pane.text()) == PREVIEW_CHARS
    assert w.pane.edit.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap


def test_embedded_resource_variants(qtbot, tmp_path: Path) -> None:
    text = widget(qtbot, {"type": "resource", "resource": {"uri": "demo://notes.md", "text": "# Notes"}})
    assert isinstance(text, EmbeddedResourceWidget) and text.pane is not None and not text.pane.is_json
    text.save_to(tmp_path / "notes.md")
    assert (tmp_path / "notes.md").read_text() == "# Notes"
    blob = widget(
        qtbot,
        {
            "type": "resource",
            "resource": {"uri": "x://f.bin", "mimeType": "application/zip", "blob": b64(b"PK\x03\x04")},
        },
    )
    assert isinstance(blob, EmbeddedResourceWidget) and blob.viewer is None
    assert "blob · application/zip · 4 bytes" in blob.detail_label.text()
    broken = widget(qtbot, {"type": "resource", "resource": {"uri": "x://g", "blob": "@@"}})
    assert isinstance(broken, EmbeddedResourceWidget) and broken.error_tile is not None
    assert not broken.save_button.isEnabled()


def test_annotations_shown(qtbot) -> None:
    w = widget(qtbot, {"type": "text", "text": "t", "annotations": {"audience": ["assistant"], "priority": 0.9}})
    assert w.annotations_label.text() == "audience: assistant · priority 0.9"


def test_result_view_on_garbage_and_reuse(qtbot) -> None:
    view = ResultView()
    qtbot.addWidget(view)
    view.show()
    for result in (None, [], {"content": "nope", "isError": "yes"}, {"content": [None, 3, "x", {"type": "audio"}]}):
        view.show_result(result)
        assert view.finding_labels
    view.show_result(call_result({"type": "audio", "mimeType": "audio/wav", "data": b64(media.render_tone(300, 0.2))}))
    [audio] = view.blocks
    assert isinstance(audio, AudioBlockWidget)
    view.clear()
    assert view.blocks == [] and view.state == "empty" and view.raw_toggle.isHidden()


def test_factory_rejects_non_previews() -> None:
    with pytest.raises(TypeError):
        block_widget({"type": "text"})  # type: ignore[arg-type]


def test_safe_file_name() -> None:
    assert safe_file_name("demo://images/icon.png", "image/png", "resource") == "icon.png"
    assert safe_file_name("../../etc/passwd", None, "resource") == "passwd.bin"
    assert safe_file_name(None, "audio/wav", "audio") == "audio.wav"
    assert safe_file_name("x://a/<b>", "text/plain", "r") == "b.txt"
