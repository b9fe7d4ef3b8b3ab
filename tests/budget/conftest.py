"""Session-wide tool lists of real servers (listing them once keeps the budget tests fast)."""

from __future__ import annotations

from typing import Any

import pytest
from budget_support import list_tools
from lens_support import DEMO, EVERYTHING, need_node


@pytest.fixture(scope="session")
def demo_tools() -> list[dict[str, Any]]:
    return list_tools(DEMO)


@pytest.fixture(scope="session")
def everything_tools() -> list[dict[str, Any]]:
    need_node()
    if not EVERYTHING.exists():
        pytest.fail(f"{EVERYTHING} is missing: run scripts/test, which installs the npm test servers")
    return list_tools(["node", str(EVERYTHING), "stdio"])
