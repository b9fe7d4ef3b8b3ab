"""A stdio server process and its three pipes, tapped. Pure asyncio: no SDK import.

Every line read from stdout and written to stdin is recorded exactly (without the newline that
frames it) before anything parses it; stderr lines are recorded as their own entries, live.
Both the SDK adapter (`stdio.py`) and the CLI's lean client (`core/lite.py`) sit on this.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from inspector.config.redact import Redactor, redact_args
from inspector.platform import processes
from inspector.traffic import sliced_json
from inspector.traffic.classify import parse
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.sliced_json import HUGE
from inspector.traffic.store import TrafficStore
from inspector.transports.lines import LineProtocol
from inspector.transports.process import StdioCommand, spawn

NAME = "stdio"
GRACE_SECONDS = 2.0
STDERR_TAIL = 20


class StdioPipes:
    """Start with `await start()`, read with `await next_message()`, write with `await send()`."""

    def __init__(
        self,
        command: StdioCommand,
        store: TrafficStore,
        *,
        process: subprocess.Popen[bytes] | None = None,
        on_stderr: Callable[[str], None] | None = None,
        grace: float = GRACE_SECONDS,
    ) -> None:
        self.command = command
        self.grace = grace
        self.store = store
        store.protect(Redactor.for_profile(command))  # its secret env, flags and references, in every entry
        self.process = process
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL)
        self.exit_code: int | None = None
        self.closing = False
        self.ended_by_us = False  # we had to end it (on Windows its exit code then says nothing)
        self._on_stderr = on_stderr
        self._out = LineProtocol()
        self._err = LineProtocol()
        self._transports: list[asyncio.BaseTransport] = []
        self._writer: asyncio.StreamWriter | None = None
        self._stderr_task: asyncio.Task[None] | None = None
        self.finished: asyncio.Event | None = None  # set once stdout has ended and the exit is recorded

    async def start(self) -> None:
        """Spawn (unless a process was handed in) and connect the pipes to the running loop."""
        if self.process is None:
            self.process = spawn(self.command)
        proc = self.process
        argv = " ".join(redact_args(self.command.argv()))
        self.store.record(Direction.META, NAME, Kind.LIFECYCLE, f"started pid {proc.pid}: {argv}".encode())
        loop = asyncio.get_running_loop()
        assert proc.stdout and proc.stderr and proc.stdin
        out_transport, _ = await loop.connect_read_pipe(lambda: self._out, proc.stdout)
        err_transport, _ = await loop.connect_read_pipe(lambda: self._err, proc.stderr)
        w_transport, w_protocol = await loop.connect_write_pipe(
            lambda: asyncio.streams.FlowControlMixin(loop=loop), proc.stdin
        )
        self._transports = [out_transport, err_transport]
        self._writer = asyncio.StreamWriter(w_transport, w_protocol, None, loop)
        self._stderr_task = asyncio.ensure_future(self._pump_stderr())
        self.finished = asyncio.Event()

    # -- reading -----------------------------------------------------------------------------
    async def next_line(self) -> tuple[bytes, Entry, Any] | None:
        """The next non-blank stdout line, already recorded, with its JSON value (None when it does not
        parse: parsed once, here); None at end of stream (exit recorded)."""
        while (line := await self._out.next_line()) is not None:
            if len(line) >= HUGE:  # parsed on a worker thread, a slice at a time: the loop keeps its turns
                parsed = await asyncio.to_thread(parse, line, sliced_json.loads)
                return line, *self.store.record_parsed(Direction.IN, NAME, line, parsed=parsed)
            if line.strip():
                return line, *self.store.record_parsed(Direction.IN, NAME, line)
        await self.wait_exit(0.0 if self.closing else GRACE_SECONDS)
        self.record_exit()
        if self.finished is not None:
            self.finished.set()
        return None

    def buffered(self) -> bool:
        """Whether a stdout line is read and waiting (`next_line` returns it without waiting for the server)."""
        return bool(self._out.lines)

    def stop_reading(self) -> None:
        """End reading stdout after what is already read (the server's stdin broke: it is going)."""
        self._out.eof_received()

    async def _pump_stderr(self) -> None:
        while (line := await self._err.next_line()) is not None:
            self._stderr_line(line)

    def _stderr_line(self, line: bytes) -> None:
        entry = self.store.record(Direction.IN, NAME, Kind.STDERR, line)  # its secrets redacted
        text = entry.raw.decode("utf-8", errors="replace").rstrip("\r")
        self.stderr_tail.append(text)
        if self._on_stderr is not None:
            self._on_stderr(text)

    # -- writing -----------------------------------------------------------------------------
    async def send(self, data: bytes) -> Entry:
        """Write `data` (one JSON-RPC message, no newline) and record it. Raises `ConnectionError`.

        The pipe gets the bytes first and the record follows in the same step (no answer can be read in
        between): the server starts on the request while we record it."""
        assert self._writer is not None, "start() first"
        entry: Entry | None = None
        try:
            self._writer.write(data + b"\n")
            entry = self.store.record_message(Direction.OUT, NAME, data)
            await self._writer.drain()
        except (ConnectionError, OSError, RuntimeError) as exc:
            if entry is None:
                self.store.record_message(Direction.OUT, NAME, data)
            self.store.record_failure(NAME, f"write to server stdin failed: {exc}", "transport error")
            raise ConnectionError(f"could not write to the server: {exc}") from exc
        return entry

    # -- ending ------------------------------------------------------------------------------
    def describe_exit(self) -> str:
        """What happened to the process, with its last stderr lines, for an error message."""
        code = self.exit_code if self.exit_code is not None else (self.process.poll() if self.process else None)
        if code is None:
            text = "the server closed its stdout" if self._out.eof else "the server is still running"
        else:
            text = f"the server exited with code {code}"
            if code < 0:
                with suppress(ValueError):
                    text += f" (killed by {signal.Signals(-code).name})"
        if self.stderr_tail:
            text += "; last stderr lines:\n" + "\n".join(self.stderr_tail)
        return text

    async def wait_exit(self, timeout: float) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def record_exit(self) -> None:
        code = self.process.poll() if self.process else None
        if code is None or self.exit_code is not None:
            return
        self.exit_code = code
        self.store.abandon_pending("no response: the process exited")
        reason = exit_failure(code, closing=self.closing, ended_by_us=self.ended_by_us)
        text = f"process exited with code {code}"
        if reason is None:
            self.store.record(Direction.META, NAME, Kind.LIFECYCLE, text.encode())
        else:
            self.store.record_failure(NAME, text, reason)

    async def close(self) -> None:
        """Close stdin, give the server a grace period, then end its process group (SIGTERM, then SIGKILL;
        on Windows as `platform.processes` can)."""
        self.closing = True
        proc = self.process
        if proc is None:
            return
        if self._writer is not None:
            with suppress(Exception):
                self._writer.close()
        if not await self.wait_exit(self.grace):
            for step in (processes.terminate_group, processes.kill_group):
                self.ended_by_us = True
                if processes.WINDOWS:  # taskkill may take a moment: off the loop
                    await asyncio.to_thread(step, proc)
                else:
                    step(proc)
                if await self.wait_exit(GRACE_SECONDS):
                    break
        self.record_exit()
        if self._stderr_task is not None:
            with suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._stderr_task), 0.5)
            self._stderr_task.cancel()
        for transport in self._transports:
            transport.close()


def exit_failure(code: int, *, closing: bool, ended_by_us: bool = False) -> str | None:
    """How a process exit reads in the traffic log's status when it is a failure; None for a clean one."""
    if code == 0 or (code < 0 and closing):  # a signal we sent while closing it
        return None
    if closing and ended_by_us and processes.WINDOWS:  # TerminateProcess leaves an exit code, not a signal
        return None
    if code < 0:
        with suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    return f"exit code {code}"
