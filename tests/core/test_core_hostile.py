"""Bad servers leave the core standing, with a clear error or finding and the raw bytes in the record."""

from __future__ import annotations

import asyncio
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from core_support import http_profile, open_connection, run_with, stdio_profile

from inspector.core.errors import ConnectFailed, RequestTimeout
from inspector.core.operations import Operations
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

both = pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])


@both
def test_garbage_on_stdout_is_recorded_and_skipped(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> str:
        await conn.list_tools()
        return (await conn.call_tool("work", {})).result["content"][0]["text"]

    assert run_with(stdio_profile(hostile("garbage")), body, lite=lite, store=store) == "done"
    bad = [e for e in store if e.kind is Kind.UNPARSABLE]
    raws = [e.raw for e in bad]
    assert b"this is not JSON, it is a banner printed to stdout" in raws
    assert b"{broken json" in raws
    assert b"\xff\xfe not utf-8 either" in raws, "undecodable bytes are kept exactly"
    assert all(e.flagged and e.parse_error for e in bad)


@both
def test_server_exits_in_the_middle_of_a_call(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> None:
        with pytest.raises(ConnectFailed) as failed:
            await conn.call_tool("work", {}, timeout=10)
        assert "exited with code 3" in failed.value.message
        assert "crashing on purpose" in failed.value.message, "the last stderr lines are quoted"

    run_with(stdio_profile(hostile("exit-mid-call")), body, lite=lite, store=store)
    assert any(e.kind is Kind.LIFECYCLE and e.raw == b"process exited with code 3" for e in store)
    assert any(e.kind is Kind.STDERR and b"crashing on purpose" in e.raw for e in store)


@both
def test_server_that_never_answers_times_out_and_is_cancelled(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> None:
        with pytest.raises(RequestTimeout, match=r"timed out after 0\.3s"):
            await conn.call_tool("work", {}, timeout=0.3)
        await conn.ping()  # still usable
        for _ in range(100):  # the server says on stderr that it saw the cancellation
            if any(e.kind is Kind.STDERR and b"got cancelled" in e.raw for e in store):
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the server never received notifications/cancelled")

    run_with(stdio_profile(hostile("never-answer")), body, lite=lite, store=store)
    call = next(e for e in store if e.method == "tools/call" and e.kind is Kind.REQUEST)
    assert "cancelled" in call.notes


@both
def test_response_with_unknown_id_is_flagged(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> str:
        return (await conn.call_tool("work", {})).result["content"][0]["text"]

    assert run_with(stdio_profile(hostile("unknown-id")), body, lite=lite, store=store) == "done"
    stray = next(e for e in store if e.rpc_id == 987654)
    assert stray.kind is Kind.RESPONSE and "unknown id" in stray.notes and stray.flagged


@both
def test_twenty_megabyte_line(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> int:
        outcome = await conn.call_tool("work", {}, timeout=60)
        return len(outcome.result["content"][0]["text"])

    assert run_with(stdio_profile(hostile("huge")), body, lite=lite, store=store) == 20_000_000
    big = next(e for e in store if e.kind is Kind.RESPONSE and e.method == "tools/call")
    assert big.size > 20_000_000 and big.raw.startswith(b'{"jsonrpc"')


@both
def test_missing_input_schema_and_unknown_content_are_findings(hostile, lite: bool) -> None:
    async def body(conn: Operations) -> tuple:
        listing = await conn.list_tools()
        outcome = await conn.call_tool("odd_content", {})
        return listing, outcome

    listing, outcome = run_with(stdio_profile(hostile("bad-tools")), body, lite=lite)
    assert listing.names() == ["no_schema", "odd_content"], "the broken tool is still listed"
    assert any(f.path == "$.tools[0].inputSchema" for f in listing.findings)
    assert any("unknown content type 'hologram'" in f.message for f in outcome.findings)


def test_command_not_found() -> None:
    with pytest.raises(ConnectFailed, match="command not found: 'no-such-mcp-server-xyz'"):
        run_with(stdio_profile(["no-such-mcp-server-xyz"]), lambda conn: conn.ping())


def test_connection_refused() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed when the block ends: nothing listens there
    store = TrafficStore()
    with pytest.raises(ConnectFailed, match="ConnectError"):
        run_with(
            http_profile(f"http://127.0.0.1:{port}/mcp"), lambda conn: conn.ping(), store=store, connect_timeout=10
        )
    assert any(e.kind is Kind.LIFECYCLE and b"failed" in e.raw for e in store)


class _Broken(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        status = 404 if self.path.startswith("/missing") else 500
        body = b"<html>nope</html>"
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST
    do_DELETE = do_POST

    def log_message(self, *args: object) -> None:
        pass


@pytest.mark.parametrize("path,status", [("/missing", 404), ("/boom", 500)])
def test_http_error_status(path: str, status: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Broken)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    store = TrafficStore()
    url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    try:
        with pytest.raises(ConnectFailed) as failed:
            run_with(http_profile(url), lambda conn: conn.ping(), store=store, connect_timeout=10)
    finally:
        server.shutdown()
        server.server_close()
    assert str(status) in failed.value.message
    meta = [e for e in store if e.kind is Kind.HTTP_META and e.direction is Direction.IN]
    assert any(e.http and e.http.get("status") == status for e in meta)
    assert any(e.raw == b"<html>nope</html>" for e in meta), "the error body is kept"


def test_open_connection_can_be_reused_after_failure(hostile) -> None:
    """A failed connect leaves nothing running; a new connection in the same loop works."""

    async def main() -> str:
        store = TrafficStore()
        with pytest.raises(ConnectFailed):
            async with open_connection(stdio_profile(["no-such-mcp-server-xyz"]), store):
                pass
        async with open_connection(stdio_profile(hostile("garbage")), store) as conn:
            return (await conn.call_tool("work", {})).result["content"][0]["text"]

    assert asyncio.run(main()) == "done"
