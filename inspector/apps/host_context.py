"""What an app is told about its host at `ui/initialize` (`hostContext`), from this machine's settings."""

from __future__ import annotations

import locale
import os
from pathlib import Path
from typing import Any

ZONEINFO = "zoneinfo/"


def system_locale() -> str | None:
    """The user's locale as a BCP 47 tag ("en-US"), or None if unset."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").split(".")[0]
        if value and value not in ("C", "POSIX"):
            return value.replace("_", "-")
    tag = locale.getlocale()[0]
    return tag.replace("_", "-") if tag and tag not in ("C", "POSIX") else None


def system_time_zone() -> str | None:
    """The IANA time zone ("Europe/Lisbon"): $TZ, else /etc/localtime's target, else /etc/timezone."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz and "/" in tz and not tz.startswith("/"):
        return tz
    try:
        target = str(Path("/etc/localtime").resolve())
        if ZONEINFO in target:
            return target.split(ZONEINFO, 1)[1]
        return Path("/etc/timezone").read_text().strip() or None
    except OSError:
        return None


def default_host_context(
    *,
    theme: str = "light",
    width: int | None = None,
    max_height: int | None = None,
    locale_tag: str | None = None,
    time_zone: str | None = None,
) -> dict[str, Any]:
    """The context an app is initialised with: theme, the container's size, and the locale and time zone
    (given, e.g. by Qt, or else read from this machine's settings) when known."""
    context: dict[str, Any] = {"theme": theme}
    dimensions: dict[str, int] = {}
    if width is not None:
        dimensions["width"] = width
    if max_height is not None:
        dimensions["maxHeight"] = max_height
    if dimensions:
        context["containerDimensions"] = dimensions
    if found := locale_tag or system_locale():
        context["locale"] = found
    if found := time_zone or system_time_zone():
        context["timeZone"] = found
    return context
