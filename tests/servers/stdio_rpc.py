"""The JSON-RPC loop of our small stdlib-only stdio test servers (run as scripts from this folder).

`serve(answer, …)` reads one message per line, ignores notifications and unparsable lines, answers
`initialize` and `ping` itself, and asks `answer(method, params)` for everything else: it returns the
result dict, or None for an unknown method (answered with error -32601). `answer` may write other
messages (notifications) with `send` before it returns.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Answer = Callable[[str, dict[str, Any]], dict[str, Any] | None]


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def serve(answer: Answer, *, name: str, capabilities: dict[str, Any]) -> None:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") is None:
            continue  # notifications need no answer
        method, rpc_id = message.get("method"), message["id"]
        params = message.get("params") or {}
        if method == "initialize":
            result: dict[str, Any] | None = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": capabilities,
                "serverInfo": {"name": name, "version": "1"},
            }
        elif method == "ping":
            result = {}
        else:
            result = answer(str(method), params)
        if result is None:
            send({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": -32601, "message": f"unknown method {method}"}})
        else:
            send({"jsonrpc": "2.0", "id": rpc_id, "result": result})
