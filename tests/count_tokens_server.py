"""A loopback HTTP server answering ``POST /v1/messages/count_tokens`` in the shape Anthropic's API uses,
for tests that cannot reach the API (point ``ANTHROPIC_BASE_URL`` at it)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from lens_support import free_port

SYSTEM_PROMPT = 346  # what the stand-in adds when ``tools`` is set, like the documented tool-use prompt


def stand_in_tokens(body: dict[str, Any]) -> int:
    """A deterministic stand-in for Claude's count: 8 + message characters; tools add the system prompt
    and one token per 3 characters of their JSON."""
    tokens = 8 + len(body["messages"][0]["content"])
    if "tools" in body:
        tokens += SYSTEM_PROMPT + len(json.dumps(body["tools"])) // 3
    return tokens


@contextmanager
def count_tokens_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``(base URL, requests seen)`` while the server runs."""
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", "0"))))
            seen.append({"path": self.path, "key": self.headers.get("x-api-key"), "body": body})
            data = json.dumps({"input_tokens": stand_in_tokens(body)}).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, name="count-tokens-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
