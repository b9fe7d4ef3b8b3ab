"""Helpers for the 2020-12 preservation tests: the schema server's argv and a loopback canary that
records every HTTP request it receives (a remote `$ref` that anything fetched shows up here)."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SCHEMA_SERVER = [sys.executable, str(Path(__file__).with_name("schema_server.py"))]
CANARY_PATH = "/canary/profile-schema.json"
CANARY_BODY = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "integer"}


@dataclass
class Canary:
    url: str
    hits: list[str] = field(default_factory=list)


@contextmanager
def canary() -> Iterator[Canary]:
    """A loopback HTTP server answering every GET with a schema; `hits` lists the paths requested."""
    found: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found.append(self.path)
            body = json.dumps(CANARY_BODY).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/schema+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Canary(f"http://127.0.0.1:{server.server_address[1]}{CANARY_PATH}", found)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def key_order(value: Any) -> Any:
    """Every object's keys in order, recursively: equal for two values only if their key orders match."""
    if isinstance(value, dict):
        return [[k, key_order(v)] for k, v in value.items()]
    if isinstance(value, list):
        return [key_order(v) for v in value]
    return [type(value).__name__, value]
