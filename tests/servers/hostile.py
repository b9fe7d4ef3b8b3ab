"""A deliberately broken MCP server on stdio, for the tests. Stdlib only.

``python hostile.py MODE``, where MODE is one of:
  garbage       non-JSON lines on stdout among valid messages
  exit-mid-call exits with code 3 (after a stderr line) when a tool is called
  never-answer  never answers tools/call; logs any notifications/cancelled it gets to stderr
  unknown-id    answers tools/call first with a wrong id, then with the right one
  huge          answers tools/call with a 20 MB text block (one 20 MB line)
  bad-tools     a tool without inputSchema, a content block of an unknown type
  bad-output    structuredContent that violates the tool's outputSchema
  html          markup in every server-controlled string (names, descriptions, instructions, stderr)
Every line written to stdout is also appended to the file named by $HOSTILE_LOG, if set.
"""

from __future__ import annotations

import json
import os
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "garbage"
LOG = os.environ.get("HOSTILE_LOG")


def write_raw(line: bytes) -> None:
    sys.stdout.buffer.write(line + b"\n")
    sys.stdout.buffer.flush()
    if LOG:
        with open(LOG, "ab") as log:
            log.write(line + b"\n")


def send(message: dict) -> None:
    write_raw(json.dumps(message).encode())


MARKUP = '<img src="file:///etc/passwd"> <a href="https://x">x</a> <b>bold</b>'


def tools() -> list[dict]:
    if MODE == "html":
        return [{"name": "markup<b>", "description": MARKUP, "inputSchema": {"type": "object"}}]
    if MODE == "bad-output":
        schema = {"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp", "unit"]}
        return [{"name": "weather", "inputSchema": {"type": "object"}, "outputSchema": schema}]
    if MODE == "bad-tools":
        return [
            {"name": "no_schema", "description": "has no inputSchema"},
            {"name": "odd_content", "inputSchema": {"type": "object"}},
        ]
    return [{"name": "work", "description": "does work", "inputSchema": {"type": "object"}}]


def call(rpc_id: object, params: dict) -> None:
    if MODE == "exit-mid-call":
        sys.stderr.write("hostile: crashing on purpose in the middle of a call\n")
        sys.stderr.flush()
        os._exit(3)
    if MODE == "never-answer":
        return
    if MODE == "unknown-id":
        send({"jsonrpc": "2.0", "id": 987654, "result": {"content": [{"type": "text", "text": "stray"}]}})
    if MODE == "bad-output":
        result = {"content": [{"type": "text", "text": "hot"}], "structuredContent": {"temp": "hot"}}
        send({"jsonrpc": "2.0", "id": rpc_id, "result": result})
        return
    if MODE == "huge":
        send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": "x" * 20_000_000}]}})
        return
    if MODE == "html":
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": MARKUP}})
    if MODE == "bad-tools":
        block = {"type": "hologram", "data": "???"}
        send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [block]}})
        return
    send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": "done"}]}})


def main() -> None:
    if MODE == "garbage":
        write_raw(b"this is not JSON, it is a banner printed to stdout")
    for raw in sys.stdin:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, rpc_id = message.get("method"), message.get("id")
        if method == "initialize":
            if MODE == "garbage":
                write_raw(b"{broken json")
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": f"hostile-{MODE}", "version": "0"},
            }
            if MODE == "html":
                result["instructions"] = MARKUP
                result["serverInfo"]["title"] = MARKUP
                sys.stderr.write(MARKUP + "\n")
                sys.stderr.flush()
            send({"jsonrpc": "2.0", "id": rpc_id, "result": result})
        elif method == "tools/list":
            if MODE == "garbage":
                write_raw(b"\xff\xfe not utf-8 either")
            send({"jsonrpc": "2.0", "id": rpc_id, "result": {"tools": tools()}})
        elif method == "tools/call":
            call(rpc_id, message.get("params") or {})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": rpc_id, "result": {}})
        elif method == "notifications/cancelled":
            sys.stderr.write(f"hostile: got cancelled for {message['params'].get('requestId')}\n")
            sys.stderr.flush()
        elif rpc_id is not None:
            send({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": -32601, "message": f"no {method}"}})


if __name__ == "__main__":
    main()
