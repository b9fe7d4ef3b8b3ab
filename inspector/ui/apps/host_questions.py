"""The questions an app's requests raise: call a tool that is not read-only, open a link.

Asked with `open()` (never `exec()`), awaited through a future: the event loop, and a person's or a
test's clicks, keep running. Everything the app sent is shown as plain text.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.core.url_policy import UrlVerdict
from inspector.ui.widgets.plain_text import plain_message_box

SHOWN_ARGUMENT_CHARS = 2000


def _arguments_text(arguments: Any) -> str:
    text = json.dumps(arguments, indent=2, ensure_ascii=False, default=repr)
    return text if len(text) <= SHOWN_ARGUMENT_CHARS else text[: SHOWN_ARGUMENT_CHARS - 1] + "…"


def tool_call_text(name: str, arguments: Any, tool: dict | None) -> str:
    why = "is not marked read-only (annotations.readOnlyHint)" if tool is not None else "is not in the tool list"
    return "\n".join(
        [
            f"The app asks to call the tool {name}, which {why}: it may change things.",
            "",
            "Arguments:",
            _arguments_text(arguments),
            "",
            "Call it?",
        ]
    )


def link_text(verdict: UrlVerdict) -> str:
    lines = ["The app asks to open this link in your browser:", "", verdict.url, ""]
    lines += [f"Note: {warning}" for warning in verdict.warnings]
    return "\n".join([*lines, "", "Open it?"] if verdict.warnings else [*lines, "Open it?"])


async def ask(parent: QWidget, title: str, text: str, yes: str, no: str) -> bool:
    """Ask a plain-text question; True after `yes`, False after `no`, Esc or closing."""
    box = plain_message_box(QMessageBox.Icon.Question, title, text, parent, buttons=QMessageBox.StandardButton.NoButton)
    accept = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    reject = box.addButton(no, QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(reject)
    box.setEscapeButton(reject)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    box.finished.connect(lambda _r: answer.done() or answer.set_result(box.clickedButton() is accept))
    box.destroyed.connect(lambda *_: answer.done() or answer.set_result(False))
    box.open()
    return await answer
