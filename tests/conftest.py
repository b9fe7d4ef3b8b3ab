"""Shared fixtures: real server processes (our demo, server-everything, hostile servers)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Callable, Iterator

import pytest
from lens_support import DEMO, EVERYTHING, HOSTILE, NEEDS_NODE, REPO, free_port, need_node, serve

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if os.environ["QT_QPA_PLATFORM"] == "offscreen":  # a screen people use (offscreen's own is 800×800)
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={REPO / 'tests/offscreen_screen.json'}"
if hasattr(os, "geteuid") and os.geteuid() == 0:
    os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")  # tests run as root only; the app never sets it


def _prepare_webengine() -> None:
    """MCP Apps: WebEngine is set up before pytest-qt's QApplication exists (as `inspector.app.main` does).
    A run without Qt (`scripts/wine-test`: the pure tests on Windows) has nothing to prepare."""
    from importlib.util import find_spec

    if find_spec("PySide6") is None:
        return
    from inspector.ui.apps.engine import prepare_webengine

    prepare_webengine()


_prepare_webengine()


@pytest.fixture(scope="session")
def qasync_session_loop(qapp) -> Iterator[asyncio.AbstractEventLoop]:
    """One qasync loop over the test QApplication for the whole run (see `qloop`)."""
    from lens_support import qasync_loop

    yield from qasync_loop(qapp)


@pytest.fixture
def qloop(qasync_session_loop: asyncio.AbstractEventLoop) -> Iterator[asyncio.AbstractEventLoop]:
    """The qasync loop, marked running for this test only: qtbot's event processing drives its
    callbacks, and the tests after it (in any order) can still call `asyncio.run`."""
    loop = qasync_session_loop
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    loop._QEventLoop__is_running = True  # type: ignore[attr-defined]
    yield loop
    loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)


@pytest.fixture(scope="session")
def everything() -> str:
    """Path to server-everything's entry point; `scripts/test` installs it."""
    need_node()
    if not EVERYTHING.exists():
        pytest.fail(f"{EVERYTHING} is missing: run scripts/test, which installs the npm test servers")
    return str(EVERYTHING)


@pytest.fixture
def demo_http() -> Iterator[str]:
    """The demo server over Streamable HTTP on a free loopback port; yields its URL."""
    port = free_port()
    for _ in serve([*DEMO, "--http", str(port)], port, {"PYTHONPATH": str(REPO)}):
        yield f"http://127.0.0.1:{port}/mcp"


MODERN_ONLY = REPO / "tests/servers/modern_only.py"


@pytest.fixture
def modern_only() -> list[str]:
    """argv of the 2026-07-28-only test server over stdio (answers server/discover, refuses initialize)."""
    return [sys.executable, str(MODERN_ONLY)]


@pytest.fixture
def modern_only_http() -> Iterator[str]:
    """The 2026-07-28-only test server over Streamable HTTP on a free loopback port; yields its URL."""
    port = free_port()
    for _ in serve([sys.executable, str(MODERN_ONLY), "--http", str(port)], port):
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


# -- nothing alarming passes silently ----------------------------------------------------------
# A Python exception raised in a Qt slot or timer is printed (PySide hands it to sys.excepthook) and
# the event loop goes on; Qt reports an "Ambiguous shortcut" as a warning and fires neither action.
# Either fails the test during which it happened: its captured stderr and Qt messages are checked.
ALARMS = (
    "Traceback (most recent call last)",
    "is not callable",
    "Error calling Python override",
    "Ambiguous shortcut",
)


def alarms_in(report: pytest.TestReport, item: pytest.Item) -> list[str]:
    """Alarming lines in this phase's captured stderr (and, for the call, the Qt messages so far)."""
    text = "".join(content for name, content in report.sections if name == f"Captured stderr {report.when}")
    if report.when == "call":
        records = getattr(getattr(item, "qt_log_capture", None), "records", [])
        text += "\n".join(record.message for record in records)
    return [line.strip() for line in text.splitlines() if any(alarm in line for alarm in ALARMS)]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    report = yield
    if call.when in ("call", "teardown") and report.passed and (found := alarms_in(report, item)):
        report.outcome = "failed"
        report.longrepr = "alarming output during the test (see DESIGN.md, journey tests):\n" + "\n".join(found[:20])
    return report


# The slowest files, started first: scripts/test gives each worker a file at a time (--dist loadfile), so a
# run lasts at least as long as its slowest file from the moment that file starts.
SLOW_FIRST = (
    "tests/packaging/test_bundle.py",
    "tests/conformance/test_conformance.py",
    "tests/doctor/test_doctor_suite_parity.py",
    "tests/packaging/test_wheel.py",
)


# What a test needs that a run may lack (`scripts/wine-test`: Windows CPython with no Qt and no Node): such a
# test is skipped with the reason, which the run's summary prints; where all is installed, nothing changes.
QT_FIXTURES = {"qtbot", "qapp", "qloop", "qasync_session_loop"}
NODE_FIXTURES = {"everything", "everything_http", "everything_sse", "everything_tools"}


def _missing(item: pytest.Item) -> str | None:
    """Why this test cannot run here, or None."""
    from importlib.util import find_spec

    needs = set(getattr(item, "fixturenames", ()))
    if needs & QT_FIXTURES and find_spec("pytestqt") is None:
        return "requires Qt (PySide6 and pytest-qt are not installed)"
    if (needs & NODE_FIXTURES or item.get_closest_marker("npm")) and shutil.which("node") is None:
        return NEEDS_NODE
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: every other test keeps its order
    for item in items:
        if (why := _missing(item)) is not None:
            item.add_marker(pytest.mark.skip(reason=why))
