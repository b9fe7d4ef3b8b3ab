"""A raw JSON-RPC stdio MCP server that paginates resources, templates and prompts (SDK servers do
not), with a few non-conforming items; ``loop`` as first argument makes every cursor repeat."""

from __future__ import annotations

import json
import sys

PAGE = 3
RESOURCES = [{"uri": f"paged://r/{i}", "name": f"r{i}", "mimeType": "text/plain"} for i in range(7)]
RESOURCES[4] = {"uri": "paged://r/4"}  # no name: a finding
TEMPLATES = [
    {"uriTemplate": "paged://t/{id}", "name": "good"},
    {"uriTemplate": "paged://t/{+path}{?q,lang}", "name": "level3"},
    {"uriTemplate": "paged://t/{broken", "name": "broken"},  # not RFC 6570: a finding
    {"uriTemplate": "paged://t/{list*}", "name": "explode"},
]
PROMPTS = [{"name": f"p{i}", "arguments": [{"name": "a", "required": i % 2 == 0}]} for i in range(5)]
PROMPTS[1]["arguments"] = "nope"  # a finding
# Non-conforming answers, for the UI to show and flag without failing.
READS = {
    "paged://bad/shape": {"contents": "nope"},
    "paged://bad/blob": {"contents": [{"uri": "paged://bad/blob", "mimeType": "image/png", "blob": "!!not base64"}]},
    "paged://bad/both": {"contents": [{"uri": "paged://bad/both", "text": "<b>a</b>", "blob": "YQ=="}, 7]},
}


def tone_wav() -> str:
    """A 0.1 s silent WAV, base64."""
    import base64
    import io
    import wave

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(8000)
        wav.writeframes(b"\0\0" * 800)
    return base64.b64encode(buffer.getvalue()).decode()


MEDIA_MESSAGES = [
    {"role": "user", "content": {"type": "audio", "mimeType": "audio/wav", "data": tone_wav()}},
    {"role": "assistant", "content": {"type": "resource_link", "uri": "paged://r/2", "name": "r2"}},
]
BAD_MESSAGES = [
    {"role": "system", "content": {"type": "video", "url": "x"}},
    {"role": "assistant", "content": {"type": "text", "text": "<b>not bold</b>"}},
    "not a message",
]
LISTS = {"resources/list": ("resources", RESOURCES), "resources/templates/list": ("resourceTemplates", TEMPLATES)}
LISTS["prompts/list"] = ("prompts", PROMPTS)


def answer(message: dict, loop: bool) -> dict | None:
    method, params = message.get("method"), message.get("params") or {}
    if "id" not in message:
        return None
    if method == "initialize":
        result: dict = {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"resources": {}, "prompts": {}},
            "serverInfo": {"name": "paged", "version": "1"},
        }
    elif method in LISTS:
        key, items = LISTS[method]
        start = int(params.get("cursor") or 0)
        result = {key: items[start : start + PAGE]}
        if start + PAGE < len(items):
            result["nextCursor"] = "0" if loop else str(start + PAGE)
    elif method == "resources/read":
        result = READS.get(params.get("uri"), {"contents": [{"uri": params.get("uri"), "text": "plain"}]})
    elif method == "prompts/get":
        said = {"role": "user", "content": {"type": "text", "text": str(params)}}
        result = {"messages": MEDIA_MESSAGES if params.get("name") == "p2" else [*BAD_MESSAGES, said]}
    elif method == "ping":
        result = {}
    else:
        return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


def main() -> None:
    loop = sys.argv[1:2] == ["loop"]
    for line in sys.stdin:
        reply = answer(json.loads(line), loop)
        if reply is not None:
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
