"""A Streamable HTTP MCP server written on raw sockets (stdlib asyncio), for what a framework will not send:

    python tests/servers/raw_http.py MODE PORT

It speaks the handshake era (``server/discover`` is refused as an unknown method), with one tool, `big`,
whose result is BIG_MB (environment, default 50) MB of text. MODE says how `tools/list` and `tools/call`
are answered:

- ``json``: ``application/json`` with a Content-Length; ``sse``: an event stream, chunked, each event
  written in small pieces (a frame split across reads), a comment and a notification before the answer;
- ``drop``: the connection is closed with no answer; ``cut``: the stream's headers, then the connection closed;
- ``garbage``: ``200 application/json`` whose body is not JSON; ``sse-garbage``: an event whose data is not
  JSON, then the stream ends; ``error500``: ``500 text/plain``; ``accepted``: ``202`` with no body;
  ``empty``: ``200 application/json`` with no body; ``bad-length``: a Content-Length of ``²`` (a digit to
  `str.isdigit`, not to `int`);
- ``moved``: every POST to ``/mcp`` is sent on with ``307`` to ``/moved/mcp``, which answers as ``json``;
  ``elsewhere``: ``307`` to another port (a redirect off the endpoint's origin); ``unauthorized``: every
  request is answered ``401`` with a ``WWW-Authenticate: Bearer`` challenge; ``deaf-delete``: as ``json``, but
  the closing DELETE is never answered; ``die-after-answer``: as ``json``, but the process exits right after
  answering ``tools/list`` or ``tools/call`` and the GET (a server gone before the client ends its session).

Other requests are answered as in ``json``. GET is refused with 405, DELETE accepted. With TLS_CERT and
TLS_KEY (PEM files) in the environment it serves https.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

MODE = sys.argv[1]
PORT = int(sys.argv[2])
BIG = int(os.environ.get("BIG_MB", "50")) * 1024 * 1024
ANSWERED: set[str] = set()  # die-after-answer: what has been answered so far
TOOLS = [{"name": "big", "description": "a long text", "inputSchema": {"type": "object"}}]


def result_for(message: dict) -> dict:
    method, rpc_id = message.get("method"), message.get("id")
    if method == "initialize":
        version = message.get("params", {}).get("protocolVersion", "2025-06-18")
        info = {"name": "raw-http", "version": "1"}
        return {
            "jsonrpc": "2.0",
            "id": rpc_id,
            "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info},
        }
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": rpc_id, "result": {"tools": TOOLS}}
    if method == "tools/call":
        return {"jsonrpc": "2.0", "id": rpc_id, "result": {"content": [{"type": "text", "text": "x" * BIG}]}}
    return {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": -32601, "message": f"Method not found: {method}"}}


async def read_request(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
    line = await reader.readline()
    if not line:
        return None
    method, target = line.decode("latin-1").split(" ")[:2]
    headers: dict[str, str] = {}
    while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return method, target, headers, body


def head(status: str, headers: list[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status}", *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


async def answer(writer: asyncio.StreamWriter, message: dict) -> bool:
    """Write the answer to one request; False when the connection must close."""
    data = json.dumps(result_for(message)).encode()
    session = [("Mcp-Session-Id", "raw-session-1")]
    data_methods = message.get("method") in ("tools/list", "tools/call")
    mode = MODE if data_methods and MODE not in ("moved", "elsewhere", "deaf-delete", "die-after-answer") else "json"
    if mode == "drop":
        return False
    if mode == "garbage":
        body = b"<html>this is not JSON {{{"
        writer.write(head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]) + body)
        return True
    if mode == "error500":
        body = b"boom: the server fell over"
        writer.write(
            head("500 Internal Server Error", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
            + body
        )
        return True
    if mode == "bad-length":
        writer.write(head("200 OK", [("Content-Type", "application/json"), ("Content-Length", "\u00b2")]) + data)
        return True
    if mode == "empty":
        writer.write(head("200 OK", [("Content-Type", "application/json"), ("Content-Length", "0")]))
        return True
    if mode == "accepted":
        writer.write(head("202 Accepted", [("Content-Length", "0")]))
        return True
    if mode == "json":
        writer.write(
            head("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(data))), *session]) + data
        )
        return True
    stream = [("Content-Type", "text/event-stream"), ("Transfer-Encoding", "chunked"), ("Cache-Control", "no-cache")]
    writer.write(head("200 OK", [*stream, *session]))
    if mode == "cut":
        await writer.drain()
        return False
    log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}
    events = [b": warming up\n\n", b"event: message\ndata: " + json.dumps(log).encode() + b"\n\n"]
    if mode == "sse-garbage":
        events.append(b"event: message\ndata: {not json at all\n\n")
    else:
        events.append(b"event: message\nid: 1\ndata: " + data + b"\n\n")
    for event in events:
        for start in range(0, len(event), 7 if len(event) < 1000 else 1 << 16):  # frames split across reads
            writer.write(chunk(event[start : start + (7 if len(event) < 1000 else 1 << 16)]))
            await writer.drain()
    writer.write(b"0\r\n\r\n")
    return True


async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while (request := await read_request(reader)) is not None:
            method, target, _headers, body = request
            moved = {"moved": "/moved/mcp", "elsewhere": f"http://127.0.0.1:{PORT + 1}/mcp"}.get(MODE)
            if MODE == "unauthorized":  # no sign-in can succeed here: every request, discovery too
                body = b'{"error": "invalid_token"}'
                auth = ("WWW-Authenticate", 'Bearer error="invalid_token"')
                writer.write(
                    head(
                        "401 Unauthorized",
                        [auth, ("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
                    )
                    + body
                )
            elif method == "POST" and moved and target == "/mcp":
                writer.write(head("307 Temporary Redirect", [("Location", moved), ("Content-Length", "0")]))
            elif method == "GET":
                writer.write(head("405 Method Not Allowed", [("Content-Length", "0")]))
            elif method == "DELETE" and MODE == "deaf-delete":
                await asyncio.sleep(3600)  # the session's end is never answered
            elif method == "DELETE":
                writer.write(head("200 OK", [("Content-Length", "0")]))
            else:
                message = json.loads(body)
                if "id" not in message:
                    writer.write(head("202 Accepted", [("Content-Length", "0")]))
                elif not await answer(writer, message):
                    break
            await writer.drain()
            if MODE == "die-after-answer":
                ANSWERED.add("GET" if method == "GET" else "tools" if b'"tools/' in body else "")
                if {"GET", "tools"} <= ANSWERED:
                    writer.close()
                    os._exit(0)
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main() -> None:
    tls = None
    if os.environ.get("TLS_CERT"):
        import ssl

        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(os.environ["TLS_CERT"], os.environ["TLS_KEY"])
    server = await asyncio.start_server(serve, "127.0.0.1", PORT, ssl=tls)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
