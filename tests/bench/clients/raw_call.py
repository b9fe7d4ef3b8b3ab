"""The floor of a big `tools/call`: raw JSON-RPC over pipes with the stdlib, the result printed as JSON.

Usage: raw_call.py TOOL CMD [ARG…]
"""

import json
import subprocess
import sys

proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
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
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": sys.argv[1], "arguments": {}}})
json.dump(answer(2), sys.stdout, indent=2, ensure_ascii=False)
print()
proc.stdin.close()
proc.kill()
