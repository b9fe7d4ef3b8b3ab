"""Resource blocks: a link (read on request through the workbench, never opened in a browser) and an
embedded resource (its text, or its blob with Save…)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFormLayout, QWidget

from inspector.config.files import utf8, write_atomic
from inspector.content import EmbeddedResourcePreview, ResourceLinkPreview, human_size
from inspector.ui.results.common import BlockWidget, ErrorTile, ask_and_save, safe_file_name
from inspector.ui.results.image_block import ImageViewer
from inspector.ui.results.text_block import TextPane, display_text
from inspector.ui.widgets.plain_text import plain_label


def _form(parent: QWidget, rows: list[tuple[str, str | None]]) -> tuple[QFormLayout, dict[str, str]]:
    form = QFormLayout()
    form.setContentsMargins(0, 0, 0, 0)
    form.setHorizontalSpacing(12)
    form.setVerticalSpacing(2)
    shown = {}
    for name, value in rows:
        if value is not None:
            form.addRow(
                plain_label(name, parent, wrap=False, selectable=True),
                plain_label(value, parent, wrap=True, selectable=True),
            )
            shown[name] = value
    return form, shown


class ResourceLinkWidget(BlockWidget):
    """A `resource_link` block. "Read resource" emits `readResourceRequested(uri)`."""

    readResourceRequested = Signal(str)

    def __init__(self, preview: ResourceLinkPreview, parent: QWidget | None = None) -> None:
        super().__init__(preview, "Resource link", preview.mime_type or "", parent)
        self.uri = preview.uri
        size = f"{human_size(preview.size)} ({preview.size:,} bytes)" if preview.size is not None else None
        form, self.fields = _form(
            self,
            [
                ("URI", preview.uri if preview.uri is not None else "(missing)"),
                ("Name", preview.name),
                ("Title", preview.title),
                ("Description", preview.description),
                ("MIME type", preview.mime_type),
                ("Size", size),
            ],
        )
        self.body.addLayout(form)
        self.copy_button = self.add_action("Copy URI", lambda: QGuiApplication.clipboard().setText(self.uri or ""))
        self.read_button = self.add_action("Read resource", self.request_read)
        for button in (self.copy_button, self.read_button):
            button.setEnabled(bool(preview.uri))

    def request_read(self) -> None:
        if self.uri:
            self.readResourceRequested.emit(self.uri)


class EmbeddedResourceWidget(BlockWidget):
    """A `resource` block: text (JSON highlighted) or blob (an image is shown; any blob can be saved)."""

    def __init__(self, preview: EmbeddedResourcePreview, parent: QWidget | None = None) -> None:
        super().__init__(preview, "Embedded resource", preview.mime_type or "", parent)
        self.data: bytes | None = None
        self.pane: TextPane | None = None
        self.viewer: ImageViewer | None = None
        self.error_tile: ErrorTile | None = None
        form, self.fields = _form(self, [("URI", preview.uri if preview.uri is not None else "(missing)")])
        self.body.addLayout(form)
        payload = preview.payload
        if preview.text is not None:
            text = display_text(preview.text, preview.is_json, preview.json_value)
            self.pane = TextPane(text, is_json=preview.is_json, show_copy=False, parent=self)
            self.body.addWidget(self.pane)
            self.add_action("Copy", self.pane.copy)
            self.detail_label.setText(f"{preview.mime_type or 'text'} · {len(preview.text):,} characters")
        elif payload is not None and payload.data is not None:
            self.data = payload.data
            kind = payload.sniffed_mime or preview.mime_type or ""
            if kind.startswith("image/"):
                viewer = ImageViewer(payload.data, self, max_height=240)
                if viewer.loaded:
                    self.viewer = viewer
                    self.body.addWidget(viewer)
                else:
                    viewer.deleteLater()
            info = [f"blob · {preview.mime_type or 'no mimeType'} · {human_size(payload.byte_size)}"]
            if payload.mime_mismatch:
                info.append(f"actually {payload.sniffed_mime}")
            if self.viewer is not None:
                info.append("{} × {}".format(*self.viewer.image_size))
            elif preview.blob_text is not None:  # a textual blob (text/plain, JSON, …): shown decoded
                text = display_text(preview.blob_text, preview.is_json, preview.json_value)
                self.pane = TextPane(text, is_json=preview.is_json, show_copy=False, parent=self)
                self.body.addWidget(self.pane)
                self.add_action("Copy", self.pane.copy)
                info.append(f"shown decoded as UTF-8, {len(preview.blob_text):,} characters")
            self.detail_label.setText(" · ".join(info))
        else:
            reason = preview.error or (payload.error if payload else None) or "nothing to show"
            size = payload.byte_size if payload else None
            self.error_tile = ErrorTile(f"The resource cannot be shown: {reason}", size, self)
            self.body.addWidget(self.error_tile)
        self.save_button = self.add_action("Save…", self._save_dialog)
        self.save_button.setEnabled(self.saveable_bytes() is not None)

    def saveable_bytes(self) -> bytes | None:
        """The blob, or the text as UTF-8."""
        text = self.preview.text  # type: ignore[attr-defined]
        return self.data if self.data is not None else (utf8(text) if text is not None else None)

    def save_to(self, path: str | Path) -> None:
        """Write the resource's bytes (the blob as decoded, or the text as UTF-8) to `path`."""
        data = self.saveable_bytes()
        if data is None:
            raise ValueError("the resource has no content to save")
        write_atomic(path, data)

    def _save_dialog(self) -> None:
        data = self.saveable_bytes()
        if data is not None:
            preview: EmbeddedResourcePreview = self.preview  # type: ignore[assignment]
            ask_and_save(self, data, safe_file_name(preview.uri, preview.mime_type, "resource"))
