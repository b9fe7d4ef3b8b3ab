"""Windows kept inside the screen: a first size chosen for a big screen, or a geometry saved on one, would
otherwise run past the edge of a 1024×700 screen."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

FRAME_ALLOWANCE = (16, 48)  # a window manager's frame and title bar, unknown before the first show


def fit_screen(window: QWidget) -> None:
    """Keep `window` (and room for its title bar and frame) inside its screen's available area."""
    if window.isMaximized() or window.isFullScreen():
        return
    screen = window.screen().availableGeometry()
    room = screen.adjusted(0, 0, -FRAME_ALLOWANCE[0], -FRAME_ALLOWANCE[1])
    if room.width() >= window.width() and room.height() >= window.height() and screen.contains(window.frameGeometry()):
        return
    window.resize(min(window.width(), room.width()), min(window.height(), room.height()))
    left = min(max(window.x(), screen.left()), screen.right() - window.width() - FRAME_ALLOWANCE[0])
    top = min(max(window.y(), screen.top()), screen.bottom() - window.height() - FRAME_ALLOWANCE[1])
    window.move(max(left, screen.left()), max(top, screen.top()))
