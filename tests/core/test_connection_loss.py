"""A connection whose server goes away says so (`lost`, `wait_closed`), and failures read as what they are."""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest
from core_support import http_profile, stdio_profile
from lens_support import DEMO, EVERYTHING, REPO, free_port, posix_only, wait_for_port

from inspector.core.calls import RequestHandle
from inspector.core.connection import Connection
from inspector.core.errors import (
    ConnectFailed,
    ProtocolError,
    RequestTimeout,
    ToolFailed,
    describe_failure,
    exit_title,
)
from inspector.core.history import CANCELLED, CRASHED, LOST, TIMEOUT, CallRecord
from inspector.core.session import CONNECTED, FAILED, RECOVER, Session
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore


def _everything(mode: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PORT": str(port)}
    process = subprocess.Popen(
        ["node", str(EVERYTHING), mode], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(port, process)
    return process


async def _killed_while_calling(profile, server: subprocess.Popen[bytes]) -> tuple[ConnectFailed, ConnectFailed]:
    """Connect, call echo, kill the server, call again from another task (as the window does); the
    second call's error and the error the connection's owner sees."""
    store = TrafficStore()
    calls: list[BaseException] = []

    async def caller(conn: Connection) -> None:
        await conn.call_tool("echo", {"message": "a"})
        server.kill()
        server.wait()
        try:
            await conn.call_tool("echo", {"message": "b"}, timeout=20)
        except BaseException as exc:  # the test inspects whatever it was
            calls.append(exc)

    owner_error: BaseException | None = None
    try:
        async with Connection(make_transport(profile, store), era="legacy") as conn:
            task = asyncio.ensure_future(caller(conn))
            await asyncio.wait_for(conn.wait_closed(), 20)
    except ConnectFailed as exc:
        owner_error = exc
    await asyncio.wait_for(task, 20)
    assert isinstance(calls[0], ConnectFailed), calls
    lost = owner_error or conn.loss()
    assert isinstance(lost, ConnectFailed) and conn.lost is not None
    return calls[0], lost


@pytest.mark.parametrize("mode", ["streamableHttp", "sse"])
def test_a_killed_http_server_is_noticed_by_the_owner_and_the_caller(everything: str, mode: str) -> None:
    port = free_port()
    server = _everything(mode, port)
    try:
        kind, path = ("sse", "sse") if mode == "sse" else ("http", "mcp")
        call, lost = asyncio.run(_killed_while_calling(http_profile(f"http://127.0.0.1:{port}/{path}", kind), server))
    finally:
        if server.poll() is None:
            server.kill()
    for error in (call, lost):
        failure = describe_failure(error)
        assert error.details["lost"] is True
        assert failure.title == "Connection lost" and not failure.server_sent
        # the SSE stream's end, or the server found refusing connections: said either way
        said = ("stopped answering (connection refused)", "the HTTP connection failed")
        assert any(words in failure.detail for words in said), failure.detail


def _demo_http(port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [*DEMO, "--http", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wait_for_port(port, process)
    return process


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_killed_http_server_reads_disconnected_while_idle(everything: str, era: str) -> None:
    """Nothing is being sent when the server dies: a modern connection has no stream open and no ping, a
    legacy one only the SDK's quietly retried GET stream. The session still goes from connected to
    "disconnected: the server at URL stopped answering (connection refused)"."""
    port = free_port()
    server = _everything("streamableHttp", port) if era == "legacy" else _demo_http(port)
    url = f"http://127.0.0.1:{port}/mcp"

    async def main() -> tuple[str, str, list[str]]:
        store = TrafficStore()
        session = Session(store)
        session.connect(http_profile(url, era=era))
        assert await session.wait_settled() == CONNECTED, session.detail
        server.kill()
        server.wait()
        for _ in range(600):  # generous: up to 60 s on a loaded machine
            if session.state != CONNECTED:
                break
            await asyncio.sleep(0.1)
        state, detail = session.state, session.detail
        await session.shutdown()
        flagged.extend(e.text() for e in store if e.flagged and "DELETE" in e.text())
        deletes.extend(e.text() for e in store if e.raw.startswith(b"DELETE"))
        return state, detail, [e.text() for e in store if "connection lost" in e.notes]

    flagged: list[str] = []  # our session DELETE or its failure kept by "Errors only" (issue 22: never)
    deletes: list[str] = []  # a session DELETE to a server known gone (h13 point 1: never sent)
    try:
        state, detail, lost = asyncio.run(main())
    finally:
        if server.poll() is None:
            server.kill()
    assert state == FAILED
    said = f"the server at {url} stopped answering (connection refused)"
    assert detail.splitlines()[0] == f"disconnected: {said}. {RECOVER}"
    assert lost == [f"connection lost: the server at {url} stopped answering (connection refused)"]
    assert deletes == [], deletes
    assert flagged == [], flagged


@pytest.mark.npm
def test_disconnecting_from_a_just_killed_http_server_flags_no_delete_of_ours() -> None:
    """Disconnect right after the server died, before the connection saw it: the SDK's session DELETE
    (and its ConnectError) is MCP Lens's own teardown, not an error "Errors only" keeps (issue 22)."""
    port = free_port()
    server = _everything("streamableHttp", port)
    url = f"http://127.0.0.1:{port}/mcp"

    async def main() -> list[str]:
        store = TrafficStore()
        session = Session(store)
        session.connect(http_profile(url, era="legacy"))
        assert await session.wait_settled() == CONNECTED, session.detail
        server.kill()
        server.wait()
        await session.shutdown()
        return [e.text() for e in store if "DELETE" in e.text() and (e.flagged or e.probe is None)]

    try:
        ours = asyncio.run(main())
    finally:
        if server.poll() is None:
            server.kill()
    assert ours == [], ours


@posix_only("signals (a killed server exits -9 there; after Windows' TerminateProcess it exits 1)")
def test_a_killed_stdio_server_names_its_exit() -> None:
    async def main() -> ConnectFailed:
        async with Connection(
            make_transport(stdio_profile(DEMO, PYTHONPATH=str(REPO)), TrafficStore()), era="legacy"
        ) as conn:
            conn.transport.pipes.process.kill()
            await asyncio.wait_for(conn.wait_closed(), 10)
        return conn.loss()

    lost = asyncio.run(main())
    assert lost.details["server_exit"] == -9
    assert describe_failure(lost).title == "Server process exited with code -9 (killed by SIGKILL)"


def test_an_orderly_close_is_no_loss() -> None:
    async def main() -> Connection:
        async with Connection(
            make_transport(stdio_profile(DEMO, PYTHONPATH=str(REPO)), TrafficStore()), era="legacy"
        ) as conn:
            await conn.ping()
        return conn

    assert asyncio.run(main()).lost is None


def test_crash_mid_call_reads_as_a_process_exit(hostile) -> None:
    async def main() -> ConnectFailed:
        async with Connection(
            make_transport(stdio_profile(hostile("exit-mid-call")), TrafficStore()), era="legacy"
        ) as conn:
            with pytest.raises(ConnectFailed) as failed:
                await conn.call_tool("work", {}, timeout=10)
        return failed.value

    error = asyncio.run(main())
    failure = describe_failure(error)
    assert failure.title == "Server process exited with code 3"
    assert "crashing on purpose" in failure.detail and failure.side == "connection"


def test_a_timeout_carries_its_limit(hostile) -> None:
    async def main() -> tuple[RequestTimeout, RequestTimeout]:
        async with Connection(
            make_transport(stdio_profile(hostile("never-answer")), TrafficStore()), era="legacy"
        ) as conn:
            with pytest.raises(RequestTimeout) as progress:
                await conn.call_tool("work", {}, timeout=0.3)
            with pytest.raises(RequestTimeout) as hard:
                await conn.call_tool("work", {}, timeout=30, max_total=0.3)
        return progress.value, hard.value

    progress, hard = asyncio.run(main())
    assert describe_failure(progress).title == "No response within 0.3 s (timeout, client side)"
    assert describe_failure(hard).title == "Still running after 0.3 s (maximum, client side)"


# -- the words, without a server -----------------------------------------------------------------
def test_failure_words_say_whose_side() -> None:
    protocol = describe_failure(ProtocolError("tools/call failed: nope (JSON-RPC error -32602)", code=-32602))
    assert (protocol.title, protocol.side, protocol.server_sent) == ("JSON-RPC error -32602", "server", True)
    cancelled = describe_failure(RequestTimeout("x was cancelled", method="tools/call", cancelled=True))
    assert cancelled.title == "Cancelled by you" and cancelled.side == "client" and not cancelled.server_sent
    timeout = describe_failure(RequestTimeout("t", method="tools/call", timeout=60.0, limit="progress"))
    assert timeout.title == "No response within 60 s (timeout, client side)"
    lost = describe_failure(ConnectFailed("connection lost: x", lost=True, reason="the HTTP connection closed"))
    assert (lost.title, lost.detail) == ("Connection lost", "the HTTP connection closed")
    assert describe_failure(ConnectFailed("not connected")).title == "Not connected"
    assert describe_failure(ToolFailed("t")).side == "server"
    assert describe_failure(RuntimeError("boom")).title == "Failed on the client side: RuntimeError"
    assert exit_title(3) == "Server process exited with code 3"
    assert exit_title(-15) == "Server process exited with code -15 (killed by SIGTERM)"


@pytest.mark.parametrize(
    ("error", "outcome"),
    [
        (RequestTimeout("c", cancelled=True), CANCELLED),
        (RequestTimeout("t", timeout=1.0, limit="progress"), TIMEOUT),
        (ConnectFailed("lost", lost=True, reason="r"), LOST),
        (ConnectFailed("exited", lost=True, reason="r", server_exit=3), CRASHED),
    ],
)
def test_call_record_outcome(error: Exception, outcome: str) -> None:
    record = CallRecord("t", {}, RequestHandle("tools/call"))
    record.finish(error=error)
    assert record.outcome == outcome
