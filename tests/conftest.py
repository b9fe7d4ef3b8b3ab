"""Shared fixtures: real server processes (our demo, server-everything, hostile servers)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from lens_support import DEMO, EVERYTHING, HOSTILE, REPO, free_port, wait_for_port

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _serve(argv: list[str], port: int, env: dict[str, str] | None = None) -> Iterator[int]:
    process = subprocess.Popen(
        argv, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
    for _ in _serve([*DEMO, "--http", str(port)], port, {"PYTHONPATH": str(REPO)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def everything_http(everything: str) -> Iterator[str]:
    """server-everything over Streamable HTTP; yields its URL."""
    port = free_port()
    for _ in _serve(["node", everything, "streamableHttp"], port, {"PORT": str(port)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def everything_sse(everything: str) -> Iterator[str]:
    """server-everything over legacy SSE; yields the SSE endpoint URL."""
    port = free_port()
    for _ in _serve(["node", everything, "sse"], port, {"PORT": str(port)}):
        yield f"http://127.0.0.1:{port}/sse"


@pytest.fixture
def hostile() -> Callable[[str], list[str]]:
    """argv of the hostile test server in a given mode."""
    return lambda mode: [sys.executable, str(HOSTILE), mode]
