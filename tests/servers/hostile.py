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
  dies-at-start writes one stderr line and exits with code 1 before reading anything
  crash-handshake  reads initialize, writes half a JSON line and a stderr line, exits with code 2
  hang-then-die reads initialize, says nothing for 1 s, then exits with code 4
  wrong-id      answers tools/list and tools/call only with an id it was never sent (tools/list's: 424242)
  escapes       terminal escapes (screen clear, OSC 8 link, colour), NUL and bidi overrides in the server's
                name, instructions, tool names, descriptions, results and stderr
  big-strings   a 1 MB tool description, a 1 MB instructions string and a 1 MB result text
  big-icon      a tool whose icon is a 20 MB data: URI
  many-tools    5,000 tools in one tools/list answer
  invalid-json  answers tools/list and tools/call with a cut JSON line (never a valid answer)
  huge-line     a 30 MB line that is not JSON (a screen clear repeated in it) on stdout before its initialize answer
  crlf          ends every line it writes with CRLF, as a Python server on Windows does (text-mode stdout)
  refuse-initialize  answers every request (initialize first) with JSON-RPC error -32000, its message holding a CR
                and U+2028; exits only when stdin closes
Every line written to stdout is also appended to the file named by $HOSTILE_LOG, if set.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "garbage"
LOG = os.environ.get("HOSTILE_LOG")


def write_raw(line: bytes, end: bytes = b"\n") -> None:
    sys.stdout.buffer.write(line + (b"\r\n" if MODE == "crlf" and end == b"\n" else end))
    sys.stdout.buffer.flush()
    if LOG:
        with open(LOG, "ab") as log:
            log.write(line + end)


def send(message: dict) -> None:
    write_raw(json.dumps(message).encode())


MARKUP = '<img src="file:///etc/passwd"> <a href="https://x">x</a> <b>bold</b>'
# What a terminal would obey: clear the screen, an OSC 8 link, red text; a NUL; a right-to-left override.
ESCAPES = "\x1b[2J\x1b]8;;https://evil.example\x07link\x1b]8;;\x07 \x1b[31mred\x1b[0m nul\x00 rtl\u202eloot"
MEGABYTE = "m" * 1_000_000
WRONG_ID = 424242


def tools() -> list[dict]:
    if MODE == "escapes":
        return [{"name": "rtl\u202eloot", "description": ESCAPES, "inputSchema": {"type": "object"}}]
    if MODE == "big-strings":
        return [{"name": "work", "description": MEGABYTE, "inputSchema": {"type": "object"}}]
    if MODE == "big-icon":
        data = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(15_000_000)).decode()
        return [{"name": "work", "icons": [{"src": data, "mimeType": "image/png"}], "inputSchema": {"type": "object"}}]
    if MODE == "many-tools":
        return [
            {"name": f"tool_{n}", "description": f"tool number {n}", "inputSchema": {"type": "object"}}
            for n in range(5000)
        ]
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
    if MODE == "escapes":
        send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": ESCAPES}]}})
        return
    if MODE == "big-strings":
        send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": MEGABYTE}]}})
        return
    if MODE == "html":
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": MARKUP}})
    if MODE == "bad-tools":
        block = {"type": "hologram", "data": "???"}
        send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [block]}})
        return
    send({"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": "done"}]}})


def stderr(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def before_answer(method: str, rpc_id: object) -> bool:
    """The modes that never answer properly: True when the message has been dealt with (or ignored)."""
    if MODE == "crash-handshake" and method == "initialize":
        write_raw(b'{"jsonrpc": "2.0", "id": ', end=b"")
        stderr("hostile: crashing on purpose in the middle of the handshake")
        os._exit(2)
    if MODE == "refuse-initialize" and rpc_id is not None:
        error = {"code": -32000, "message": "Trusted Server OK\rHIDDEN: this server refused you\u2028and more"}
        send({"jsonrpc": "2.0", "id": rpc_id, "error": error})
        return True
    if MODE == "hang-then-die" and method == "initialize":
        time.sleep(1.0)
        stderr("hostile: hung for a second, now dying")
        os._exit(4)
    if rpc_id is None or not str(method).startswith("tools/"):
        return False  # the handshake (and the era probe's server/discover) go as usual
    if MODE == "wrong-id":
        wrong = WRONG_ID if method == "tools/list" else WRONG_ID + 1
        send({"jsonrpc": "2.0", "id": wrong, "result": {"tools": tools(), "content": []}})
        return True
    if MODE == "invalid-json":
        write_raw(b'{"jsonrpc": "2.0", "id": ' + json.dumps(rpc_id).encode() + b', "result": {"tools": [')
        return True
    return False


def main() -> None:
    if MODE == "dies-at-start":
        stderr("hostile: dying before reading anything")
        sys.exit(1)
    if MODE == "garbage":
        write_raw(b"this is not JSON, it is a banner printed to stdout")
    for raw in sys.stdin:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, rpc_id = message.get("method"), message.get("id")
        if before_answer(method, rpc_id):
            continue
        if method == "initialize":
            if MODE == "garbage":
                write_raw(b"{broken json")
            if MODE == "huge-line":
                write_raw(b"\x1b[2Jnot json " * 2_300_000)
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": f"hostile-{MODE}", "version": "0"},
            }
            if MODE == "escapes":
                result["instructions"] = ESCAPES
                result["serverInfo"]["title"] = ESCAPES
                stderr(ESCAPES)
            if MODE == "big-strings":
                result["instructions"] = MEGABYTE
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
