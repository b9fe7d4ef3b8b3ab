"""The UI tests' fixtures: isolated settings and the real main window.

Qt + asyncio comes from tests/conftest.py's `qloop`: one qasync loop for the run (created with
``already_running=True``, never stopped with ``loop.stop()``), marked running only during the tests that
ask for it, so every other test can use ``asyncio.run`` whatever the order.
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest


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
    # a copy: a test may change the window's demo entry (its era, its roots) without changing later tests'
    win = MainWindow(ProfileStore(isolated_config / "servers.json"), dataclasses.replace(DEMO_PROFILE), settings)
    qtbot.addWidget(win)
    win.resize(1400, 1000)
    win.show()
    win.servers.load()
    yield win
    done = asyncio.ensure_future(win.session.shutdown())
    qtbot.waitUntil(done.done, timeout=15000)
