"""The floor of a big `tools/call`: raw JSON-RPC over pipes with the stdlib, the result printed as JSON.

Usage: raw_call.py [--drop-line] TOOL CMD [ARG…]. With ``--drop-line`` each line is decoded and its bytes
let go before its text is parsed (a client that keeps no copy of the wire's bytes, as a record would), and
the result is written a slice at a time, as MCP Lens prints.
"""

import json
import subprocess
import sys

DROP_LINE = sys.argv[1] == "--drop-line"
if DROP_LINE:
    del sys.argv[1]
proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
assert proc.stdin is not None and proc.stdout is not None


def send(message: dict) -> None:
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def answer(rpc_id: int) -> dict:
    while line := proc.stdout.readline():
        if DROP_LINE:
            text = line.decode()
            del line
            message = json.loads(text)
            del text
        else:
            message = json.loads(line)
        if message.get("id") == rpc_id and "method" not in message:
            return message["result"]
    raise SystemExit("server closed stdout")


params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": sys.argv[1], "arguments": {}}})
if DROP_LINE:  # each piece of the JSON text written a slice at a time (never encoded whole to bytes)
    for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(answer(2)):
        for start in range(0, len(piece), 1 << 20):
            sys.stdout.write(piece[start : start + (1 << 20)])
else:
    json.dump(answer(2), sys.stdout, indent=2, ensure_ascii=False)
print()
proc.stdin.close()
proc.kill()
