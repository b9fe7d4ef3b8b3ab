"""Journey tests: the app as launched (`inspector.app.run`), fresh folders, driven by labels, keys and clicks."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def lens(qtbot, qapp, qloop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A `Lens` driver over a fresh home folder; whatever is still running is closed afterwards."""
    from journey_support import Lens

    driver = Lens(qtbot, qapp, tmp_path / "home", monkeypatch)
    yield driver
    driver.stop()
