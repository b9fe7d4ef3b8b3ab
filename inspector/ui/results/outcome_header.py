"""The frame that result-like views share: a bold outcome line with its detail, the collapsed
"Raw … JSON" toggle, and the scroll area around the content."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QToolButton, QWidget

from inspector.core.errors import Failure
from inspector.ui.results.common import STYLES
from inspector.ui.widgets.plain_text import plain_label


def status_header(text: str, parent: QWidget) -> tuple[QLabel, QLabel, QHBoxLayout]:
    """A bold status label showing `text`, an empty detail label beside it, and the row holding both."""
    status = plain_label(text, parent, wrap=False, selectable=True)
    font = status.font()
    font.setBold(True)
    status.setFont(font)
    detail = plain_label("", parent, wrap=True, selectable=True)
    header = QHBoxLayout()
    header.addWidget(status)
    header.addWidget(detail, 1)
    return status, detail, header


def show_status(status: QLabel, detail: QLabel, state: str, title: str, text: str) -> None:
    """`title` in the status label, styled for `state` (a key of STYLES, else unstyled); `text` beside it."""
    status.setText(title)
    style = STYLES.get(state, "")
    status.setStyleSheet(f"QLabel {{ {style} }}" if style else "")
    detail.setText(text)


FAILURE_STYLES = {  # a failure on our side or of the connection: not the server's red JSON-RPC error
    "client": "background:#eef1f5; color:#2f3b4c; border:1px solid #b8c2d0; border-radius:4px; padding:4px 8px;",
    "connection": "background:#fdecea; color:#7a1c16; border:1px solid #e0908a; border-radius:4px; padding:4px 8px;",
}


def show_failure(status: QLabel, detail: QLabel, failure: Failure) -> None:
    """A request that failed without a server error (cancelled, timed out, connection lost, crashed):
    what happened in the status label, styled for whose side it was on; more beside it."""
    status.setText(failure.title)
    style = FAILURE_STYLES.get(failure.side) or STYLES["protocol_error"]
    status.setStyleSheet(f"QLabel {{ {style} }}")
    detail.setText(failure.detail)


def raw_toggle(parent: QWidget | None = None) -> QToolButton:
    """The checkable "Raw result JSON" button with a right arrow (collapsed)."""
    toggle = QToolButton(parent)
    toggle.setText("Raw result JSON")
    toggle.setCheckable(True)
    toggle.setAutoRaise(True)
    toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    toggle.setArrowType(Qt.ArrowType.RightArrow)
    return toggle


def collapse_raw_toggle(toggle: QToolButton) -> None:
    """Unchecked, arrow right and hidden, without emitting `toggled`."""
    toggle.blockSignals(True)
    toggle.setChecked(False)
    toggle.setArrowType(Qt.ArrowType.RightArrow)
    toggle.blockSignals(False)
    toggle.hide()


def scroll_area(content: QWidget, parent: QWidget) -> QScrollArea:
    """A frameless scroll area that resizes `content` to its width."""
    scroll = QScrollArea(parent)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(content)
    return scroll
