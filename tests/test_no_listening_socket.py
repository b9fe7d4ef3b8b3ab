"""MCP Lens opens no listening socket in normal use; the OAuth redirect listener exists only during a flow.

Sockets are read from the process's own view of the kernel tables: a TCP socket in LISTEN state in
`/proc/<pid>/net/tcp{,6}` (or a listening Unix socket in `/proc/<pid>/net/unix`) counts only if its
inode is one of the process's open file descriptors (`/proc/<pid>/fd/* -> socket:[inode]`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from lens_support import REPO, free_port, wait_for_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/net/tcp").exists(), reason="reads /proc")

TCP_LISTEN = "0A"
UNIX_ACCEPTCON = 0x00010000  # __SO_ACCEPTCON: the socket listens


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def _address(hex_address: str) -> tuple[str, int]:
    host, port = hex_address.split(":")
    raw = bytes.fromhex(host)
    # /proc prints the address as 32-bit words in host byte order (little-endian here).
    swapped = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    return str(ipaddress.ip_address(swapped)), int(port, 16)


def listening_sockets(pid: int) -> list[tuple[str, str, int]]:
    """(kind, address, port) of the sockets process `pid` listens on."""
    mine = _socket_inodes(pid)
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == TCP_LISTEN and int(fields[9]) in mine:
                found.append((table, *_address(fields[1])))
    for line in Path(f"/proc/{pid}/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[3], 16) & UNIX_ACCEPTCON and int(fields[6]) in mine:
            found.append(("unix", fields[7] if len(fields) > 7 else "(unnamed)", 0))
    return found


def test_the_reader_sees_a_listening_socket():
    """Guards the check itself: a socket this process listens on is found, and gone once closed."""
    import socket

    before = listening_sockets(os.getpid())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        assert ("tcp", "127.0.0.1", port) in listening_sockets(os.getpid())
    assert listening_sockets(os.getpid()) == before


@pytest.mark.slow
def test_the_app_listens_on_nothing_in_normal_use(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path),
        "PYTHONPATH": str(REPO),
        "MCP_LENS_STARTUP_MARKERS": "1",
    }
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as err:
        argv = [sys.executable, "-m", "inspector"]
        app = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=err, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        seen = []
        assert app.stdout is not None
        while time.monotonic() < deadline:
            line = app.stdout.readline().decode(errors="replace")
            if not line:
                break
            seen.append(line.strip())
            if line.startswith("connected"):
                break
        assert any(s.startswith("connected") for s in seen), (
            f"the app did not connect to the demo: {seen}\n{errors.read_text(errors='replace')[-2000:]}"
        )
        time.sleep(1.0)  # let the window settle (tool list, traffic view)
        assert listening_sockets(app.pid) == []
    finally:
        app.terminate()
        app.wait(20)


@pytest.fixture
def oauth_server():
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(REPO / "tests/auth/oauth_server.py"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, server)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(10)


def test_the_oauth_listener_exists_only_during_the_flow(oauth_server: str, tmp_path: Path) -> None:
    from inspector.auth.signin import ServerAuth
    from inspector.auth.storage import FileBackend
    from inspector.config.profile import ServerProfile
    from inspector.core.connection import Connection
    from inspector.core.targets import make_transport
    from inspector.traffic.store import TrafficStore

    pid = os.getpid()
    before = listening_sockets(pid)
    during: list[list[tuple[str, str, int]]] = []

    async def browser(url: str) -> None:
        during.append(listening_sockets(pid))
        async with httpx2.AsyncClient(follow_redirects=True, timeout=10) as client:
            await client.get(url)

    profile = ServerProfile(name="oauth", transport="http", url=oauth_server)
    auth = ServerAuth(profile, backend=FileBackend(tmp_path))

    async def flow() -> int:
        await auth.sign_in(TrafficStore(), opener=browser, timeout=20)
        after_sign_in = listening_sockets(pid)
        async with Connection(make_transport(profile, TrafficStore(), auth=auth.provider)) as conn:
            await conn.list_tools()
            assert listening_sockets(pid) == before  # connected over HTTP with OAuth: still nothing
        assert after_sign_in == before
        return len(during)

    assert asyncio.run(flow()) == 1
    opened = [s for s in during[0] if s not in before]
    assert len(opened) == 1, opened
    kind, host, port = opened[0]
    assert (kind, host) == ("tcp", "127.0.0.1") and port > 0
    assert listening_sockets(pid) == before
