"""The first connection's stdio server starts before the SDK is imported, so the two start-ups overlap
(the app's start to connected); the import runs off the event loop's thread, so a window stays responsive
meanwhile; a command that cannot start still fails the connect in its words."""

from __future__ import annotations

import json
import subprocess
import sys

from lens_support import DEMO, REPO, lens_env

SCRIPT = """
import asyncio, json, sys
import inspector.transports.process as process
from inspector.config.profile import ServerProfile
from inspector.core.session import Session
from inspector.traffic.store import TrafficStore

import threading
from importlib.abc import MetaPathFinder

class WhereImported(MetaPathFinder):
    threads = {}
    def find_spec(self, name, path, target=None):
        if name == "mcp":
            self.threads[name] = threading.current_thread() is threading.main_thread()
        return None
sys.meta_path.insert(0, WhereImported())

seen = []
real = process.spawn
def spawn(command):
    seen.append("mcp" in sys.modules)
    return real(command)
process.spawn = spawn

async def main(argv):
    session = Session(TrafficStore())
    session.connect(ServerProfile(name="s", transport="stdio", command=argv[0], args=argv[1:]))
    state = await session.wait_settled()
    detail = session.detail
    await session.shutdown()
    print(json.dumps({
        "state": state, "detail": detail, "sdk_loaded_at_spawn": seen,
        "sdk_imported_on_loop_thread": WhereImported.threads.get("mcp"),
    }))

asyncio.run(main(sys.argv[1:]))
"""


def _connect(*argv: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True, timeout=120, env=lens_env(), cwd=REPO
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_server_is_started_before_the_sdk_is_imported() -> None:
    got = _connect(*DEMO)
    assert got["state"] == "connected", got
    assert got["sdk_loaded_at_spawn"][0] is False, got


def test_a_command_that_cannot_start_still_fails_in_its_words() -> None:
    got = _connect("mcp-lens-no-such-command-here")
    assert got["state"] == "failed", got
    assert "command not found" in got["detail"], got


def test_the_sdk_is_imported_off_the_event_loops_thread() -> None:
    got = _connect(*DEMO)
    assert got["state"] == "connected", got
    assert got["sdk_imported_on_loop_thread"] is False, got
