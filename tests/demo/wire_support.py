"""Raw JSON-RPC against the demo process, in either protocol era: stdio lines and HTTP POSTs."""

import json
import os
import queue
import subprocess
import threading
import urllib.error
import urllib.request
from typing import Any

from demo_support import DEMO_COMMAND, DEMO_ENV, REPO_ROOT

MODERN = "2026-07-28"
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
ACCEPT = "application/json, text/event-stream"


def modern_meta(**capabilities: Any) -> dict[str, Any]:
    """The 2026-07-28 per-request envelope (``params._meta``)."""
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }


class RawStdio:
    """``python -m inspector.demo`` with line-level access; answers elicitation requests it is given."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            DEMO_COMMAND,
            cwd=REPO_ROOT,
            env={**os.environ, **DEMO_ENV},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self.answers: dict[str, dict[str, Any]] = {}  # server request method -> result to send back
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.process.stdin.flush()

    def request(self, id_: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request; return its response (answering server requests found in ``answers``)."""
        self.send({"id": id_, "method": method, **({"params": params} if params is not None else {})})
        while True:
            message = json.loads(self.lines.get(timeout=30))
            self.seen.append(message)
            if message.get("id") == id_ and "method" not in message:
                return message
            if message.get("method") in self.answers and "id" in message:
                self.send({"id": message["id"], "result": self.answers[message["method"]]})

    def initialize(self, **capabilities: Any) -> dict[str, Any]:
        client = {"name": "raw", "version": "0"}
        params = {"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": client}
        result = self.request(0, "initialize", params)
        self.send({"method": "notifications/initialized"})
        return result

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def post(url: str, message: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[dict[str, str], Any]:
    """POST one JSON-RPC message; return the response headers (lower-case) and the JSON-RPC reply.

    A reply sent as an SSE stream yields the event whose id matches the request's.
    """
    request = urllib.request.Request(
        url,
        data=json.dumps({"jsonrpc": "2.0", **message}).encode(),
        headers={"Content-Type": "application/json", "Accept": ACCEPT, **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status_headers, body = {k.lower(): v for k, v in response.headers.items()}, response.read().decode()
    except urllib.error.HTTPError as exc:
        status_headers, body = {k.lower(): v for k, v in exc.headers.items()}, exc.read().decode()
    if not status_headers.get("content-type", "").startswith("text/event-stream"):
        return status_headers, json.loads(body) if body else None
    events = [json.loads(line[5:]) for line in body.splitlines() if line.startswith("data:") and line[5:].strip()]
    return status_headers, next((event for event in events if event.get("id") == message.get("id")), events)


def post_modern(url: str, id_: int, method: str, params: dict[str, Any], name: str | None = None) -> Any:
    """A 2026-07-28 request over HTTP: the envelope in ``_meta`` and the standard headers."""
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    capabilities = params.pop("_capabilities", {})
    message = {"id": id_, "method": method, "params": {**params, "_meta": modern_meta(**capabilities)}}
    return post(url, message, headers)
