"""The UI tests' window fixtures for this folder, with a qasync loop that ends with each module.

tests/ui's loop fixture has "package" scope, which for a folder without `__init__.py` lasts the whole
session: here it would outlive this folder and break the `asyncio.run` tests that follow. The loop
below is the same loop (`ui_support.qasync_loop`, see tests/ui/conftest.py) with module scope.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

UI_TESTS = Path(__file__).parents[2] / "ui"
if str(UI_TESTS) not in sys.path:
    sys.path.insert(0, str(UI_TESTS))  # ui_support, as tests/ui's own tests import it

_spec = importlib.util.spec_from_file_location("ui_conftest_for_auth", UI_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)

isolated_config = _ui.isolated_config
window = _ui.window


@pytest.fixture(scope="module")
def qloop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    from lens_support import qasync_loop

    yield from qasync_loop(qapp)
