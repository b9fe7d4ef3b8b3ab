"""Small layout builders that the tabs share: named splitters, a margin-less column, a pane title."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSplitter, QVBoxLayout, QWidget

from inspector.ui.widgets.plain_text import plain_label


def named_splitter(
    name: str,
    *widgets: QWidget,
    sizes: list[int],
    vertical: bool = False,
    stretch: tuple[int, ...] = (),
) -> QSplitter:
    """A splitter named `name` (its QSettings key, its test handle) holding `widgets` at `sizes`;
    `stretch` gives each widget's stretch factor, in order (none: Qt's defaults)."""
    split = QSplitter(Qt.Orientation.Vertical) if vertical else QSplitter()
    split.setObjectName(name)
    for widget in widgets:
        split.addWidget(widget)
    for index, factor in enumerate(stretch):
        split.setStretchFactor(index, factor)
    split.setSizes(sizes)
    return split


def bare_column() -> tuple[QWidget, QVBoxLayout]:
    """A widget with a vertical layout without margins, to put a stack of rows into a splitter."""
    widget = QWidget()
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    return widget, layout


def title_label(scale: float = 1.2) -> QLabel:
    """A bold plain-text label, `scale` times the normal size, for the name of what a pane shows."""
    label = plain_label(wrap=True, selectable=True)
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(True)
    label.setFont(font)
    return label


def buddy_label(text: str, widget: QWidget) -> QLabel:
    """A plain-text label for `widget` that also names it (its accessible name, Alt+mnemonic focus)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setBuddy(widget)
    widget.setAccessibleName(text.replace("&", ""))
    return label


def scrolled(widget: QWidget) -> QScrollArea:
    """`widget` in a frameless scroll area: a tall panel scrolls instead of raising the window's minimum height."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area
