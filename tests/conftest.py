"""Shared fixtures: real server processes (our demo, server-everything, hostile servers)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator

import pytest
from lens_support import DEMO, EVERYTHING, HOSTILE, REPO, free_port, serve

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(scope="session")
def everything() -> str:
    """Path to server-everything's entry point; `scripts/test` installs it."""
    if not EVERYTHING.exists():
        pytest.fail(f"{EVERYTHING} is missing: run scripts/test, which installs the npm test servers")
    return str(EVERYTHING)


@pytest.fixture
def demo_http() -> Iterator[str]:
    """The demo server over Streamable HTTP on a free loopback port; yields its URL."""
    port = free_port()
    for _ in serve([*DEMO, "--http", str(port)], port, {"PYTHONPATH": str(REPO)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def everything_http(everything: str) -> Iterator[str]:
    """server-everything over Streamable HTTP; yields its URL."""
    port = free_port()
    for _ in serve(["node", everything, "streamableHttp"], port, {"PORT": str(port)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def everything_sse(everything: str) -> Iterator[str]:
    """server-everything over legacy SSE; yields the SSE endpoint URL."""
    port = free_port()
    for _ in serve(["node", everything, "sse"], port, {"PORT": str(port)}):
        yield f"http://127.0.0.1:{port}/sse"


@pytest.fixture
def hostile() -> Callable[[str], list[str]]:
    """argv of the hostile test server in a given mode."""
    return lambda mode: [sys.executable, str(HOSTILE), mode]
