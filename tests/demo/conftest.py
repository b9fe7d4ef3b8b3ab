"""Fixtures that run the demo server as a real process, over stdio or Streamable HTTP."""

import os
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

SessionFactory = Callable[..., AbstractAsyncContextManager[ClientSession]]


class Recorder:
    """Collects what the server pushes outside responses: notifications, log entries, bad lines."""

    def __init__(self) -> None:
        self.notifications: list[Any] = []
        self.logs: list[Any] = []
        self.errors: list[Exception] = []

    async def on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.errors.append(message)
        else:
            self.notifications.append(message)

    async def on_log(self, params: Any) -> None:
        self.logs.append(params)

    def methods(self) -> list[str]:
        return [n.method for n in self.notifications]


@pytest.fixture
def recorder() -> Recorder:
    """A fresh notification recorder to pass to a session factory."""
    return Recorder()


@pytest.fixture
def new_recorder() -> Callable[[], Recorder]:
    """Make more recorders, for tests with several sessions."""
    return Recorder


@asynccontextmanager
async def _initialized(read: Any, write: Any, recorder: Recorder | None) -> AsyncIterator[ClientSession]:
    kwargs: dict[str, Any] = {}
    if recorder is not None:
        kwargs = {"message_handler": recorder.on_message, "logging_callback": recorder.on_log}
    async with ClientSession(read, write, read_timeout_seconds=30, **kwargs) as session:
        await session.initialize()
        yield session


@pytest.fixture
def stdio_session(tmp_path: Path) -> SessionFactory:
    """Open an initialized session to a fresh ``python -m inspector.demo`` process."""

    @asynccontextmanager
    async def open_session(recorder: Recorder | None = None) -> AsyncIterator[ClientSession]:
        params = StdioServerParameters(command=DEMO_COMMAND[0], args=DEMO_COMMAND[1:], env=DEMO_ENV, cwd=REPO_ROOT)
        with open(tmp_path / "server-stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), _initialized(read, write, recorder) as s:
                yield s

    return open_session


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_accepting(port: int, process: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"demo server exited early with code {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"demo server did not accept connections on port {port} within {timeout} s")


@pytest.fixture(scope="session")
def demo_http_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``python -m inspector.demo --http PORT`` once; yield its MCP endpoint URL."""
    port = _free_port()
    log = tmp_path_factory.mktemp("demo-http") / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [*DEMO_COMMAND, "--http", str(port)],
            cwd=REPO_ROOT,
            env={**os.environ, **DEMO_ENV},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_accepting(port, process)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def http_session(demo_http_url: str) -> SessionFactory:
    """Open an initialized Streamable HTTP session to the shared demo server process."""

    @asynccontextmanager
    async def open_session(recorder: Recorder | None = None) -> AsyncIterator[ClientSession]:
        async with streamable_http_client(demo_http_url) as (read, write), _initialized(read, write, recorder) as s:
            yield s

    return open_session
