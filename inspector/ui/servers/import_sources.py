"""Import Servers From: the hosts' config files that exist on this computer (Claude Desktop, Cursor,
VS Code, Claude Code, user-wide and the current project's), each one click away, and Other file… for
the file dialog. Shown only when at least one exists (the file dialog opens directly otherwise)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QVBoxLayout, QWidget

from inspector.config.locations import host_config_files
from inspector.ui.widgets.plain_text import plain_label

TITLE = "Import Servers From"


def found_host_configs() -> list[tuple[str, Path]]:
    """(host, file) for each host config file that exists, in `host_config_files` order, each once."""
    seen: set[Path] = set()
    found = []
    for host, path in host_config_files():
        if path.is_file() and path.resolve() not in seen:
            seen.add(path.resolve())
            found.append((host, path))
    return found


def shown_path(path: Path) -> str:
    """`path` with the home folder written ~."""
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


class ImportSources(QDialog):
    """One button per host config found; `then(path)` imports it, `other()` asks for another file."""

    def __init__(
        self,
        found: list[tuple[str, Path]],
        then: Callable[[Path], object],
        other: Callable[[], object],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(TITLE)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label("Servers configured for these apps on this computer:"))
        self.buttons: list[QPushButton] = []
        for host, path in found:
            button = QPushButton(f"{host}: {shown_path(path)}")
            button.setAccessibleName(f"Import from {host}: {shown_path(path)}")
            button.setAutoDefault(False)
            button.clicked.connect(lambda _=False, p=path: self._chosen(lambda: then(p)))
            layout.addWidget(button)
            self.buttons.append(button)
        self.other_button = QPushButton("Other file…")
        self.other_button.setAutoDefault(False)
        self.other_button.clicked.connect(lambda: self._chosen(other))
        layout.addWidget(self.other_button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        if self.buttons:
            self.buttons[0].setFocus()

    def _chosen(self, run: Callable[[], object]) -> None:
        self.accept()
        run()
