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
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from inspector.config.files import utf8
from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

SDK_NOTIFICATIONS = frozenset({"notifications/progress", "notifications/cancelled"})
BUFFER = 256  # messages queued for the SDK before the pump waits
# How long the reader works through lines already buffered before it lets the event loop run: under a
# flood, other sessions and the UI wait at most about this long (measured: tests/bench/bench_isolation.py).
SLICE_S = 0.002
# While another stdio session waits for a response, a flooding reader also rests this long after each
# slice, so that session's few steps (read the response, resume its caller) run in the gap.
REST_S = 0.001
_awaiting: set[StdioTransport] = set()  # sessions with a request of ours in flight


class StdioTransport:
    """Use `open()` as an async context manager yielding the SDK's (read, write) stream pair."""

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
    async def open(self) -> AsyncIterator[tuple[MemoryObjectReceiveStream[Any], MemoryObjectSendStream[Any]]]:
        await self.pipes.start()
        read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](BUFFER)
        write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._pump_in, read_send)
                tg.start_soon(self._pump_out, write_recv, read_send)
                try:
                    yield read_recv, write_send
                finally:
                    with anyio.CancelScope(shield=True):
                        await self.pipes.close()
                    tg.cancel_scope.cancel()
        finally:
            _awaiting.discard(self)  # nothing in flight on a closed connection
            self._in_flight = 0
            for stream in (read_recv, write_send, read_send, write_recv):
                stream.close()

    async def _pump_in(self, read_send: MemoryObjectSendStream[SessionMessage | Exception]) -> None:
        slice_end = time.perf_counter() + SLICE_S
        try:
            while (item := await self.pipes.next_line()) is not None:
                if time.perf_counter() > slice_end:  # a flood: let the loop serve the other sessions and the UI
                    await anyio.sleep(REST_S if _awaiting - {self} else 0)
                    slice_end = time.perf_counter() + SLICE_S
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
                try:  # no await per message while the buffer has room: a flood stays one loop pass
                    read_send.send_nowait(SessionMessage(message))
                except anyio.WouldBlock:
                    await read_send.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return
        finally:
            read_send.close()

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

    async def _pump_out(
        self,
        write_recv: MemoryObjectReceiveStream[SessionMessage],
        read_send: MemoryObjectSendStream[SessionMessage | Exception],
    ) -> None:
        async for session_message in write_recv:
            if isinstance(session_message.message, mcp_types.JSONRPCRequest):
                self._in_flight += 1
                _awaiting.add(self)
            data = _wire_bytes(session_message.message)
            try:
                await self.pipes.send(data)
            except ConnectionError:
                read_send.close()  # the session sees the connection end instead of waiting forever
                return


def _wire_bytes(message: Any) -> bytes:
    """The message as one JSON line. Text holding a lone surrogate (a server's "\\ud800", echoed back in a
    prompt name or an argument) cannot be UTF-8: pydantic refuses it, so it is sent as its JSON escape."""
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode()
    except ValueError:  # PydanticSerializationError
        value = message.model_dump(by_alias=True, exclude_unset=True, mode="python")
        return utf8(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str))
