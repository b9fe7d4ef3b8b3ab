"""The Auth tab in the real window against a real OAuth-protected MCP server."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtWidgets import QApplication
from ui_support import dark_palette, screenshot

from inspector.auth.errors import UnsafeURL
from inspector.config.profile import ServerProfile
from inspector.ui.auth.authorize_dialog import AuthorizeDialog, ask_to_open


def _rows(panel) -> list[tuple[str, str]]:
    return [(panel.steps.item(r, 1).text(), panel.steps.item(r, 2).text()) for r in range(panel.steps.rowCount())]


def test_401_brings_the_auth_tab_and_signs_in_then_reconnects(qtbot, window, oauth_server, browser, auth_home):
    assert window.tabs.tabText(window.tabs.indexOf(window.auth_panel)) == "Auth"
    shown: list[str] = []

    async def confirm(url: str) -> bool:
        shown.append(url)
        return True

    profile = ServerProfile(name="OAuth test", transport="http", url=oauth_server.url)
    window.connect_profile(profile)  # the sign-in starts once the loop runs: the panel is patched first
    panel = window.auth_panel  # the OAuth server's own Auth tab (each server in the workspace has one)
    panel.confirm = confirm
    panel.opener = browser
    qtbot.waitUntil(lambda: window.session.state == "connected", timeout=30000)
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() == 1, timeout=10000)
    assert window.tabs.currentWidget() is panel  # the 401 brought the tab forward
    assert shown and shown[0].startswith(f"http://127.0.0.1:{oauth_server.port}/authorize?")
    assert browser.opened == shown
    steps = [step for step, _ in _rows(panel)]
    for title in ("Discovery", "Registration", "Authorize", "Token exchange"):
        assert title in steps, steps
    assert panel.state_label.text().startswith("Signed in")
    assert "scopes: mcp" in panel.state_label.text()
    token = panel.current.storage.tokens().access_token
    assert token not in panel.state_label.text()

    # The token exchange row shows its HTTP exchange, redacted.
    row = next(r for r, (step, _) in enumerate(_rows(panel)) if step == "Token exchange")
    panel.steps.selectRow(row)
    detail = panel.detail.toPlainText()
    assert detail.startswith("POST http://127.0.0.1:") and "→ HTTP 200" in detail
    assert '"access_token": "<redacted>"' in detail and token not in detail
    # The traffic log holds the OAuth exchanges too.
    assert any(e.transport == "oauth" for e in window.store)

    # "Show token" reveals it only on request.
    assert not panel.token_field.isVisible()
    panel.show_token_button.click()
    assert panel.token_field.isVisible() and panel.token_field.text() == token
    panel.show_token_button.click()
    assert not panel.token_field.isVisible()

    window.setPalette(dark_palette())
    window.tabs.setCurrentWidget(panel)
    panel.steps.selectRow(row)
    QApplication.processEvents()
    screenshot(window, "auth_panel.png")

    # Refresh token, then sign out.
    panel.refresh_button.click()
    qtbot.waitUntil(lambda: panel.task.done(), timeout=15000)
    assert panel.task.result() is True
    assert oauth_server.stats()["refreshes"] == 1
    assert panel.current.storage.tokens().access_token != token
    assert panel.sign_out_button.isEnabled(), panel.state_label.text()
    panel.sign_out_button.click()
    assert not panel.current.state().signed_in
    assert not list(auth_home.glob("*.json"))
    assert panel.state_label.text().startswith("Not signed in")
    assert not panel.sign_out_button.isEnabled() and not panel.refresh_button.isEnabled()


def test_the_authorization_url_is_shown_before_anything_opens(qtbot, window):
    url = "https://auth.example/authorize?client_id=abc&state=xyz&code_challenge=q"
    task = asyncio.ensure_future(ask_to_open(window, url, "Example"))
    qtbot.waitUntil(lambda: window.findChild(AuthorizeDialog, "authorizeDialog") is not None, timeout=5000)
    dialog = window.findChild(AuthorizeDialog, "authorizeDialog")
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert dialog.url_view.toPlainText() == url and dialog.url_view.isReadOnly()
    dialog.open_button.click()
    qtbot.waitUntil(task.done, timeout=5000)
    assert task.result() is True

    task = asyncio.ensure_future(ask_to_open(window, url, "Example"))
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(AuthorizeDialog)), timeout=5000)
    next(d for d in window.findChildren(AuthorizeDialog) if d.isVisible()).reject()
    qtbot.waitUntil(task.done, timeout=5000)
    assert task.result() is False


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd"])
def test_a_non_web_authorization_url_is_refused_without_a_dialog(qtbot, window, url):
    task = asyncio.ensure_future(ask_to_open(window, url, "Example"))
    qtbot.waitUntil(task.done, timeout=5000)
    assert isinstance(task.exception(), UnsafeURL)
    assert not any(d.isVisible() for d in window.findChildren(AuthorizeDialog))


def test_stdio_servers_say_oauth_does_not_apply(qtbot, window):
    from ui_support import DEMO_PROFILE, connect

    connect(qtbot, window, DEMO_PROFILE)
    panel = window.auth_panel
    assert "stdio" in panel.state_label.text()
    assert not panel.sign_in_button.isEnabled()


def test_a_preregistered_client_from_the_auth_tab_is_used_and_saved(qtbot, window, oauth_server, browser, auth_home):
    import json
    import stat

    from oauth_server import PRE_CLIENT_ID, PRE_CLIENT_SECRET

    profile = ServerProfile(name="OAuth pre", transport="http", url=oauth_server.url)
    window.servers.store.add(profile)
    window.servers.store.save()
    panel = window.auth_panel
    window.tabs.setCurrentWidget(panel)
    panel.show_profile(profile)
    box = panel.client_box
    assert not box.isVisible()  # folded away until asked for
    panel.client_button.click()
    assert box.isVisible() and box.client_secret.echoMode() == box.client_secret.EchoMode.Password
    box.client_id.setText(PRE_CLIENT_ID)
    box.client_secret.setText(PRE_CLIENT_SECRET)
    box.scopes.setText("  extra  ")
    box.save_button.click()
    assert box.status.text() == "saved"
    path = window.servers.store.path
    saved = json.loads(path.read_text())["x-mcp-lens"]["servers"]["OAuth pre"]
    assert saved == {"oauthClientId": PRE_CLIENT_ID, "oauthClientSecret": PRE_CLIENT_SECRET, "oauthScopes": "extra"}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # a secret in the file makes it private

    async def confirm(url: str) -> bool:
        return True

    panel.confirm, panel.opener = confirm, browser
    panel.sign_in_button.click()
    qtbot.waitUntil(lambda: panel.task is not None and panel.task.done(), timeout=20000)
    assert panel.task.result() is True, [e.summary for e in panel.current.log.events]
    assert oauth_server.stats()["registrations"] == 0
    assert f"client id: {PRE_CLIENT_ID}" in panel.state_label.text()
    assert "scopes: mcp extra" in panel.state_label.text()
