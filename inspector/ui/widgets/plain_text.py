"""The one way to put server text on screen: labels, tooltips (widget and model role), titles, message boxes.

Qt reads a QLabel's, a tooltip's or a QMessageBox's text as rich text when it *looks* like HTML
(`Qt.mightBeRichText`): a server's `<img src="file:///…">` is then loaded, on the UI thread. Everything
here shows untrusted text literally, with control, bidi and invisible characters made visible
(`inspector.content.visible`), and cut to a length that lays out quickly.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from inspector.content.visible import visible

LABEL_CHARS = 2000  # server strings longer than this are cut in labels (the raw JSON has them whole)
TOOLTIP_CHARS = 2000  # a 1 MB tooltip stalls the window: past this a tooltip is cut
TITLE_CHARS = 200  # tab, button, action and window titles
MESSAGE_CHARS = 20_000  # a message box's text (a question may quote the whole arguments it would send)


def clip(text: str, limit: int = LABEL_CHARS) -> str:
    """`text` shortened to `limit` characters, saying how much was left out."""
    return text if len(text) <= limit else f"{text[:limit]}… [{len(text) - limit:,} more characters]"


def shown(text: Any, *, limit: int = LABEL_CHARS, one_line: bool = False) -> str:
    """Server text as it may appear in a plain-text place (item text, status bar, field): cut and visible."""
    return visible(clip(text if isinstance(text, str) else str(text), limit), one_line=one_line)


def item_text(text: Any) -> str:
    """Server text as one item of a list, combo box or table: one visible line, cut."""
    return shown(text, limit=TITLE_CHARS, one_line=True)


def set_plain(label: QLabel, text: Any, *, limit: int = LABEL_CHARS, one_line: bool = False) -> None:
    """Show `text` in `label` literally (never as rich text), cut and with invisible characters visible."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(shown(text, limit=limit, one_line=one_line))


class PlainLabel(QLabel):
    """A QLabel that can only ever show plain text: every `setText` is cut and made visible."""

    def __init__(
        self, text: Any = "", parent: QWidget | None = None, *, limit: int = LABEL_CHARS, one_line: bool = False
    ) -> None:
        super().__init__(parent)
        self._limit, self._one_line = limit, one_line
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)

    def setText(self, text: Any) -> None:
        super().setText(shown(text, limit=self._limit, one_line=self._one_line))

    def setTextFormat(self, _format: Qt.TextFormat) -> None:
        super().setTextFormat(Qt.TextFormat.PlainText)  # never anything else


def plain_label(
    text: Any = "",
    parent: QWidget | None = None,
    *,
    wrap: bool = False,
    selectable: bool = False,
    limit: int = LABEL_CHARS,
    one_line: bool = False,
    style: str = "",
    dim: bool = False,
) -> QLabel:
    """A QLabel that can only ever show plain text (see `PlainLabel`); `style` is its style sheet's body."""
    label = PlainLabel(text, parent, limit=limit, one_line=one_line)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(wrap)
    if style:
        label.setStyleSheet(f"QLabel {{ {style} }}")
    if dim:
        set_dim(label)
    return label


def set_dim(widget: QWidget) -> None:
    """Draw `widget`'s text in a fainter shade of its palette's colour."""
    palette = widget.palette()
    colour = palette.color(QPalette.ColorRole.WindowText)
    colour.setAlpha(150)
    palette.setColor(QPalette.ColorRole.WindowText, colour)
    widget.setPalette(palette)


def safe_tooltip(text: Any, *, limit: int = TOOLTIP_CHARS) -> str:
    """A tooltip string (for `setToolTip` or a model's ToolTipRole) that Qt shows literally.

    Text Qt would take for rich text is escaped into a `white-space:pre-wrap` paragraph: only our own
    markup is ever interpreted. The decision is Qt's own (`Qt.mightBeRichText`, what QToolTip asks).
    """
    value = shown(text, limit=limit)
    if not QtGui.mightBeRichText(value):
        return value
    return f"<p style='white-space:pre-wrap'>{html.escape(value, quote=False)}</p>"


def plain_tooltip(title: str, body: Any) -> str:
    """A tooltip of our own `title` over untrusted `body` (the fixed first line keeps it plain text)."""
    return safe_tooltip(f"{title}:\n{body if isinstance(body, str) else str(body)}")


def safe_title(text: Any, *, limit: int = TITLE_CHARS) -> str:
    """One line for a tab, button, action or menu title: visible, cut, `&` not taken for a shortcut key."""
    return shown(text, limit=limit, one_line=True).replace("&", "&&")


def window_title(text: Any, *, limit: int = TITLE_CHARS) -> str:
    """A window title: one visible line, cut (`[*]` is Qt's modified mark: shown as brackets around a star)."""
    return shown(text, limit=limit, one_line=True).replace("[*]", "[\u2217]")


def set_message(box: QMessageBox, text: Any, informative: Any = "") -> None:
    """Set a message box's text (and informative text) as plain text: the format first, then the text."""
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(shown(text, limit=MESSAGE_CHARS))
    if informative:
        box.setInformativeText(shown(informative, limit=MESSAGE_CHARS))


def plain_message_box(
    icon: QMessageBox.Icon,
    title: str,
    text: Any,
    parent: QWidget | None = None,
    *,
    informative: Any = "",
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
) -> QMessageBox:
    """A QMessageBox whose text is plain text (never passed to the constructor, which would read it as
    rich text before the format is set)."""
    box = QMessageBox(icon, window_title(title), "", buttons, parent)
    set_message(box, text, informative)
    return box
