"""Journey tests: the app as launched (`inspector.app.run`), fresh folders, driven by labels, keys and clicks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="package")
def qloop(qapp) -> Iterator[object]:
    from lens_support import qasync_loop

    yield from qasync_loop(qapp)


@pytest.fixture
def lens(qtbot, qapp, qloop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A `Lens` driver over a fresh home folder; whatever is still running is closed afterwards."""
    from journey_support import Lens

    driver = Lens(qtbot, qapp, tmp_path / "home", monkeypatch)
    yield driver
    driver.stop()
