"""stdio transport with a tap: every line written and read is recorded exactly, stderr too.

The SDK's own stdio client parses before anyone sees the line, drops what it cannot parse and
sends stderr to a file. This one records first, then parses, and keeps going past garbage.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.lines import LineProtocol
from inspector.transports.process import StdioCommand, spawn

NAME = "stdio"
GRACE_SECONDS = 2.0
STDERR_TAIL = 20


class StdioTransport:
    """One server process, its pipes, and the tap. Use `open()` as an async context manager."""

    def __init__(
        self,
        command: StdioCommand,
        store: TrafficStore,
        *,
        process: subprocess.Popen[bytes] | None = None,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.command = command
        self.store = store
        self.process = process
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self.exit_code: int | None = None
        self._on_stderr = on_stderr
        self._closing = False

    def describe_exit(self) -> str:
        """What happened to the process, with its last stderr lines, for an error message."""
        if self.exit_code is None:
            return "the server closed its stdout"
        text = f"the server exited with code {self.exit_code}"
        if self.exit_code < 0:
            with suppress(ValueError):
                text += f" (killed by {signal.Signals(-self.exit_code).name})"
        if self.stderr_tail:
            text += "; last stderr lines:\n" + "\n".join(self.stderr_tail)
        return text

    @asynccontextmanager
    async def open(
        self,
    ) -> AsyncIterator[
        tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
    ]:
        if self.process is None:
            self.process = spawn(self.command)
        proc = self.process
        self.store.record(
            Direction.META,
            NAME,
            Kind.LIFECYCLE,
            f"started pid {proc.pid}: {' '.join(self.command.argv())}".encode(),
        )
        loop = asyncio.get_running_loop()
        assert proc.stdout and proc.stderr and proc.stdin
        out_proto = LineProtocol()
        err_proto = LineProtocol()
        out_transport, _ = await loop.connect_read_pipe(lambda: out_proto, proc.stdout)
        err_transport, _ = await loop.connect_read_pipe(lambda: err_proto, proc.stderr)
        w_transport, w_protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop=loop), proc.stdin
        )
        writer = asyncio.StreamWriter(w_transport, w_protocol, None, loop)

        read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)

        async with anyio.create_task_group() as tg:
            tg.start_soon(self._pump_stdout, out_proto, read_send)
            tg.start_soon(self._pump_stderr, err_proto)
            tg.start_soon(self._pump_stdin, write_recv, writer, read_send)
            try:
                yield read_recv, write_send
            finally:
                self._closing = True
                with anyio.CancelScope(shield=True):
                    await self._shutdown(writer)
                    await self._drain_stderr(err_proto)
                out_transport.close()
                err_transport.close()
                tg.cancel_scope.cancel()
                for stream in (read_recv, write_send, read_send, write_recv):
                    stream.close()

    async def _pump_stdout(self, proto: LineProtocol, read_send: MemoryObjectSendStream) -> None:
        try:
            while (line := await proto.next_line()) is not None:
                if not line.strip():
                    continue
                message = self._parse(line)
                if message is not None:
                    try:
                        await read_send.send(message)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return
            await self._wait_exit(GRACE_SECONDS if not self._closing else 0.0)
            self._record_exit()
        finally:
            read_send.close()

    def _parse(self, line: bytes) -> SessionMessage | None:
        """Record the line, then parse it for the SDK. Unparsable lines stay in the record only."""
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError as exc:
            entry = self.store.record_message(Direction.IN, NAME, line)
            if entry.kind is not Kind.UNPARSABLE:
                entry.notes.append("not a valid JSON-RPC message: " + str(exc).splitlines()[0])
            return None
        self.store.record_message(Direction.IN, NAME, line)
        return SessionMessage(message)

    async def _pump_stderr(self, proto: LineProtocol) -> None:
        while (line := await proto.next_line()) is not None:
            self._stderr_line(line)

    async def _drain_stderr(self, proto: LineProtocol) -> None:
        with anyio.move_on_after(0.5):
            while (line := await proto.next_line()) is not None:
                self._stderr_line(line)

    def _stderr_line(self, line: bytes) -> None:
        text = line.decode("utf-8", errors="replace").rstrip("\r")
        self.stderr_tail.append(text)
        self.store.record(Direction.IN, NAME, Kind.STDERR, line)
        if self._on_stderr is not None:
            self._on_stderr(text)

    async def _pump_stdin(
        self,
        write_recv: MemoryObjectReceiveStream[SessionMessage],
        writer: asyncio.StreamWriter,
        read_send: MemoryObjectSendStream,
    ) -> None:
        async for session_message in write_recv:
            data = session_message.message.model_dump_json(by_alias=True, exclude_unset=True).encode()
            self.store.record_message(Direction.OUT, NAME, data)
            try:
                writer.write(data + b"\n")
                await writer.drain()
            except (ConnectionError, OSError, RuntimeError) as exc:
                self.store.record(Direction.META, NAME, Kind.LIFECYCLE, f"write to server stdin failed: {exc}".encode())
                read_send.close()
                return

    async def _wait_exit(self, timeout: float) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def _record_exit(self) -> None:
        assert self.process is not None
        code = self.process.poll()
        if code is None or self.exit_code is not None:
            return
        self.exit_code = code
        self.store.record(Direction.META, NAME, Kind.LIFECYCLE, f"process exited with code {code}".encode())

    async def _shutdown(self, writer: asyncio.StreamWriter) -> None:
        """Close stdin, give the server a grace period, then SIGTERM and SIGKILL its process group."""
        proc = self.process
        assert proc is not None
        with suppress(Exception):
            writer.close()
        if not await self._wait_exit(GRACE_SECONDS):
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, sig)
                if await self._wait_exit(GRACE_SECONDS):
                    break
        self._record_exit()
