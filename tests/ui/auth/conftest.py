"""The OAuth fixtures of tests/auth/conftest.py for this folder (the window comes from tests/ui/conftest.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

AUTH_TESTS = Path(__file__).parents[2] / "auth"
if str(AUTH_TESTS) not in sys.path:
    sys.path.insert(0, str(AUTH_TESTS))  # oauth_server, as tests/auth's own tests import it

_spec = importlib.util.spec_from_file_location("auth_conftest_for_ui", AUTH_TESTS / "conftest.py")
assert _spec is not None and _spec.loader is not None
_auth = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _auth  # its dataclasses look their module up there
_spec.loader.exec_module(_auth)

oauth_server = _auth.oauth_server
browser = _auth.browser
auth_home = _auth.auth_home
