"""Screenshots of the servers panel and the profile dialog, kept in tests/artifacts/ for review."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from ui_support import ARTIFACTS, dark_palette

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.servers.panel import ServersPanel
from inspector.ui.servers.profile_dialog import ProfileDialog

EXAMPLES = Path(__file__).resolve().parents[2] / "config" / "examples"


def _panel(qtbot, tmp_path: Path) -> ServersPanel:
    ARTIFACTS.mkdir(exist_ok=True)
    demo = ServerProfile(name="Demo server", command="python", args=["-m", "inspector.demo"])
    panel = ServersPanel(ProfileStore(tmp_path / "servers.json"), demo)
    qtbot.addWidget(panel)
    panel.load()
    dialog = panel.import_file(EXAMPLES / "claude-code" / ".mcp.json")
    dialog.resize(640, 460)
    qtbot.waitExposed(dialog)
    assert dialog.grab().save(str(ARTIFACTS / "servers_import_dialog.png"))
    dialog.accept()
    panel.store.add(ServerProfile(name='<img src="file:///etc/passwd">', command="<b>not bold</b>"))
    panel.refresh(select="api-server")
    panel.set_state("Demo server", "connected")
    panel.set_state("github", "connecting")
    panel.set_state("asana", "failed")
    panel.resize(300, 520)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_panel_screenshots_light_and_dark(qtbot, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    panel = _panel(qtbot, tmp_path)
    assert panel.grab().save(str(ARTIFACTS / "servers_panel.png"))
    app = QApplication.instance()
    light = app.palette()
    try:
        app.setPalette(dark_palette())
        QApplication.processEvents()
        assert panel.grab().save(str(ARTIFACTS / "servers_panel_dark.png"))
    finally:
        app.setPalette(light)
        QApplication.processEvents()


def test_profile_dialog_screenshots(qtbot) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    stdio = ServerProfile(
        name="github",
        command="npx",
        args=["-y", "@modelcontextprotocol/server-github"],
        env={"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_example", "LOG_LEVEL": "info"},
    )
    dialog = ProfileDialog(stdio, ["github", "other"])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.name_edit.setText("other")
    dialog.accept()  # shows the inline error
    assert dialog.grab().save(str(ARTIFACTS / "profile_dialog_stdio.png"))

    http = ServerProfile(
        name="api",
        transport="http",
        url="https://api.example.com/mcp",
        headers={"X-Team": "platform"},
        bearer_token="secret-token",
    )
    dialog = ProfileDialog(http, [])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.grab().save(str(ARTIFACTS / "profile_dialog_http.png"))
