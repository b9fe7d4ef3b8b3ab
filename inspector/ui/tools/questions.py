"""The questions the Tools tab asks before a call: problems with the arguments, a destructive tool.

Both are window-modal but opened with `open()`, never `exec()`: the answer arrives through a callback,
so the event loop (and a person's or a test's clicks) keeps running while the question is shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QMessageBox, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.ui.widgets.plain_text import plain_label, set_message

SHOWN_PROBLEMS = 20
SHOWN_ARGUMENT_CHARS = 1500


def compact_json(value: Any, limit: int = SHOWN_ARGUMENT_CHARS) -> str:
    """One-line JSON of what would be sent, cut at `limit` characters."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def problems_text(tool: str, problems: Sequence[object], arguments: Any) -> str:
    """The question: each problem on its own line, then exactly what "Send anyway" would send."""
    count = len(problems)
    lines = [f"• {problem}" for problem in problems[:SHOWN_PROBLEMS]]
    if count > SHOWN_PROBLEMS:
        lines.append(f"• … and {count - SHOWN_PROBLEMS} more (shown at their fields)")
    noun = "problem" if count == 1 else "problems"
    return "\n".join(
        [
            f"{count} {noun} with the arguments of {tool}:",
            "",
            *lines,
            "",
            "Send anyway sends exactly these arguments:",
            compact_json(arguments),
            "",
            "Go back to fix them, or send these arguments as they are?",
        ]
    )


def ask_about_problems(
    parent: QWidget, tool: str, problems: Sequence[object], arguments: Any, answer: Callable[[bool], None]
) -> QMessageBox:
    """Show the problems and ask; `answer(True)` after "Send anyway", `answer(False)` after "Go back" or Esc."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Problems with the arguments", "", parent=parent)
    set_message(box, problems_text(tool, problems, arguments))
    send = box.addButton("Send anyway", QMessageBox.ButtonRole.AcceptRole)
    back = box.addButton("Go back", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(back)
    box.setEscapeButton(back)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.finished.connect(lambda _result: answer(box.clickedButton() is send))
    box.open()
    return box


def ask_destructive(parent: QWidget, name: str, arguments: Any) -> tuple[bool, bool]:
    """Ask before calling a tool annotated destructiveHint: (call it, don't ask again)."""
    dialog = QDialog(parent)
    dialog.setWindowTitle("Call a destructive tool?")
    text = QPlainTextEdit(json.dumps(arguments, indent=2, ensure_ascii=False, default=repr), readOnly=True)
    text.setAccessibleName("Arguments")
    again = QCheckBox("Don't ask again for this tool")
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(
        plain_label(f"{name} is annotated destructiveHint: true. It will be called with:", wrap=True, selectable=True)
    )
    layout.addWidget(text)
    layout.addWidget(again)
    layout.addWidget(buttons)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    return accepted, accepted and again.isChecked()
