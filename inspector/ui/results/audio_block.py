"""Audio blocks: QMediaPlayer over the decoded bytes (a QBuffer), play/pause, position, Save….

Without a sound device (CI, offscreen, no PulseAudio) the media is still loaded, so the duration shows;
Play is disabled with a note until a device appears.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QUrl
from PySide6.QtMultimedia import QAudioOutput, QMediaDevices, QMediaPlayer
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSlider, QWidget

from inspector.config.files import write_atomic
from inspector.content import AudioPreview, extension_for, human_size
from inspector.ui.results.common import STYLES, BlockWidget, ErrorTile, ask_and_save, safe_file_name
from inspector.ui.widgets.plain_text import plain_label

NO_DEVICE_NOTE = "No audio output device: playback is unavailable here. Save the file to listen elsewhere."


def format_ms(ms: int) -> str:
    """90500 → ``1:30.5``."""
    ms = max(0, ms)
    minutes, rest = divmod(ms, 60_000)
    return f"{minutes}:{rest / 1000:04.1f}"


class AudioBlockWidget(BlockWidget):
    """An `audio` block; `player` is None when there is nothing decodable to play."""

    def __init__(self, preview: AudioPreview, parent: QWidget | None = None) -> None:
        super().__init__(preview, "Audio", "", parent)
        payload = preview.payload
        self.data = payload.data
        self.player: QMediaPlayer | None = None
        self.buffer: QBuffer | None = None
        self.audio_output: QAudioOutput | None = None
        self.error_tile: ErrorTile | None = None
        self.media_duration_ms = 0  # what the media backend reported
        self.wav_duration_ms = round(preview.wav.duration_s * 1000) if preview.wav else 0
        self.play_button = QPushButton("Play", self)
        self.play_button.setAutoDefault(False)
        self.play_button.clicked.connect(self.toggle)
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.sliderMoved.connect(self._seek)
        self.time_label = plain_label("", self, wrap=False, selectable=True)
        self.save_button = self.add_action("Save…", self._save_dialog)
        self.save_button.setEnabled(self.data is not None)
        row = QHBoxLayout()
        row.addWidget(self.play_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.time_label)
        self.note = plain_label("", self, style=STYLES["note"], wrap=True, selectable=True)
        self.note.hide()
        if payload.data is None:
            self.error_tile = ErrorTile(f"The audio cannot be played: {payload.error}", payload.byte_size, self)
            self.body.addWidget(self.error_tile)
            for widget in (self.play_button, self.slider, self.time_label):
                widget.hide()
        self.body.addLayout(row)
        self.body.addWidget(self.note)
        self.detail_label.setText(self._describe(preview))
        self._update_time(0)
        if payload.data is not None:
            self._load(payload.data, extension_for(payload.sniffed_mime or preview.mime_type, "audio"))

    @staticmethod
    def _describe(preview: AudioPreview) -> str:
        parts = [preview.mime_type or "no mimeType", human_size(preview.payload.byte_size)]
        if preview.wav:
            wav = preview.wav
            parts.append(f"{wav.sample_rate:,} Hz · {wav.channels} ch · {wav.sample_width * 8}-bit")
        elif preview.wav_error:
            parts.append(preview.wav_error)
        if preview.payload.mime_mismatch:
            parts.append(f"actually {preview.payload.sniffed_mime}")
        return " · ".join(parts)

    # -- media -------------------------------------------------------------------------------------------
    def _load(self, data: bytes, extension: str) -> None:
        self.buffer = QBuffer(self)
        self.buffer.setData(QByteArray(data))
        self.buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        self.player = QMediaPlayer(self)
        self.audio_output = QAudioOutput(self)
        self.player.setAudioOutput(self.audio_output)
        self.player.durationChanged.connect(self._on_duration)
        self.player.positionChanged.connect(self._update_time)
        self.player.playbackStateChanged.connect(self._on_state)
        self.player.errorOccurred.connect(self._on_error)
        self.devices = QMediaDevices(self)
        self.devices.audioOutputsChanged.connect(self._check_device)
        self._check_device()
        self.player.setSourceDevice(self.buffer, QUrl(f"block.{extension}"))  # the name only hints the format

    @property
    def playback_available(self) -> bool:
        return not QMediaDevices.defaultAudioOutput().isNull()

    @property
    def duration_ms(self) -> int:
        """The backend's duration once known, else the WAV header's."""
        return self.media_duration_ms or self.wav_duration_ms

    def _check_device(self) -> None:
        if self.audio_output is not None:
            self.audio_output.setDevice(QMediaDevices.defaultAudioOutput())
        available = self.playback_available
        self.play_button.setEnabled(available and self.player is not None)
        if not available:
            self._show_note(NO_DEVICE_NOTE)
        elif self.note.text() == NO_DEVICE_NOTE:
            self.note.hide()

    def _show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.show()

    def _on_duration(self, ms: int) -> None:
        if ms > 0:
            self.media_duration_ms = ms
        self._update_time(self.player.position() if self.player else 0)

    def _update_time(self, position: int) -> None:
        total = self.duration_ms
        self.slider.setRange(0, max(0, total))
        if not self.slider.isSliderDown():
            self.slider.setValue(position)
        self.time_label.setText(f"{format_ms(position)} / {format_ms(total) if total else '?'}")

    def _on_state(self, state: QMediaPlayer.PlaybackState) -> None:
        self.play_button.setText("Pause" if state == QMediaPlayer.PlaybackState.PlayingState else "Play")

    def _on_error(self, error: QMediaPlayer.Error, message: str) -> None:
        if error != QMediaPlayer.Error.NoError:
            self._show_note(f"Cannot play this audio: {message or error.name}")
            self.play_button.setEnabled(False)

    def _seek(self, position: int) -> None:
        if self.player is not None:
            self.player.setPosition(position)

    def toggle(self) -> None:
        """Play, or pause when playing."""
        if self.player is None:
            return
        if self.player.playbackState() == QMediaPlayer.PlaybackState.PlayingState:
            self.player.pause()
        else:
            self.player.play()

    def dispose(self) -> None:
        if self.player is not None:
            self.player.stop()
            self.player.setSource(QUrl())

    # -- saving ------------------------------------------------------------------------------------------
    def save_to(self, path: str | Path) -> None:
        """Write the decoded bytes, exactly as received, to `path`."""
        if self.data is None:
            raise ValueError("no decoded audio data to save")
        write_atomic(path, self.data)

    def _save_dialog(self) -> None:
        if self.data is not None:
            payload = self.preview.payload  # type: ignore[attr-defined]
            ask_and_save(self, self.data, safe_file_name(None, payload.sniffed_mime or payload.declared_mime, "audio"))
