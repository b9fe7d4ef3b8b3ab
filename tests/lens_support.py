"""Paths and helpers shared by the tests (a uniquely named module: `conftest` names collide)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EVERYTHING = REPO / "tests/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
HOSTILE = REPO / "tests/servers/hostile.py"
DEMO = [sys.executable, "-m", "inspector.demo"]
# The 2026-07-28 reference servers from PyPI (mcp-server-time, -git, -fetch): scripts/lib.sh ensure_pypi_servers
PYPI_SERVERS = REPO / "tests/servers/.venv-pypi/bin"
PYPI_SERVERS_LINUX = "requires the PyPI reference servers' venv, which scripts/test builds on Linux"


NEEDS_NODE = "requires Node.js (npm's server-everything or the official Inspector)"


def need_node() -> None:
    """Skip the test where there is no Node.js (`scripts/wine-test`'s Windows run); elsewhere nothing."""
    if shutil.which("node") is None:
        import pytest

        pytest.skip(NEEDS_NODE)


def posix_only(why: str):
    """A test whose means are POSIX's: skipped elsewhere (`scripts/wine-test`'s Windows run) as `requires POSIX WHY`."""
    import pytest

    return pytest.mark.skipif(os.name != "posix", reason=f"requires POSIX {why}")


def qt_only(why: str):
    """A test that starts Qt in a child process: skipped where PySide6 is not installed (`scripts/wine-test`)."""
    from importlib.util import find_spec

    import pytest

    return pytest.mark.skipif(find_spec("PySide6") is None, reason=f"requires Qt ({why}; PySide6 is not installed)")


def pypi_server_argv(name: str, repo: Path | None = None) -> list[str]:
    """argv of ``mcp-server-NAME`` from PyPI (git serves `repo`); fails when `scripts/test` has not installed it."""
    path = PYPI_SERVERS / f"mcp-server-{name}"
    if os.name != "posix":
        import pytest

        pytest.skip(PYPI_SERVERS_LINUX)
    if not path.exists():
        import pytest

        pytest.fail(f"{path} is missing: run scripts/test, which installs the PyPI reference servers")
    return [str(path), *(["--repository", str(repo)] if repo is not None else [])]


def git_repo(folder: Path) -> Path:
    """A git repository with one commit, for mcp-server-git to serve (skipped where that server is not)."""
    if os.name != "posix":
        import pytest

        pytest.skip(PYPI_SERVERS_LINUX)
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    (folder / "README").write_text("hello\n")
    for argv in (["init", "-q"], ["add", "README"], ["commit", "-qm", "first"]):
        subprocess.run(["git", "-C", str(folder), *argv], check=True, env=env)
    return folder


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 45.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before listening on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def lens_env(**extra: str) -> dict[str, str]:
    """The environment for running `python -m inspector` from this checkout in a subprocess."""
    return {**os.environ, "PYTHONPATH": str(REPO), **extra}


def run_lens(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m inspector ARGS`` from the repository, as a user runs it; output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
    )


def serve(argv: list[str], port: int, env: dict[str, str] | None = None) -> Iterator[int]:
    """Run a server process (our environment plus `env`) until it listens on `port`; yield the port,
    then stop it (terminate, kill after 5 s). For fixtures: ``for _ in serve(...): yield ...``."""
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


def qasync_loop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop over `qapp` for a loop fixture (whose scope is the caller's): created with
    ``already_running=True`` so qtbot's event processing drives asyncio callbacks; at the end marked not
    running and closed, never ``loop.stop()`` (that would quit the QApplication and make every later
    ``waitUntil`` return at once), so tests after it can use ``asyncio.run`` again."""
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    for task in asyncio.all_tasks(loop):
        task.cancel()
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)
    loop.close()


# What Qt WebEngine prints on a machine like CI's (no GPU, no system D-Bus), and its note when the test
# environment turns Chromium's sandbox off as root (tests/conftest.py): about the machine, not the app.
WEBENGINE_MACHINE_NOTES = (
    "Sandboxing disabled by user.",
    "QRhiGles2: Failed to create",
    "Failed to create RHI for backend: OpenGL",
    "This plugin does not support createPlatformVulkanInstance",
    "QVulkanInstance: Failed to initialize Vulkan",
    "GBM is not supported with the current configuration and Vulkan is not available.",
    "Failed to connect to the bus: Failed to connect to socket /run/dbus/system_bus_socket",
    "GPUInfo not initialized on GpuInfoUpdate",
)


def without_webengine_machine_notes(stderr: str) -> str:
    """`stderr` without the lines of `WEBENGINE_MACHINE_NOTES` (what is left is worth a test failing)."""
    return "".join(
        line for line in stderr.splitlines(keepends=True) if not any(n in line for n in WEBENGINE_MACHINE_NOTES)
    )
