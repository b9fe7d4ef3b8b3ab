"""stdio transport for the SDK's session: `StdioPipes` (the tap) bridged to the SDK's streams.

The SDK's own stdio client parses before anyone sees the line, drops what it cannot parse and
sends stderr to a file. Here every line is recorded first; garbage stays in the record, flagged,
and the session carries on.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types
from mcp.shared.message import SessionMessage

from inspector.config.files import utf8
from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.interface import Transport
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

SDK_NOTIFICATIONS = frozenset({"notifications/progress", "notifications/cancelled"})
# How long the reader works through lines already buffered before it lets the event loop run: under a
# flood, other sessions and the UI wait at most about this long (measured: tests/bench/bench_isolation.py).
SLICE_S = 0.002
# While another stdio session waits for a response, a flooding reader also rests this long after each
# slice, so that session's few steps (read the response, resume its caller) run in the gap. A reader that
# waited this long for its server's next line has had its rest: its next slice starts then (the answer it
# waited for is not held back by a slice that ran out while it was idle).
REST_S = 0.001
CLOSE_DRAIN_S = 0.5  # after the process has exited, how long its last buffered lines may take to be read
_awaiting: set[StdioTransport] = set()  # sessions with a request of ours in flight


class StdioTransport(Transport):
    """Use `open()` as an async context manager yielding the SDK's (read, write) stream pair."""

    has_process = True

    def __init__(
        self,
        command: StdioCommand,
        store: TrafficStore,
        *,
        process: subprocess.Popen[bytes] | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.pipes = StdioPipes(command, store, process=process, on_stderr=on_stderr)
        # Set by the connection: receives (method, params) of notifications that bypass the SDK.
        self.notification_sink: Callable[[str, dict[str, Any]], None] | None = None
        self._in_flight = 0  # our requests not answered yet (a flood elsewhere rests while there are some)

    def describe_exit(self) -> str:
        return self.pipes.describe_exit()

    @property
    def exit_code(self) -> int | None:
        """The server process's exit code once it has exited (recorded, or already reapable)."""
        if self.pipes.exit_code is not None:
            return self.pipes.exit_code
        return self.pipes.process.poll() if self.pipes.process is not None else None

    async def wait_exit(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the server process to exit; whether it has."""
        return self.pipes.process is None or await self.pipes.wait_exit(timeout)

    async def wait_closed(self) -> None:
        """Returns when the server has gone (stdout ended); the exit is in the record by then."""
        while self.pipes.finished is None:
            await asyncio.sleep(0.05)
        await self.pipes.finished.wait()

    @asynccontextmanager
    async def open(self) -> AsyncIterator[tuple[_ReadSide, _WriteSide]]:
        """The SDK's (read, write) streams: the dispatcher pulls each message straight from the pipe and
        writes straight into it, with no task or memory stream between (two loop passes a round trip)."""
        await self.pipes.start()
        read, write = _ReadSide(self), _WriteSide(self)
        try:
            yield read, write
        finally:
            # Nobody reads once the dispatcher has stopped: what the server writes while it closes (its
            # last words) is read and recorded meanwhile, as the connection's own reader did until then.
            drain = asyncio.ensure_future(self._drain())
            try:
                with anyio.CancelScope(shield=True):
                    await self.pipes.close()
                    await asyncio.wait({drain}, timeout=CLOSE_DRAIN_S)
            finally:
                drain.cancel()
                _awaiting.discard(self)  # nothing in flight on a closed connection
                self._in_flight = 0
                read.close()
                write.close()

    async def _drain(self) -> None:
        """Read (and so record) stdout to its end."""
        while await self.pipes.next_line() is not None:
            pass

    async def next_message(self, read: _ReadSide) -> SessionMessage | None:
        """The next message for the SDK (None at the end of stdout). Each line is recorded first; garbage
        stays in the record, flagged, and is skipped; notifications the SDK need not see go round it."""
        while True:
            waited = 0.0 if self.pipes.buffered() else time.perf_counter()
            if (item := await self.pipes.next_line()) is None:
                return None
            now = time.perf_counter()
            if waited and now - waited >= REST_S:  # it waited for the server a rest's length: a new slice
                read.slice_end = now + SLICE_S
            elif now > read.slice_end:  # a flood: let the loop serve the other sessions and the UI
                await anyio.sleep(REST_S if _awaiting - {self} else 0)
                read.slice_end = time.perf_counter() + SLICE_S
            _line, entry, value = item
            if entry.kind in (Kind.RESPONSE, Kind.ERROR) and self._in_flight:
                self._in_flight -= 1
                if not self._in_flight:
                    _awaiting.discard(self)
            if entry.kind is Kind.UNPARSABLE:
                continue  # recorded and flagged; the session never sees garbage
            if entry.kind is Kind.NOTIFICATION and self._deliver_directly(value, entry.method):
                continue
            try:  # the value the recorder parsed: a big message is parsed once, not twice
                message = mcp_types.jsonrpc_message_adapter.validate_python(value, by_name=False)
            except ValueError as exc:
                entry.note("not a valid JSON-RPC message: " + str(exc).splitlines()[0])
                continue
            return SessionMessage(message)

    def _deliver_directly(self, message: Any, method: str | None) -> bool:
        """Hand a notification the SDK need not see straight to the connection.

        The SDK's dispatcher starts a task per notification; a server flooding log messages would
        spend most of the loop there. Progress and cancellation still go through the SDK, which
        owns the requests they refer to.
        """
        if self.notification_sink is None or method in SDK_NOTIFICATIONS or method is None:
            return False
        if not isinstance(message, dict):
            return False
        params = message.get("params")
        self.notification_sink(method, params if isinstance(params, dict) else {})
        return True

    async def send_message(self, session_message: SessionMessage) -> None:
        """Write one message from the SDK (recorded as written). A pipe that cannot be written ends the
        reading too, so the session sees the connection end instead of waiting forever."""
        if isinstance(session_message.message, mcp_types.JSONRPCRequest):
            self._in_flight += 1
            _awaiting.add(self)
        try:
            await self.pipes.send(_wire_bytes(session_message.message))
        except ConnectionError as exc:
            self.pipes.stop_reading()
            raise anyio.BrokenResourceError(str(exc)) from exc


class _ReadSide:
    """What the SDK's dispatcher reads from: ``async with`` and ``async for``, as a memory stream."""

    def __init__(self, transport: StdioTransport) -> None:
        self._transport = transport
        self._closed = False
        self._ended = False
        # Lines worked through without letting the loop run end here (see SLICE_S).
        self.slice_end = time.perf_counter() + SLICE_S

    async def receive(self) -> SessionMessage:
        if self._closed:
            raise anyio.ClosedResourceError
        if not self._ended:
            message = await self._transport.next_message(self)
            if message is not None:
                return message
            self._ended = True
        raise anyio.EndOfStream

    def __aiter__(self) -> _ReadSide:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def close(self) -> None:
        self._closed = True

    async def aclose(self) -> None:
        self.close()

    async def __aenter__(self) -> _ReadSide:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.close()


class _WriteSide:
    """What the SDK's dispatcher writes to: each message goes to the pipe in the caller's own step."""

    def __init__(self, transport: StdioTransport) -> None:
        self._transport = transport
        self._closed = False

    async def send(self, item: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        await self._transport.send_message(item)

    def close(self) -> None:
        self._closed = True

    async def aclose(self) -> None:
        self.close()

    async def __aenter__(self) -> _WriteSide:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self.close()


def _wire_bytes(message: Any) -> bytes:
    """The message as one JSON line. Text holding a lone surrogate (a server's "\\ud800", echoed back in a
    prompt name or an argument) cannot be UTF-8: pydantic refuses it, so it is sent as its JSON escape."""
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode()
    except ValueError:  # PydanticSerializationError
        value = message.model_dump(by_alias=True, exclude_unset=True, mode="python")
        return utf8(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))
