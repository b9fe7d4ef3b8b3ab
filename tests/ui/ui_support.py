"""Helpers for the UI tests."""

from __future__ import annotations

from pathlib import Path

from lens_support import DEMO, REPO

from inspector.config.profile import ServerProfile

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def screenshot(widget, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    assert widget.grab().save(str(path)), f"could not save {path}"
    return path


DEMO_PROFILE = ServerProfile(
    name="Demo server", transport="stdio", command=DEMO[0], args=DEMO[1:], env={"PYTHONPATH": str(REPO)}
)


def connect(qtbot, win, profile: ServerProfile = DEMO_PROFILE) -> None:
    """Connect the window and wait until the workbench lists the server's tools."""
    win.connect_profile(profile)
    qtbot.waitUntil(lambda: win.session.state in ("connected", "failed"), timeout=30000)
    assert win.session.state == "connected", win.session.detail
    qtbot.waitUntil(lambda: win.workbench.tools.model.rowCount() > 0, timeout=10000)


def dark_palette():
    """A dark palette for screenshots that check contrast in a dark theme."""
    from PySide6.QtGui import QColor, QPalette

    palette = QPalette()
    for role, color in {
        QPalette.ColorRole.Window: "#1f2328",
        QPalette.ColorRole.WindowText: "#e6edf3",
        QPalette.ColorRole.Base: "#0d1117",
        QPalette.ColorRole.AlternateBase: "#161b22",
        QPalette.ColorRole.Text: "#e6edf3",
        QPalette.ColorRole.Button: "#262c36",
        QPalette.ColorRole.ButtonText: "#e6edf3",
        QPalette.ColorRole.Highlight: "#1f6feb",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#8b949e",
        QPalette.ColorRole.ToolTipBase: "#262c36",
        QPalette.ColorRole.ToolTipText: "#e6edf3",
        QPalette.ColorRole.Link: "#58a6ff",
    }.items():
        palette.setColor(role, QColor(color))
    return palette
