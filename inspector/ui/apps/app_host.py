"""The host an app's bridge talks to, in the UI: calls and reads go through the session (so they are in
the traffic log), a tool that is not read-only and every link are asked about first, messages are shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from inspector.core.input_required import request_answering
from inspector.core.url_policy import check_url
from inspector.ui.apps.context import clamp_height
from inspector.ui.apps.host_questions import ask, link_text, tool_call_text

if TYPE_CHECKING:
    from inspector.ui.apps.app_view import AppView


def open_in_browser(url: str) -> bool:
    """The real opener: the system browser through Qt."""
    return QDesktopServices.openUrl(QUrl(url, QUrl.ParsingMode.StrictMode))


class QtAppHost:
    """`inspector.apps.bridge.AppHost` for one App view. `opener` opens a confirmed link (replaceable
    in tests, which must never start a browser)."""

    def __init__(self, view: AppView, opener: Callable[[str], bool] = open_in_browser) -> None:
        self.view = view
        self.opener = opener
        self.opened: list[str] = []

    async def call_tool(self, name: str, arguments: dict) -> dict:
        """A 2026-07-28 server's input_required rounds are answered as for the user's own calls."""
        return await request_answering(self.view.session, "tools/call", {"name": name, "arguments": arguments})

    async def read_resource(self, uri: str) -> dict:
        return await request_answering(self.view.session, "resources/read", {"uri": uri})

    async def confirm_tool_call(self, name: str, arguments: dict, tool: dict | None) -> bool:
        text = tool_call_text(name, arguments, tool)
        allowed = await ask(self.view, "An app asks to call a tool", text, "Call", "Don't call")
        self.view.notice(f"{'Called' if allowed else 'Declined'}: the app's call to {name}")
        return allowed

    async def open_link(self, url: str) -> bool:
        verdict = check_url(url)
        if not verdict.allowed:
            self.view.notice(f"Refused to open a link: {verdict.reason} ({verdict.url[:200]})")
            return False
        if not await ask(self.view, "An app asks to open a link", link_text(verdict), "Open", "Don't open"):
            self.view.notice(f"Not opened: {url[:200]}")
            return False
        self.opened.append(url)
        self.view.notice(f"Opened in your browser: {url[:200]}")
        return self.opener(url)

    async def message(self, params: dict) -> None:
        role = params.get("role") if isinstance(params.get("role"), str) else "user"
        self.view.notice(f"Message from the app ({role}): {shown_text(params)}")

    def resize(self, width: int | None, height: int | None) -> None:
        self.view.resize_app(clamp_height(height))


def shown_text(params: dict[str, Any]) -> str:
    """The text of a ui/message's content blocks (other block types named, not shown)."""
    parts = []
    for block in params.get("content") or []:
        if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block, dict):
            parts.append(f"[{block.get('type', 'unknown')} content]")
    return " ".join(parts) or "(no text)"
