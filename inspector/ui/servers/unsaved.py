"""Quitting with servers that could not be saved (the file was kept unreadable, or a save failed): the
user is asked, and a copy is written beside the file rather than anything dropped in silence."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from inspector.config.profile import ProfileError
from inspector.ui.servers.import_dialog import message_box
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.ui.servers.panel import ServersPanel

TITLE = "Servers Not Saved"
SAVE_COPY = "Save Copy and Quit"
DISCARD = "Quit Without Saving"


def unsaved_names(panel: ServersPanel) -> list[str]:
    """Servers changed in this window that are not in the file (only while saving it fails)."""
    io = panel.io
    if io.save_error is None and io.load_error is None:
        return []
    return panel.store.unsaved_names()


def save_copy(panel: ServersPanel) -> str:
    """Write the unsaved servers beside the file; what to tell the user (where, or why not)."""
    try:
        return f"Saved a copy of your servers to {panel.store.save_copy()}."
    except (OSError, ProfileError) as exc:
        return f"Could not save a copy: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}"


def ask_before_quit(panel: ServersPanel, quit_now: Callable[[], None]) -> QMessageBox | None:
    """If servers would be lost, ask (without blocking) and call `quit_now` once the user chose to quit;
    None (and nothing asked) when there is nothing to lose."""
    names = unsaved_names(panel)
    if not names:
        return None
    listed = ", ".join(repr(name) for name in names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
    path = panel.store.path
    text = (
        f"{counted(len(names), 'server change')} {'is' if len(names) == 1 else 'are'} not saved to {path} ({listed}): "
        + ("the file could not be read and was kept as it is." if panel.io.load_error else "saving it failed.")
        + f"\n\n{SAVE_COPY} writes them to {path.name}.unsaved-<time> beside it (the file itself is left "
        "untouched); you can import that copy later."
    )
    box = message_box(panel.window(), QMessageBox.Icon.Warning, TITLE, text)
    keep = box.addButton(SAVE_COPY, QMessageBox.ButtonRole.AcceptRole)
    drop = box.addButton(DISCARD, QMessageBox.ButtonRole.DestructiveRole)
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(keep)
    box.setEscapeButton(cancel)

    def chosen(_result: int) -> None:
        clicked = box.clickedButton()
        if clicked is keep:
            panel.io.save_error = save_copy(panel)
            quit_now()
        elif clicked is drop:
            quit_now()

    box.finished.connect(chosen)
    box.finished.connect(box.deleteLater)
    box.open()
    return box
