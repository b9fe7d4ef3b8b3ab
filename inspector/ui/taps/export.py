"""Export from a tapped session's read-only log: the entries its filter shows, as a traffic record.

The export's header says where it came from (the tap's name and the server's command), not ``"tap"``:
an export saved into the taps folder is not taken for a host's session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QToolButton

from inspector.traffic import jsonl
from inspector.ui.taps.records import TapSession
from inspector.ui.traffic.viewer_window import ViewerWindow
from inspector.ui.widgets.session_files import ask_session_path, show_error, suggested_name
from inspector.words import counted


def add_export(viewer: ViewerWindow, session: TapSession, settings: QSettings) -> QToolButton:
    """An "Export…" button at the end of the viewer's filter bar (the entries shown, as JSONL)."""
    name = suggested_name(session.name)
    button = QToolButton(viewer.view)
    button.setText("Export…")
    button.setAccessibleName("Export shown entries")
    button.setToolTip("Save the entries the filter shows (all of them without a filter) as a traffic record")
    button.clicked.connect(lambda: ask_session_path(viewer, settings, on_chosen, save=True, suggested=name))

    def on_chosen(path: Path) -> None:
        export_shown(viewer, session, path)

    viewer.view.filter_bar.add_trailing(button)
    return button


def export_shown(viewer: ViewerWindow, session: TapSession, path: Path) -> int:
    """Write the entries the viewer's filter shows to `path`; say how many in its status bar."""
    view = viewer.view
    view.model.flush()
    store = view.store
    meta: dict[str, Any] = {
        "name": session.name,
        "server": {"command": list(session.command)},
        "exported_from": viewer.path.name,
        "filter": view.filter_edit.text(),
    }
    try:
        count = jsonl.save(path, (store[index] for index in view.model.visible), meta)
    except OSError as exc:
        show_error(viewer, "Export failed", f"Could not write {path}: {exc.strerror or exc}")
        return 0
    viewer.statusBar().showMessage(f"Exported {counted(count, 'entry')} to {path}", 10000)
    return count
