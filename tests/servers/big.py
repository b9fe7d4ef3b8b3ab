"""An MCP server on stdio whose size is the problem (stdlib only): ``python big.py MODE [SIZE [DELAY]]``.

SIZE 0 means the mode's default; DELAY (seconds) waits before serving, so a benchmark can let the
window settle before the connection's work starts.

Modes:
- ``tools [N]``: N tools (default 5,000), each with its own small, valid input schema.
- ``description [BYTES]``: a few tools, one (``long_description``) with a description of BYTES
  (default 1 MB) of words and newlines.
- ``runs [BYTES]``: the same tools, ``long_description``'s BYTES made of 100-letter runs (no break point).
- ``line [BYTES]``: the same tools, ``long_description`` one line of BYTES "A"s (default 1,048,576): no
  break point at all, the outside tester's ``big``.
- ``result [BYTES]``: a tool ``big_result`` answering with a JSON text block of about BYTES
  (default 50 MB), and ``small_result`` answering with a few hundred bytes.
- ``icon [BYTES]``: a few tools, one (``big_icon``) whose ``data:`` PNG icon is about BYTES long
  (default 20 MB of base64).
- ``small``: three ordinary tools (the baseline the benchmarks compare with).
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import time
import zlib
from typing import Any

from stdio_rpc import serve

MODE = sys.argv[1] if len(sys.argv) > 1 else "small"
SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 0
DELAY = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0


def plain_tool(name: str, description: str = "An ordinary tool.") -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }


def numbered_tool(index: int) -> dict[str, Any]:
    return {
        "name": f"tool_{index:05d}",
        "description": f"Tool number {index}: looks something up.",
        "inputSchema": {
            "type": "object",
            "properties": {
                f"query_{index}": {"type": "string", "description": "What to look for.", "minLength": 1},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100 + index},
                "mode": {"type": "string", "enum": ["fast", "exact", f"mode_{index}"]},
            },
            "required": [f"query_{index}"],
        },
    }


def long_text(size: int) -> str:
    line = "The quick brown fox jumps over the lazy dog, and then it does so again and again. "
    chunks: list[str] = []
    total = 0
    n = 0
    while total < size:
        piece = line + ("\n" if n % 12 == 11 else "")
        chunks.append(piece)
        total += len(piece)
        n += 1
    return "".join(chunks)[:size]


def big_json(size: int) -> str:
    rows = []
    total = 0
    n = 0
    while total < size:
        row = json.dumps({"id": n, "name": f"row {n}", "tags": ["alpha", "beta"], "score": n * 0.5})
        rows.append(row)
        total += len(row) + 2
        n += 1
    return "[" + ",\n".join(rows) + "]"


def png_of_size(size: int) -> bytes:
    """A valid PNG of roughly `size` bytes (an incompressible IDAT of random-looking bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    side = max(16, int((size / 4) ** 0.5))
    seed = 12345
    raw = bytearray()
    for _ in range(side):
        raw.append(0)
        for _ in range(side):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            raw += seed.to_bytes(4, "little")
    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    body = zlib.compress(bytes(raw), 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def build_tools() -> list[dict[str, Any]]:
    if MODE == "tools":
        return [numbered_tool(i) for i in range(SIZE or 5_000)]
    tools = [plain_tool("alpha"), plain_tool("beta"), plain_tool("gamma")]
    if MODE == "description":
        tools.append(plain_tool("long_description", long_text(SIZE or 1_000_000)))
    elif MODE == "runs":
        tools.append(plain_tool("long_description", ("A" * 100 + "<b>x</b>") * ((SIZE or 1_000_000) // 108)))
    elif MODE == "line":
        tools.append(plain_tool("long_description", "A" * (SIZE or 1_048_576)))
    elif MODE == "result":
        tools.append(plain_tool("big_result", "Answers with a very large JSON text block."))
        tools.append(plain_tool("small_result", "Answers with a small JSON text block."))
    elif MODE == "icon":
        data = base64.b64encode(png_of_size((SIZE or 20_000_000) * 3 // 4)).decode()
        icon = {"src": "data:image/png;base64," + data, "mimeType": "image/png", "sizes": ["16x16"]}
        tools.append({**plain_tool("big_icon", "A tool with a huge icon."), "icons": [icon]})
    return tools


TOOLS = build_tools()
RESULT = big_json(SIZE or 50_000_000) if MODE == "result" else ""


def answer(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        name = params.get("name")
        if name == "big_result":
            return {"content": [{"type": "text", "text": RESULT}]}
        if name == "small_result":
            return {"content": [{"type": "text", "text": big_json(400)}]}
        return {"content": [{"type": "text", "text": f"{name} ran"}]}
    return None


if __name__ == "__main__":
    time.sleep(DELAY)
    serve(answer, name=f"big-{MODE}", capabilities={"tools": {}})
