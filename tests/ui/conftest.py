"""Qt + asyncio for the UI tests: one qasync loop over the test QApplication, for this package only.

Pattern from DESIGN.md: the loop is created with ``already_running=True`` so qtbot's event
processing drives asyncio callbacks. It is never stopped with ``loop.stop()`` (that would quit the
QApplication and make every later ``waitUntil`` return at once): at the end it is marked not
running and closed, so tests outside this package can use ``asyncio.run`` again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="package")
def qloop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    from lens_support import qasync_loop

    yield from qasync_loop(qapp)


@pytest.fixture
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Profiles file and QSettings in a temporary folder, never the user's."""
    from PySide6.QtCore import QSettings

    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(config))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(config))
    return config


@pytest.fixture
def window(qtbot, qloop, isolated_config: Path):
    """The real main window with isolated settings and profiles; its server is stopped afterwards."""
    from PySide6.QtCore import QSettings
    from ui_support import DEMO_PROFILE

    from inspector.config.store import ProfileStore
    from inspector.ui.main_window import MainWindow

    settings = QSettings(str(isolated_config / "lens.ini"), QSettings.Format.IniFormat)
    win = MainWindow(ProfileStore(isolated_config / "servers.json"), DEMO_PROFILE, settings)
    qtbot.addWidget(win)
    win.resize(1400, 1000)
    win.show()
    win.servers.load()
    yield win
    done = asyncio.ensure_future(win.session.shutdown())
    qtbot.waitUntil(done.done, timeout=15000)
