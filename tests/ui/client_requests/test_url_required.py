"""Error -32042 (URL elicitation required) from server-everything's trigger-url-elicitation: the window shows
the URL dialog for the elicitation the error carries, opens it only once confirmed, and says to call again."""

from __future__ import annotations

from ui_support import connect

from inspector.config.profile import ServerProfile
from inspector.core.history import PROTOCOL_ERROR
from inspector.ui.client_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.main_window import MainWindow

URL = "https://example.com/authorize?step=1"
PREREQUISITE = "https://modelcontextprotocol.io"  # the page server-everything's -32042 asks for first


def test_error_32042_offers_the_url_dialog(qtbot, window: MainWindow, everything: str) -> None:
    profile = ServerProfile(name="everything", transport="stdio", command="node", args=[everything, "stdio"])
    connect(qtbot, window, profile)
    opened: list[str] = []
    window.client_requests.opener = lambda url: opened.append(url) or True
    dialogs: list = []
    window.client_requests.dialogOpened.connect(dialogs.append)
    messages: list[str] = []
    window.client_requests.statusMessage.connect(messages.append)
    bench = window.workbench
    qtbot.waitUntil(lambda: bench.tools.select("trigger-url-elicitation"), timeout=30000)
    assert not bench.form.set_arguments({"url": URL, "message": "Sign in first", "errorPath": True})
    record = bench.call_current()
    assert record is not None
    qtbot.waitUntil(lambda: record.done, timeout=30000)
    assert record.outcome == PROTOCOL_ERROR and record.error.code == -32042
    qtbot.waitUntil(lambda: bool(dialogs), timeout=30000)
    dialog = dialogs[0]
    assert isinstance(dialog, ElicitationDialog) and dialog.mode == "url" and dialog.isVisible()
    assert "error -32042" in dialog.intro.text() and "trigger-url-elicitation" in dialog.intro.text()
    assert dialog.url_view.toPlainText() == PREREQUISITE
    assert dialog.message.text() == "Open this link to satisfy the prerequisite, then retry the request."
    assert not dialog.open_button.isEnabled() and opened == []  # nothing opens before the user confirms
    dialog.confirm.setChecked(True)
    dialog.open_button.click()
    assert opened == [PREREQUISITE]
    qtbot.waitUntil(lambda: any("call trigger-url-elicitation again" in m for m in messages), timeout=10000)
    # Called again, as the status bar says: the server goes on (here with an elicitation/create for the URL)
    again = bench.call_current()
    qtbot.waitUntil(lambda: len(dialogs) == 2, timeout=30000)
    assert "elicitation/create" in dialogs[1].intro.text() and dialogs[1].url_view.toPlainText() == URL
    dialogs[1].decline_button.click()
    qtbot.waitUntil(lambda: again.done, timeout=30000)
    assert "declined" in again.result["content"][0]["text"]
