"""The floor of `mcp-lens tokens`: fetch the tool list with raw JSON-RPC over pipes, encode it with tiktoken.

Usage: raw_tokens.py CMD [ARG…]. The o200k_base encoder is built from the rank file MCP Lens ships (the same
file tiktoken downloads; no network here). Prints the tool count and the token count.
"""

import json
import subprocess
import sys

proc = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
assert proc.stdin is not None and proc.stdout is not None


def send(message: dict) -> None:
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def answer(rpc_id: int) -> dict:
    while line := proc.stdout.readline():
        message = json.loads(line)
        if message.get("id") == rpc_id and "method" not in message:
            return message["result"]
    raise SystemExit("server closed stdout")


params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
tools: list = []
cursor = None
rpc_id = 2
while True:
    send({"jsonrpc": "2.0", "id": rpc_id, "method": "tools/list", **({"params": {"cursor": cursor}} if cursor else {})})
    page = answer(rpc_id)
    tools += page["tools"]
    cursor, rpc_id = page.get("nextCursor"), rpc_id + 1
    if not cursor:
        break
proc.stdin.close()
proc.kill()

from inspector.budget.tokenizers import load_encoding  # noqa: E402  # after the fetch, as a script would

print(len(tools), len(load_encoding("o200k_base").encode_ordinary(json.dumps(tools))))
