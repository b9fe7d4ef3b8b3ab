"""Raw stdio wire checks: every stdout line is JSON-RPC, and cancellation really stops a tool."""

import json
import os
import queue
import subprocess
import threading
import time
from typing import Any

import pytest
from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT


class RawServer:
    """``python -m inspector.demo`` with line-level access to its stdin and stdout."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            DEMO_COMMAND,
            cwd=REPO_ROOT,
            env={**os.environ, **DEMO_ENV},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self._pumps = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self.lines.put), daemon=True),
            threading.Thread(target=self._pump, args=(self.process.stderr, self.stderr.append), daemon=True),
        ]
        for pump in self._pumps:
            pump.start()

    @staticmethod
    def _pump(stream: Any, sink: Any) -> None:
        for line in stream:
            sink(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.process.stdin.flush()

    def next(self, timeout: float = 30) -> dict[str, Any]:
        message = json.loads(self.lines.get(timeout=timeout))  # every stdout line must be JSON
        assert message.get("jsonrpc") == "2.0", message
        self.seen.append(message)
        return message

    def request(self, id_: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.send({"id": id_, "method": method, **({"params": params} if params is not None else {})})
        while (message := self.next()).get("id") != id_:
            pass
        return message

    def close(self) -> str:
        """Close stdin (the server's cue to exit) and return its stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=15)
        for pump in self._pumps:
            pump.join(timeout=5)
        return "".join(self.stderr)


@pytest.fixture
def raw_server() -> Any:
    server = RawServer()
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def initialize(server: RawServer) -> dict[str, Any]:
    result = server.request(
        1,
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
    )
    server.send({"method": "notifications/initialized"})
    return result


def test_stdout_carries_only_protocol_messages(raw_server: RawServer) -> None:
    result = initialize(raw_server)["result"]
    assert result["serverInfo"]["name"] == "mcp-lens-demo"
    assert result["capabilities"]["tools"]["listChanged"] is True
    for id_, name in enumerate(["echo", "generate_image", "simulate_error", "emit_logs", "toggle_extra_tool"], 2):
        arguments = {"message": "x"} if name == "echo" else {}
        assert "result" in raw_server.request(id_, "tools/call", {"name": name, "arguments": arguments})
    stderr = raw_server.close()
    assert raw_server.process.returncode == 0
    assert raw_server.lines.empty()
    assert stderr.startswith("mcp-lens-demo ") and "stdio" in stderr.splitlines()[0]
    methods = [message.get("method") for message in raw_server.seen]
    assert "notifications/message" in methods and "notifications/tools/list_changed" in methods


def test_cancelled_request_stops_and_gets_no_response(raw_server: RawServer) -> None:
    initialize(raw_server)
    params = {"name": "slow_task", "arguments": {"steps": 100, "delay": 0.05}, "_meta": {"progressToken": "t"}}
    raw_server.send({"id": 7, "method": "tools/call", "params": params})
    assert raw_server.next()["method"] == "notifications/progress"
    raw_server.send({"method": "notifications/cancelled", "params": {"requestId": 7, "reason": "test"}})
    raw_server.request(8, "ping")
    settled = len(raw_server.seen)
    time.sleep(0.5)  # ten more steps' worth of time
    raw_server.request(9, "ping")
    late = [m for m in raw_server.seen[settled:] if m.get("method") == "notifications/progress" or m.get("id") == 7]
    assert late == []
    assert not any(message.get("id") == 7 for message in raw_server.seen)
