"""The host context an app is initialised with: theme from the palette, locale and time zone from Qt."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLocale, QTimeZone
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget

from inspector.apps.host_context import default_host_context

MIN_HEIGHT = 120  # the least and most height an app may ask for (ui/notifications/size-changed)
MAX_HEIGHT = 1600


def theme_of(palette: QPalette) -> str:
    """ "dark" when the window's background is darker than its text, else "light"."""
    window = palette.color(QPalette.ColorRole.Window).lightness()
    text = palette.color(QPalette.ColorRole.WindowText).lightness()
    return "dark" if window < text else "light"


def host_context(widget: QWidget) -> dict[str, Any]:
    """Theme, locale, time zone and the space the app has, from `widget` and Qt's view of the system."""
    zone = bytes(QTimeZone.systemTimeZoneId().data()).decode(errors="replace")
    context = default_host_context(
        theme=theme_of(widget.palette()),
        width=max(widget.width(), 1),
        max_height=MAX_HEIGHT,
        locale_tag=QLocale().bcp47Name() or "en",
        time_zone=zone or None,
    )
    context["deviceCapabilities"] = {"touch": False, "hover": True}  # a desktop: a mouse, no touch
    return context


def clamp_height(height: int | None) -> int | None:
    """The height the view takes for an app's asked `height` (None: leave it as it is)."""
    return None if height is None else max(MIN_HEIGHT, min(MAX_HEIGHT, height))
