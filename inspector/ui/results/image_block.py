"""Image blocks: a zoomable pixmap viewer (Fit / Zoom in / Zoom out / Actual size) with Save…."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from inspector.config.files import write_atomic
from inspector.content import ImagePreview, human_size
from inspector.ui.results.common import BlockWidget, ErrorTile, ask_and_save, safe_file_name
from inspector.ui.widgets.plain_text import plain_label

MAX_VIEW_HEIGHT = 360  # the viewer never gets taller than this; bigger images scroll or fit
MAX_UPSCALE = 8.0
ZOOM_STEP = 1.25


class ImageViewer(QWidget):
    """A pixmap from bytes in a scroll area; starts at 100 %, or fitted when the image is larger than the box."""

    def __init__(self, data: bytes, parent: QWidget | None = None, *, max_height: int = MAX_VIEW_HEIGHT) -> None:
        super().__init__(parent)
        self.pixmap = QPixmap()
        self.loaded = self.pixmap.loadFromData(data)
        self.max_height = max_height
        self.zoom = 1.0
        self._fitting = True  # follow the width while nobody has zoomed by hand
        self._upscale = False  # the initial fit only shrinks; the Fit button may enlarge
        self.image_label = QLabel()
        self.image_label.setTextFormat(Qt.TextFormat.PlainText)
        self.image_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea(self)
        self.scroll.setWidget(self.image_label)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll.setWidgetResizable(False)
        self.buttons: dict[str, QPushButton] = {}
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for key, text, slot in (
            ("fit", "Fit", self.fit),
            ("in", "Zoom in", self.zoom_in),
            ("out", "Zoom out", self.zoom_out),
            ("actual", "Actual size", self.actual_size),
        ):
            button = QPushButton(text, self)
            button.setAutoDefault(False)
            button.clicked.connect(slot)
            bar.addWidget(button)
            self.buttons[key] = button
        self.zoom_label = plain_label("100 %", self, wrap=False, selectable=True)
        bar.addWidget(self.zoom_label)
        bar.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.scroll)
        layout.addLayout(bar)
        self._apply()

    @property
    def image_size(self) -> tuple[int, int]:
        return self.pixmap.width(), self.pixmap.height()

    def fit_scale(self) -> float:
        """The zoom at which the whole image fits the viewer's width and maximum height."""
        width, height = self.image_size
        if not width or not height:
            return 1.0
        frame = 2 * self.scroll.frameWidth()
        available = max(16, self.scroll.width() - frame)
        return min(available / width, (self.max_height - frame) / height, MAX_UPSCALE)

    def fit(self) -> None:
        self._fitting, self._upscale = True, True
        self._apply()

    def actual_size(self) -> None:
        self._fitting = False
        self.set_zoom(1.0)

    def zoom_in(self) -> None:
        self._fitting = False
        self.set_zoom(self.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self._fitting = False
        self.set_zoom(self.zoom / ZOOM_STEP)

    def set_zoom(self, zoom: float) -> None:
        self.zoom = max(0.02, min(zoom, 64.0))
        self._render()

    def _apply(self) -> None:
        if self._fitting:
            scale = self.fit_scale()
            self.zoom = scale if self._upscale else min(1.0, scale)
        self._render()

    def _render(self) -> None:
        width, height = self.image_size
        if not width or not height:
            return
        target_w, target_h = max(1, round(width * self.zoom)), max(1, round(height * self.zoom))
        if (target_w, target_h) == (width, height):
            shown = self.pixmap
        else:
            smooth = self.zoom < 2.0  # large enlargements keep hard pixel edges
            mode = Qt.TransformationMode.SmoothTransformation if smooth else Qt.TransformationMode.FastTransformation
            shown = self.pixmap.scaled(target_w, target_h, Qt.AspectRatioMode.IgnoreAspectRatio, mode)
        self.image_label.setPixmap(shown)
        self.image_label.resize(shown.size())
        frame = 2 * self.scroll.frameWidth()
        bar = self.scroll.horizontalScrollBar().sizeHint().height() if target_w > self.scroll.width() - frame else 0
        self.scroll.setFixedHeight(min(target_h + frame + bar, self.max_height))
        self.zoom_label.setText(f"{self.zoom * 100:.0f} %")

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if self._fitting:
            self._apply()


class ImageBlockWidget(BlockWidget):
    """An `image` block: the picture, its dimensions, byte size and MIME type, and Save…."""

    def __init__(self, preview: ImagePreview, parent: QWidget | None = None) -> None:
        payload = preview.payload
        super().__init__(preview, "Image", "", parent)
        self.data = payload.data
        self.viewer: ImageViewer | None = None
        self.error_tile: ErrorTile | None = None
        if payload.data is not None:
            viewer = ImageViewer(payload.data, self)
            if viewer.loaded:
                self.viewer = viewer
                self.body.addWidget(viewer)
            else:
                viewer.deleteLater()
                sniffed = payload.sniffed_mime or "an unrecognised format"
                reason = f"The image could not be decoded (the bytes look like {sniffed})."
                self.error_tile = ErrorTile(reason, payload.byte_size, self)
        else:
            self.error_tile = ErrorTile(f"The image cannot be shown: {payload.error}", payload.byte_size, self)
        if self.error_tile is not None:
            self.body.addWidget(self.error_tile)
        parts = []
        if self.viewer is not None:
            parts.append("{} × {}".format(*self.viewer.image_size))
        parts.append(human_size(payload.byte_size))
        parts.append(preview.mime_type or "no mimeType")
        if payload.mime_mismatch:
            parts.append(f"actually {payload.sniffed_mime}")
        self.detail_label.setText(" · ".join(parts))
        self.save_button = self.add_action("Save…", self._save_dialog)
        self.save_button.setEnabled(self.data is not None)

    def save_to(self, path: str | Path) -> None:
        """Write the decoded bytes, exactly as received, to `path`."""
        if self.data is None:
            raise ValueError("no decoded image data to save")
        write_atomic(path, self.data)

    def _save_dialog(self) -> None:
        if self.data is not None:
            payload = self.preview.payload  # type: ignore[attr-defined]
            ask_and_save(self, self.data, safe_file_name(None, payload.sniffed_mime or payload.declared_mime, "image"))
