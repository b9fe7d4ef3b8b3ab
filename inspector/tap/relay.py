"""The relay: runs the server and passes every byte both ways unchanged, recording as it goes.

Three pump threads on raw fds (``os.read`` / ``os.write``): host → server stdin, server stdout → host,
server stderr → our stderr. Each chunk of a stdio message is recorded before it is passed on, so a
response is never recorded before the request it answers and a crash loses nothing the peer saw;
bytes are forwarded as soon as they are read (a long line is not held until it completes). SIGINT,
SIGTERM and SIGHUP are forwarded to the server; the host closing our stdin closes the server's. The
exit code is the server's, or 128 + the signal that killed it, as shells report it. No sockets.

On Windows (`inspector.platform.processes`) the same threads pump the same CRT file descriptors, in
binary mode; the server shares the tap's console (a console's Ctrl+C reaches both; Ctrl+Break is
passed on) and sits in a job that ends it when the tap ends, since a host ends a server there by
TerminateProcess, which no handler sees. The exit code passes through as Windows gives it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from contextlib import suppress

from inspector.platform import processes

TYPE_CHECKING = False  # not typing's: the server is spawned before anything heavier is imported
if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.tap.recorder import TapRecorder

CHUNK = 1 << 16
FORWARDED = processes.forwardable_signals()
DRAIN_SECONDS = 3.0  # after the server exits, how long its stdout/stderr may take to reach end of file


def spawn(argv: list[str]) -> subprocess.Popen[bytes]:
    """Start the server in its own process group (a terminal's Ctrl+C reaches it once: through us); on
    Windows in the tap's console and in a job that ends it with the tap."""
    return processes.popen(argv, new_session=False)


def exit_status(code: int) -> int:
    """`Popen.returncode` as a shell reports it: a signal's death is 128 + the signal number. A Windows
    code past 2**31 (an NTSTATUS such as 0xC000013A) as the signed int `sys.exit` passes on unchanged."""
    if code < 0:
        return 128 - code
    return code - (1 << 32) if processes.WINDOWS and code >= 1 << 31 else code


def describe_exit(code: int) -> tuple[str, tuple[str, ...]]:
    """The lifecycle text of the exit, and its notes (none for a clean exit)."""
    name = processes.exit_signal_name(code)
    if name is not None:
        return f"process exited with code {code} (killed by {name})", (f"killed by {name}",)
    return f"process exited with code {code}", (() if code == 0 else (f"exit code {code}",))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _pump(src: int, dst: int, record: Callable[[bytes], None], forward_first: bool = False) -> bool:
    """Copy `src` to `dst` until end of file, recording each chunk. Returns whether `dst` still takes
    writes. A `dst` that stops taking them (the peer went away) is given up; reading goes on."""
    open_dst = True
    while True:
        try:
            data = os.read(src, CHUNK)
        except OSError:
            data = b""
        if not data:
            return open_dst
        if forward_first and open_dst:
            open_dst = _forward(dst, data)
        record(data)
        if not forward_first and open_dst:
            open_dst = _forward(dst, data)


def _forward(dst: int, data: bytes) -> bool:
    try:
        _write_all(dst, data)
    except OSError:
        return False
    return True


class Relay:
    """One tapped server: `run()` relays until the server exits and returns the exit status."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        recorder: TapRecorder | None,
        *,
        host_in: int = 0,
        host_out: int = 1,
        host_err: int = 2,
    ) -> None:
        self.process = process
        self.recorder = recorder
        self.host_in, self.host_out, self.host_err = host_in, host_out, host_err
        self.forwarded: set[int] = set()

    def _record(self, method: str, *args: object) -> None:
        recorder = self.recorder
        if recorder is None:
            return
        try:
            getattr(recorder, method)(*args)
        except Exception as exc:  # the recorder guards its own writes; this is the net under a bug
            self.recorder = None
            with suppress(OSError):
                os.write(self.host_err, f"mcp-lens tap: recording stopped ({exc!r}); still relaying\n".encode())

    def run(self) -> int:
        from inspector.traffic.entry import Direction

        proc = self.process
        assert proc.stdin and proc.stdout and proc.stderr
        child_in, child_out, child_err = proc.stdin.fileno(), proc.stdout.fileno(), proc.stderr.fileno()
        if processes.WINDOWS:  # no newline translation on any of the six
            import msvcrt  # type: ignore[import-not-found,unused-ignore]

            for fd in (self.host_in, self.host_out, self.host_err, child_in, child_out, child_err):
                with suppress(OSError):
                    msvcrt.setmode(fd, os.O_BINARY)  # type: ignore[attr-defined]
        previous = {sig: signal.signal(sig, self._forward_signal) for sig in FORWARDED}
        try:
            self._record("lifecycle", f"started pid {proc.pid}: {' '.join(proc.args)}")  # type: ignore[arg-type]

            def host_to_server() -> None:
                _pump(self.host_in, child_in, lambda d: self._record("data", Direction.OUT, d))
                self._record("end_of", Direction.OUT)
                self._record("lifecycle", "the host closed stdin")
                with suppress(OSError):
                    proc.stdin.close()  # type: ignore[union-attr]

            def server_to_host() -> None:
                _pump(child_out, self.host_out, lambda d: self._record("data", Direction.IN, d))

            def stderr_to_host() -> None:
                _pump(child_err, self.host_err, lambda d: self._record("stderr", d), forward_first=True)

            threads = [
                threading.Thread(target=fn, name=f"tap-{fn.__name__}", daemon=True)
                for fn in (host_to_server, server_to_host, stderr_to_host)
            ]
            for thread in threads:
                thread.start()
            code = proc.wait()
            for thread in threads[1:]:
                thread.join(DRAIN_SECONDS)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        text, notes = describe_exit(code)
        if code < 0 and -code in self.forwarded:
            notes = ()  # it died of the signal we passed on, as asked
        self._record("close", text, notes)
        return exit_status(code)

    def _forward_signal(self, signum: int, _frame: object) -> None:
        self.forwarded.add(signum)
        processes.forward_signal(self.process, signum)
