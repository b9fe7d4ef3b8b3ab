"""The UI tests' window fixtures for this folder (the qasync loop is tests/conftest.py's `qloop`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

UI_TESTS = Path(__file__).parents[2] / "ui"
if str(UI_TESTS) not in sys.path:
    sys.path.insert(0, str(UI_TESTS))  # ui_support, as tests/ui's own tests import it

_spec = importlib.util.spec_from_file_location("ui_conftest_for_auth", UI_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_ui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ui)

isolated_config = _ui.isolated_config
window = _ui.window
