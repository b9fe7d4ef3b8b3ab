"""`mcp-lens tap` as a host runs it: bytes relayed and recorded exactly, exit codes and signals passed on,
the record's files and folder private, rotation, a killed tap's record still readable."""

from __future__ import annotations

import itertools
import os
import re
import signal
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from factories import rpc
from tap_support import TAP, load_entries, only_record, records, start_tap, stream_bytes, tap_env, wait_for

from inspector.tap.paths import list_records
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind

# A server that says hello on stdout and stderr, then copies stdin to stdout, reporting on stderr.
SERVER = r"""
import os, sys
os.write(1, b'{"jsonrpc":"2.0","method":"notifications/hello","params":{"text":"z\xc3\xb6e \xe2\x9c\x93"}}\n')
os.write(2, b"server starting\r\nwarn: \xff not utf-8\n")
while chunk := os.read(0, 7000):
    os.write(1, chunk)
os.write(2, b"bye, no newline")
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
"""

HOST_CHUNKS = [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}\n',
    '{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"m":"日本語 ✓"}}}\n'.encode(),
    b"this is not json\n",
    b'{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n',
    b"\n",
    b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"m":"'
    + b"x" * 300_000,  # a long line split across many reads …
    b'"}}}\n{"jsonrpc":"2.0","id":4,',  # … ends in the middle of a chunk that starts the next message
    b'"method":"ping"}\n',
    b'{"key order":2,"jsonrpc":"2.0","id":5,"method":"x/y","unknown":[1,2]}\n',
    b"a partial last line",
]


def _server(tmp_path: Path, code: int = 0) -> list[str]:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    return [sys.executable, str(script), str(code)]


def _run_host(proc: subprocess.Popen[bytes], chunks: list[bytes]) -> tuple[bytes, bytes]:
    """Write `chunks` a little apart, close stdin; everything the tap wrote back (both pipes read throughout)."""
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    with ThreadPoolExecutor(2) as pool:
        out, err = pool.submit(proc.stdout.read), pool.submit(proc.stderr.read)
        for chunk in chunks:
            proc.stdin.write(chunk)
            proc.stdin.flush()
            time.sleep(0.01)
        proc.stdin.close()
        proc.wait(timeout=60)
        return out.result(timeout=30), err.result(timeout=30)


def posix_only(why: str) -> pytest.MarkDecorator:
    """A test whose means are POSIX's (`scripts/wine-test` runs the rest on Windows)."""
    return pytest.mark.skipif(os.name != "posix", reason=f"requires POSIX: {why}")


def test_every_byte_relayed_and_recorded_exactly(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--name", "odd lines", "--", *_server(tmp_path))
    out, err = _run_host(proc, HOST_CHUNKS)
    sent = b"".join(HOST_CHUNKS)
    hello = out.split(b"\n", 1)[0] + b"\n"
    assert out == hello + sent  # the host got exactly what the server wrote
    assert err == b"server starting\r\nwarn: \xff not utf-8\nbye, no newline"  # stderr passed through untouched
    assert proc.returncode == 0

    path = only_record(tmp_path)
    entries, meta = load_entries(path)
    assert stream_bytes(entries, Direction.OUT) == sent
    assert stream_bytes(entries, Direction.IN) == hello + sent
    assert stream_bytes(entries, Direction.IN, stderr=True) == err
    tap = meta["tap"]
    assert tap["name"] == "odd lines" and tap["command"] == _server(tmp_path)
    assert isinstance(tap["pid"], int) and isinstance(tap["child_pid"], int) and tap["cwd"]
    assert "env" not in tap
    lifecycle = [e.text() for e in entries if e.kind is Kind.LIFECYCLE]
    assert lifecycle[0].startswith(f"started pid {tap['child_pid']}")
    assert lifecycle[-1] == "process exited with code 0"
    # Paired as the app pairs: the echoed requests come back as "requests" from the server, so the
    # host's requests stay unanswered; the record still classifies every line.
    kinds = [e.kind for e in entries if e.direction is Direction.OUT]
    assert kinds.count(Kind.REQUEST) == 6 and Kind.UNPARSABLE in kinds


def test_requests_and_responses_paired_with_latency(tmp_path: Path) -> None:
    server = tmp_path / "answer.py"
    server.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': {'isError': m['method'] == 'tools/call'}}),"
        " flush=True)\n"
    )
    proc = start_tap(tmp_path, "--", sys.executable, str(server))
    _run_host(proc, [rpc(id=n, method="tools/call" if n % 2 else "tools/list") + b"\n" for n in range(1, 6)])
    entries, _ = load_entries(only_record(tmp_path))
    responses = [e for e in entries if e.kind is Kind.RESPONSE]
    assert len(responses) == 5
    for response in responses:
        assert response.peer_seq is not None and response.latency_ms is not None and response.latency_ms >= 0
        request = next(e for e in entries if e.seq == response.peer_seq)
        assert request.direction is Direction.OUT and request.rpc_id == response.rpc_id
        assert request.peer_seq == response.seq  # set by the loader: the record is streamed
        assert response.is_tool_error == (request.method == "tools/call")


def test_exit_code_passed_on(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--", *_server(tmp_path, 7))
    _run_host(proc, [b"{}\n"])
    assert proc.returncode == 7
    entries, _ = load_entries(only_record(tmp_path))
    assert entries[-1].text() == "process exited with code 7" and entries[-1].flagged


SLEEPER = """
import signal, sys, time
def stop(signum, frame):
    sys.stderr.write(f"got {signal.Signals(signum).name}\\n"); sys.stderr.flush(); sys.exit(42)
if len(sys.argv) > 1:
    signal.signal(signal.SIGHUP, stop)
print('{"jsonrpc":"2.0","method":"ready"}', flush=True)
time.sleep(60)
"""


def _sleeper(tmp_path: Path, data_home: Path, *extra: str) -> subprocess.Popen[bytes]:
    script = tmp_path / "sleeper.py"
    script.write_text(SLEEPER)
    proc = start_tap(data_home, "--", sys.executable, str(script), *extra)
    assert proc.stdout is not None
    assert b"ready" in proc.stdout.readline()
    return proc


@posix_only("SIGTERM: Windows has none to forward (send_signal is TerminateProcess)")
def test_sigterm_forwarded_and_reported_as_a_shell_does(tmp_path: Path) -> None:
    proc = _sleeper(tmp_path, tmp_path)
    path = only_record(tmp_path)
    assert [r.live for r in list_records(path.parent)] == [True]
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 128 + signal.SIGTERM
    entries, _ = load_entries(path)
    assert entries[-1].text() == "process exited with code -15 (killed by SIGTERM)"
    assert [r.live for r in list_records(path.parent)] == [False]


@posix_only("SIGHUP is POSIX's")
def test_sighup_forwarded_to_a_server_that_handles_it(tmp_path: Path) -> None:
    proc = _sleeper(tmp_path, tmp_path, "handle")
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=20) == 42
    assert proc.stderr.read() == b"got SIGHUP\n"  # type: ignore[union-attr]


@posix_only("runs POSIX's cat")
def test_host_closing_stdin_closes_the_servers(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--", "cat")
    out, _ = _run_host(proc, [b"line\n"])
    assert out == b"line\n" and proc.returncode == 0
    texts = [e.text() for e in load_entries(only_record(tmp_path))[0] if e.kind is Kind.LIFECYCLE]
    assert texts[1:] == ["the host closed stdin", "process exited with code 0"]


@posix_only("POSIX modes, and cat")
def test_record_is_private_and_named_by_time_name_and_pid(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--name", "my server/../x", "--", "cat")
    _run_host(proc, [b"{}\n"])
    path = only_record(tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert re.fullmatch(rf"\d{{8}}-\d{{6}}-my_server_.._x-{proc.pid}\.jsonl", path.name), path.name
    [listed] = list_records(path.parent)
    assert (listed.name, listed.command, listed.pid, listed.live) == ("my server/../x", ["cat"], proc.pid, False)
    assert listed.size == path.stat().st_size


@posix_only("runs POSIX's cat")
def test_default_name_is_the_commands_basename_and_the_folder_follows_home(tmp_path: Path) -> None:
    env = {**tap_env(tmp_path), "HOME": str(tmp_path / "home")}
    del env["XDG_DATA_HOME"]
    done = subprocess.run([*TAP, "--", "/bin/cat"], input=b"{}\n", capture_output=True, env=env, timeout=30)
    assert done.returncode == 0 and done.stdout == b"{}\n"
    [path] = (tmp_path / "home/.local/share/mcp-lens/taps").glob("*.jsonl")
    assert "-cat-" in path.name and jsonl.load(path)[1]["tap"]["name"] == "cat"


@posix_only("runs POSIX's cat")
def test_rotation_continues_in_a_new_file_naming_the_previous(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--max-bytes", "4k", "--", "cat")
    lines = [rpc(method="n", params={"i": i, "pad": "p" * 80}) + b"\n" for i in range(120)]
    out, _ = _run_host(proc, lines)
    assert out == b"".join(lines)
    parts = records(tmp_path)
    assert len(parts) >= 5
    by_name = {p.name: p for p in parts}
    chain = [next(p for p in parts if "continues" not in jsonl.load(p)[1]["tap"])]
    while follower := [p for p in parts if jsonl.load(p)[1]["tap"].get("continues") == chain[-1].name]:
        chain.append(follower[0])
    assert sorted(chain) == sorted(by_name.values())
    entries = []
    for part in chain:
        assert part.stat().st_size <= 4096 + 400  # an entry may not fit; none is split
        entries += load_entries(part)[0]
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    assert stream_bytes(entries, Direction.OUT) == b"".join(lines) == stream_bytes(entries, Direction.IN)
    listed = {r.path.name: r for r in list_records(parts[0].parent)}
    assert all(listed[p.name].continued_by == q.name for p, q in itertools.pairwise(chain))


@posix_only("SIGKILL and /proc are POSIX's")
def test_a_tap_killed_with_sigkill_leaves_a_readable_record(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--", "cat")
    assert proc.stdin is not None and proc.stdout is not None
    for n in range(20):
        proc.stdin.write(rpc(id=n, method="ping") + b"\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith(b'{"jsonrpc"')
    path = only_record(tmp_path)
    child = jsonl.load(path)[1]["tap"]["child_pid"]
    wait_for(lambda: len(load_entries(path)[0]) >= 41, what="the 40 messages recorded")
    proc.kill()
    proc.wait(timeout=10)
    entries, _ = load_entries(path)
    assert len([e for e in entries if e.direction is Direction.OUT]) == 20
    assert len([e for e in entries if e.direction is Direction.IN]) == 20
    assert [r.live for r in list_records(path.parent)] == [False]
    proc.stdin.close()  # the orphaned server sees end of file and goes
    wait_for(lambda: not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2])


@posix_only("POSIX modes (chmod) make the folder unwritable")
def test_an_unwritable_record_folder_is_said_once_and_relaying_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    proc = start_tap(blocker, "--", "cat")
    out, err = _run_host(proc, [b"{}\n", b"[]\n"])
    assert out == b"{}\n[]\n" and proc.returncode == 0
    assert err.count(b"mcp-lens tap: recording stopped") == 1, err


def test_a_missing_command_exits_127(tmp_path: Path) -> None:
    proc = start_tap(tmp_path, "--", "no-such-command-here")
    out, err = _run_host(proc, [])
    assert proc.returncode == 127 and out == b""
    assert b"could not start 'no-such-command-here'" in err


@posix_only("reads /proc/PID/fd")
def test_the_tap_holds_no_socket_and_imports_neither_qt_nor_the_sdk(tmp_path: Path) -> None:
    proc = _sleeper(tmp_path, tmp_path)
    try:
        fds = [os.readlink(fd) for fd in Path(f"/proc/{proc.pid}/fd").iterdir()]
        assert not [fd for fd in fds if fd.startswith("socket:")], fds
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    probe = (
        "import sys, inspector.cli.tap, inspector.tap.relay, inspector.tap.recorder, inspector.tap.paths\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'mcp_types', 'PySide6', 'pydantic', 'httpx2',"
        " 'anyio', 'asyncio'}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=tap_env(tmp_path))
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_help_documents_tap_install_and_uninstall(tmp_path: Path) -> None:
    done = subprocess.run([*TAP, "--help"], capture_output=True, text=True, env=tap_env(tmp_path), timeout=30)
    assert done.returncode == 0
    for word in ("-- CMD", "--name", "--max-bytes", "--install CONFIG", "--uninstall CONFIG", "--server", "--yes"):
        assert word in done.stdout, word
    assert "listening socket" in done.stdout
    bare = subprocess.run(TAP, capture_output=True, text=True, env=tap_env(tmp_path), timeout=30)
    assert bare.returncode == 2 and "put it after --" in bare.stderr


@posix_only("reads /proc/PID/cmdline")
def test_a_record_whose_pid_now_names_another_program_is_not_live(tmp_path: Path) -> None:
    folder = tmp_path / "taps"
    folder.mkdir()
    head = jsonl.header({"tap": {"name": "old", "command": ["x"], "pid": os.getpid(), "started": 1.0}})
    (folder / "20260101-000000-old-1.jsonl").write_bytes(head + b"\n")
    (folder / "not-a-record.jsonl").write_bytes(b"garbage\n")
    (folder / "notes.txt").write_bytes(head + b"\n")
    [record] = list_records(folder)
    assert record.name == "old" and not record.live  # this pid is pytest, not a tap


@posix_only("runs POSIX's cat")
def test_the_command_after_the_separator_may_hold_any_word(tmp_path: Path) -> None:
    done = subprocess.run(
        [*TAP, "--", "echo", "--cli", "tokens", "--install", "x", "--"],
        capture_output=True,
        env=tap_env(tmp_path),
        timeout=30,
    )
    assert (done.returncode, done.stdout) == (0, b"--cli tokens --install x --\n")


FLOOD = r"""
import os, sys
count = int(sys.argv[1])
line = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d,"pad":"%s"}}\n'
chunk = b"".join(line % (n, b"q" * (n % 200)) for n in range(count))
view = memoryview(chunk)
while view:
    view = view[os.write(1, view):]
while os.read(0, 65536):
    pass
"""


def test_a_flood_is_relayed_and_recorded_whole_without_growing_memory(tmp_path: Path) -> None:
    script = tmp_path / "flood.py"
    script.write_text(FLOOD)
    count = 30_000
    proc = start_tap(tmp_path, "--", sys.executable, str(script), str(count))
    assert proc.stdout is not None and proc.stdin is not None
    received = bytearray()
    while received.count(b"\n") < count:
        received += proc.stdout.read1(1 << 16)
    path = only_record(tmp_path)
    wait_for(lambda: path.stat().st_size > len(received), what="the flood recorded")
    status = Path(f"/proc/{proc.pid}/status").read_text() if Path(f"/proc/{proc.pid}").exists() else ""
    peak = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0)
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    entries, _ = load_entries(path)
    assert stream_bytes(entries, Direction.IN) == bytes(received)
    assert len([e for e in entries if e.kind is Kind.NOTIFICATION]) == count
    assert peak < 50_000, f"the tap's peak resident memory was {peak} kB after {len(received) / 1e6:.0f} MB"


@posix_only("POSIX modes, and cat")
def test_a_record_that_cannot_grow_mid_session_is_said_once_and_relaying_goes_on(tmp_path: Path) -> None:
    import resource

    def small_files() -> None:  # like a full disk: writes past 3,000 bytes fail (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))

    proc = start_tap(tmp_path, "--", "cat", preexec_fn=small_files)
    lines = [rpc(id=n, method="ping") + b"\n" for n in range(200)]
    out, err = _run_host(proc, lines)
    assert out == b"".join(lines) and proc.returncode == 0
    assert err.count(b"mcp-lens tap: recording stopped") == 1, err
    entries, _ = load_entries(only_record(tmp_path))  # what was written before stays readable
    assert 0 < len(entries) < 200


def test_an_endless_stderr_line_is_recorded_in_pieces(tmp_path: Path) -> None:
    script = tmp_path / "progress.py"
    script.write_text("import os\nfor n in range(30000):\n    os.write(2, b'\\rprogress %06d ' % n + b'#' * 100)\n")
    proc = start_tap(tmp_path, "--", sys.executable, str(script))
    _, err = _run_host(proc, [])
    assert len(err) > 3 << 20 and b"\n" not in err
    entries, _ = load_entries(only_record(tmp_path))
    pieces = [e for e in entries if e.kind is Kind.STDERR]
    assert len(pieces) >= 3 and all(len(e.raw) < (1 << 20) + (1 << 16) for e in pieces)
    assert stream_bytes(entries, Direction.IN, stderr=True) == err
