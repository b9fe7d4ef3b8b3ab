"""An MCP server on stdio whose every string is hostile text, for the plain-text tests. Stdlib only.

``python hostile_text.py FIFO``: every server-controlled string (server name, version, title and
instructions; tool names, titles, descriptions, schema titles, descriptions, property names and enum
values; results as text, embedded resource, resource link and structured content; log messages and
their logger; resource and prompt names, titles and descriptions; error messages; an elicitation's
message and field, a sampling request's messages and system prompt (calling "asks"); completion
values; stderr) carries
`corpus()`: HTML and Qt rich text (`<img src="file://FIFO">`, `<b>`, `<a href>`), terminal escapes
(screen clear, an OSC 8 link, C1 CSI), NUL, bidi overrides and isolates, zero-width characters.
FIFO should be a named pipe nobody writes to: whoever opens it to read it (Qt loading the image)
would wait forever, so a test can tell. One log message and one result are over 1 MB.
"""

from __future__ import annotations

import json
import sys

FIFO = sys.argv[1] if len(sys.argv) > 1 else "/nonexistent/fifo"
IMG = f'<img src="file://{FIFO}">'
SPOOF = "rtl\u202eloot"  # reads "rtltool" when the override is obeyed
# What would be obeyed if shown raw: markup, a terminal's screen clear and OSC 8 link, NUL, C1 CSI,
# a right-to-left override, an isolate, a zero-width space, a byte-order mark, a lone surrogate, line breaks that
# are not newlines (a lone CR, U+2028: a name must not be cut there) and a combining grapheme joiner.
TAIL = (
    '<b>bold</b> <a href="https://evil.example">link</a> \x1b[2J\x1b]8;;https://evil.example\x07osc8\x1b]8;;\x07'
    f" nul\x00 c1\x9b {SPOOF} \u2066iso\u2069 zw\u200bsp \ufeffbom lone\ud800sur cr\rret ls\u2028sep cgj\u034fend"
)
MEGABYTE = "m" * 1_000_000


def corpus(where: str) -> str:
    """Hostile text naming where it was put (the first tag on the first line is an image: rich text)."""
    return f"{where} {IMG} {TAIL}"


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(data: str, logger: str) -> None:
    send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "warning", "logger": logger, "data": data},
        }
    )


def tools() -> list[dict]:
    properties = {
        "query": {"type": "string", "title": corpus("prop title"), "description": corpus("prop description")},
        "choice": {"type": "string", "enum": [corpus("enum value"), SPOOF]},
        "many": {"type": "array", "items": {"type": "string", "title": corpus("item title")}},
        "either": {"anyOf": [{"type": "string", "title": corpus("variant a")}, {"type": "number", "title": "b"}]},
        corpus("prop name"): {"type": "boolean"},
    }
    output = {
        "type": "object",
        "title": corpus("output title"),
        "description": corpus("output description"),
        "properties": {corpus("out key"): {"type": "string", "description": corpus("out description")}},
    }
    return [
        {
            "name": SPOOF,
            "title": corpus("tool title"),
            "description": corpus("tool description") + "\nsecond line " + corpus("line 2"),
            "inputSchema": {
                "type": "object",
                "title": corpus("schema title"),
                "properties": properties,
                # left empty: the call asks about them in a message box (and the array's editor is built)
                "required": [corpus("prop name"), "many", "either"],
            },
            "outputSchema": output,
            "annotations": {"title": corpus("annotation title")},
        },
        {
            "name": corpus("tool name"),
            "description": corpus("big description") + MEGABYTE,
            "inputSchema": {"type": "object"},
        },
        {"name": "fails", "description": "answers with an error", "inputSchema": {"type": "object"}},
        {"name": "asks", "description": "asks the client (elicitation, sampling)", "inputSchema": {"type": "object"}},
    ]


def call_result() -> dict:
    content = [
        {"type": "text", "text": corpus("result text")},
        {"type": "resource", "resource": {"uri": "hostile://r", "mimeType": "text/plain", "text": corpus("embedded")}},
        {
            "type": "resource_link",
            "uri": "hostile://link",
            "name": corpus("link name"),
            "title": corpus("link title"),
            "description": corpus("link description"),
        },
        {"type": "text", "text": corpus("big result") + MEGABYTE},
    ]
    return {"content": content, "structuredContent": {corpus("out key"): corpus("structured value")}}


def resources() -> list[dict]:
    return [
        {
            "uri": "hostile://res",
            "name": corpus("resource name"),
            "title": corpus("resource title"),
            "description": corpus("resource description"),
            "mimeType": "text/plain",
        }
    ]


def prompts() -> list[dict]:
    argument = {"name": "topic", "description": corpus("argument description")}
    return [
        {
            "name": corpus("prompt name"),
            "title": corpus("prompt title"),
            "description": corpus("prompt description"),
            "arguments": [argument],
        }
    ]


def ask_the_client() -> None:
    """An elicitation and a sampling request, every string hostile (the call is answered once both are)."""
    field = {"type": "string", "title": corpus("elicit title"), "description": corpus("elicit description")}
    schema = {"type": "object", "properties": {"answer": field}}
    elicit = {"mode": "form", "message": corpus("elicit message"), "requestedSchema": schema}
    send({"jsonrpc": "2.0", "id": "elicit-1", "method": "elicitation/create", "params": elicit})
    sample = {
        "messages": [{"role": "user", "content": {"type": "text", "text": corpus("sampling message")}}],
        "systemPrompt": corpus("system prompt"),
        "maxTokens": 10,
    }
    send({"jsonrpc": "2.0", "id": "sample-1", "method": "sampling/createMessage", "params": sample})


def answer(method: str, params: dict) -> dict | None:
    """The result for `method`, or None for an error."""
    if method == "initialize":
        info = {"name": corpus("server name"), "version": corpus("version"), "title": corpus("server title")}
        capabilities = {"tools": {}, "resources": {}, "prompts": {}, "logging": {}, "completions": {}}
        return {
            "protocolVersion": params.get("protocolVersion"),
            "capabilities": capabilities,
            "serverInfo": info,
            "instructions": corpus("instructions"),
        }
    if method == "tools/list":
        return {"tools": tools()}
    if method == "tools/call" and params.get("name") == "fails":
        return None  # an error whose message is hostile text
    if method == "tools/call":
        log(corpus("log in call"), corpus("logger"))
        log(corpus("big log") + MEGABYTE, "big")
        return call_result()
    if method == "resources/list":
        return {"resources": resources()}
    if method == "resources/templates/list":
        return {"resourceTemplates": [{"uriTemplate": "hostile://t/{x}", "name": corpus("template name")}]}
    if method == "resources/read":
        return {"contents": [{"uri": params.get("uri"), "mimeType": "text/plain", "text": corpus("resource text")}]}
    if method == "prompts/list":
        return {"prompts": prompts()}
    if method == "prompts/get":
        message = {"role": "user", "content": {"type": "text", "text": corpus("prompt message")}}
        return {"description": corpus("prompt get description"), "messages": [message]}
    if method == "completion/complete":
        return {"completion": {"values": [corpus("completion"), SPOOF], "hasMore": False}}
    if method in ("logging/setLevel", "ping"):
        return {}
    return None


def main() -> None:
    sys.stderr.write(corpus("stderr") + "\n")
    sys.stderr.flush()
    asked: list[object] = []  # the id of a call to "asks", answered when the client has answered us
    answered: set[object] = set()
    for raw in sys.stdin:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, rpc_id = message.get("method"), message.get("id")
        if method == "notifications/initialized":
            log(corpus("log at start"), corpus("logger"))
            continue
        if method is None:  # the client's answer to one of our requests
            answered.add(rpc_id)
            if asked and {"elicit-1", "sample-1"} <= answered:
                send({"jsonrpc": "2.0", "id": asked.pop(), "result": {"content": [{"type": "text", "text": "asked"}]}})
            continue
        if rpc_id is None:
            continue
        if method == "tools/call" and (message.get("params") or {}).get("name") == "asks":
            asked.append(rpc_id)
            ask_the_client()
            continue
        params = message.get("params") or {}
        result = answer(method, params)
        if result is None:
            error = {"code": -32603, "message": corpus(f"error {params.get('name') or method}"), "data": corpus("data")}
            send({"jsonrpc": "2.0", "id": rpc_id, "error": error})
        else:
            send({"jsonrpc": "2.0", "id": rpc_id, "result": result})


if __name__ == "__main__":
    main()
