"""ResultView on real results from the demo server (run through the CLI in a subprocess)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtMultimedia import QAudioDecoder, QMediaPlayer
from PySide6.QtWidgets import QLabel

from inspector.ui.results import (
    AudioBlockWidget,
    EmbeddedResourceWidget,
    ImageBlockWidget,
    ResourceLinkWidget,
    ResultView,
    TextBlockWidget,
    UnknownBlockWidget,
)

REPO = Path(__file__).resolve().parents[3]
ARTIFACTS = REPO / "tests" / "artifacts"


def cli(*args: str, expect: int = 0) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "inspector", "--cli", "--demo", *args]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=90, cwd=REPO)
    assert done.returncode == expect, done.stderr
    return done


def call(name: str, arguments: dict[str, Any], expect: int = 0) -> dict[str, Any]:
    done = cli("--method", "tools/call", "--tool-name", name, "--tool-args-json", json.dumps(arguments), expect=expect)
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def demo() -> dict[str, Any]:
    """Real demo results, fetched once for the module."""
    tools = json.loads(cli("--method", "tools/list").stdout)["tools"]
    return {
        "tools": {tool["name"]: tool for tool in tools},
        "image": call("generate_image", {"size": 96, "pattern": "rings"}),
        "tone": call("generate_tone", {"frequency": 440, "duration": 0.4}),
        "resources": call("show_resources", {}),
        "weather": call("get_weather", {"city": "Lisbon", "days": 2}),
        "tool_error": call("simulate_error", {"mode": "result"}, expect=5),
        "protocol_error": json.loads(
            cli(
                "--method", "tools/call", "--tool-name", "simulate_error", "--tool-args-json", '{"mode": "protocol"}',
                expect=4,
            ).stderr.strip().splitlines()[-1]
        ),
    }  # fmt: skip


def view_for(qtbot, result: dict[str, Any], tool: dict[str, Any] | None = None) -> ResultView:
    view = ResultView()
    qtbot.addWidget(view)
    view.resize(700, 700)
    view.show_result(result, tool)
    view.show()
    qtbot.waitExposed(view)
    return view


def assert_all_labels_plain(view: ResultView) -> None:
    for label in view.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText, label.text()


def test_image_result(qtbot, demo, tmp_path: Path) -> None:
    view = view_for(qtbot, demo["image"])
    assert view.state == "ok" and view.status_label.text() == "✓ OK"
    [block] = view.blocks
    assert isinstance(block, ImageBlockWidget) and block.viewer is not None
    assert not block.viewer.pixmap.isNull() and block.viewer.image_size == (96, 96)
    assert block.detail_label.text().startswith("96 × 96 · ")
    assert "image/png" in block.detail_label.text()
    viewer = block.viewer
    viewer.zoom_in()
    assert viewer.zoom == pytest.approx(1.25)
    assert viewer.image_label.pixmap().width() == 120
    viewer.actual_size()
    viewer.zoom_out()
    assert viewer.zoom == pytest.approx(0.8)
    viewer.fit()
    assert viewer.image_label.pixmap().height() <= viewer.max_height
    assert viewer.zoom > 1  # a small image is enlarged to fit the box
    target = tmp_path / "out.png"
    block.save_to(target)
    payload = block.preview.payload
    assert target.read_bytes() == payload.data
    assert_all_labels_plain(view)


def test_audio_result_loads_with_duration(qtbot, demo, tmp_path: Path) -> None:
    view = view_for(qtbot, demo["tone"])
    [block] = view.blocks
    assert isinstance(block, AudioBlockWidget) and block.player is not None
    assert block.wav_duration_ms == 400  # from the WAV header, before the backend answers
    qtbot.waitUntil(lambda: block.media_duration_ms > 0, timeout=15_000)
    assert abs(block.media_duration_ms - 400) <= 20
    assert block.time_label.text().endswith("/ 0:00.4")
    assert block.slider.maximum() == block.media_duration_ms
    if not block.playback_available:  # CI: no sound device, Play disabled with a note
        assert not block.play_button.isEnabled() and block.note.isVisibleTo(block)
    assert block.audio_output is not None
    block.audio_output.setMuted(True)
    block.player.play()  # runs on the clock even without a device
    qtbot.waitUntil(lambda: block.player.mediaStatus() == QMediaPlayer.MediaStatus.EndOfMedia, timeout=15_000)
    target = tmp_path / "tone.wav"
    block.save_to(target)
    assert target.read_bytes() == block.data


def test_audio_bytes_decode_with_qaudiodecoder(qtbot, demo) -> None:
    view = view_for(qtbot, demo["tone"])
    [block] = view.blocks
    assert isinstance(block, AudioBlockWidget) and block.data
    buffer = QBuffer()
    buffer.setData(QByteArray(block.data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    decoder = QAudioDecoder()
    decoder.setSourceDevice(buffer)
    frames: list[int] = []
    decoder.bufferReady.connect(lambda: frames.append(decoder.read().frameCount()))
    with qtbot.waitSignal(decoder.finished, timeout=15_000):
        decoder.start()
    assert sum(frames) == 22050 * 0.4 == block.preview.wav.frames


def test_resources_result(qtbot, demo, tmp_path: Path) -> None:
    view = view_for(qtbot, demo["resources"])
    kinds = [type(b) for b in view.blocks]
    link_type, embedded_type = ResourceLinkWidget, EmbeddedResourceWidget
    assert kinds == [TextBlockWidget, link_type, link_type, embedded_type, embedded_type]
    link = view.blocks[1]
    assert isinstance(link, ResourceLinkWidget)
    assert link.fields["URI"] == "demo://docs/guide" and link.fields["Title"] == "Demo server guide"
    with qtbot.waitSignal(view.readResourceRequested, timeout=2000) as signal:
        qtbot.mouseClick(link.read_button, Qt.MouseButton.LeftButton)
    assert signal.args == ["demo://docs/guide"]
    text_resource, blob_resource = view.blocks[3], view.blocks[4]
    assert isinstance(text_resource, EmbeddedResourceWidget) and text_resource.pane is not None
    assert text_resource.pane.is_json and text_resource.pane.highlighter is not None
    assert json.loads(text_resource.pane.text())["theme"] == "dark"
    assert isinstance(blob_resource, EmbeddedResourceWidget) and blob_resource.viewer is not None
    assert blob_resource.viewer.image_size == (16, 16)
    blob_resource.save_to(tmp_path / "icon.png")
    assert (tmp_path / "icon.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert_all_labels_plain(view)


def test_structured_content_valid(qtbot, demo) -> None:
    view = view_for(qtbot, demo["weather"], demo["tools"]["get_weather"])
    assert view.structured_box.isVisibleTo(view)
    assert view.structured_status.text() == "✓ valid against the tool's outputSchema"
    assert view.structured_pane is not None
    assert json.loads(view.structured_pane.text()) == demo["weather"]["structuredContent"]


def test_structured_content_violations_listed(qtbot, demo) -> None:
    tool = copy.deepcopy(demo["tools"]["get_weather"])
    schema = tool["outputSchema"]
    schema["properties"]["humidity"]["maximum"] = -1
    schema["properties"]["city"] = {"type": "integer"}
    schema["required"].append("wind_speed")
    view = view_for(qtbot, demo["weather"], tool)
    texts = [label.text() for label in view.structured_issue_labels]
    assert view.structured_status.text() == "✖ 3 problems against outputSchema"
    assert any("$.structuredContent.humidity" in t and "greater than the maximum of -1" in t for t in texts)
    assert any("$.structuredContent.city" in t and "is not of type 'integer'" in t for t in texts)
    assert any("'wind_speed' is a required property" in t for t in texts)


def test_tool_error_and_protocol_error_look_different(qtbot, demo) -> None:
    view = view_for(qtbot, demo["tool_error"])
    assert view.state == "tool_error"
    assert view.status_label.text() == "Tool error (isError: true)"
    assert len(view.blocks) == 2
    tool_style = view.status_label.styleSheet()
    error = demo["protocol_error"]
    view.show_protocol_error(error["code"], error["message"], error.get("data"))
    assert view.state == "protocol_error" and view.blocks == []
    assert view.status_label.text() == "JSON-RPC error -32602"
    assert "Simulated protocol error" in view.detail_label.text()
    assert view.status_label.styleSheet() != tool_style
    assert view.error_data_pane is not None and json.loads(view.error_data_pane.text()) == {"mode": "protocol"}
    view.raw_toggle.click()
    assert view.raw_pane is not None and json.loads(view.raw_pane.text())["code"] == -32602


def test_unknown_block_flagged_and_raw_toggle(qtbot, demo) -> None:
    result = copy.deepcopy(demo["image"])
    result["content"].append({"type": "video", "url": "https://example.com/v.mp4"})
    view = view_for(qtbot, result)
    unknown = view.blocks[-1]
    assert isinstance(unknown, UnknownBlockWidget)
    assert unknown.flag.text() == "Unknown content type 'video' — shown raw"
    assert json.loads(unknown.pane.text())["url"] == "https://example.com/v.mp4"
    assert any("unknown content type 'video'" in label.text() for label in view.finding_labels)
    assert view.raw_pane is None  # built on first expansion
    qtbot.mouseClick(view.raw_toggle, Qt.MouseButton.LeftButton)
    assert view.raw_pane is not None and view.raw_pane.isVisible()
    assert json.loads(view.raw_pane.text()) == result
    qtbot.mouseClick(view.raw_toggle, Qt.MouseButton.LeftButton)
    assert not view.raw_pane.isVisible()


def test_screenshot_media_result(qtbot, demo) -> None:
    result = {
        "content": [
            {"type": "text", "text": "A 96 px ring pattern and a 0.4 s concert A, as the demo server sent them."},
            *demo["image"]["content"],
            *demo["tone"]["content"],
            {"type": "text", "text": '{"pattern": "rings", "size": 96, "tone_hz": 440}'},
        ],
        "isError": False,
    }
    view = view_for(qtbot, result)
    audio = view.blocks[2]
    assert isinstance(audio, AudioBlockWidget)
    qtbot.waitUntil(lambda: audio.media_duration_ms > 0, timeout=15_000)
    qtbot.wait(100)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert view.grab().save(str(ARTIFACTS / "result_media.png"))
