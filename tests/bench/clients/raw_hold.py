"""The memory floor of a big input: raw JSON-RPC over pipes with the stdlib, each answer's line and its
parsed value kept (what any inspector holds at least: the wire for its log, the value to show).

Usage: raw_hold.py CALL CMD [ARG…] — lists the tools, calls the tool CALL unless it is "-", then prints
the resident memory held at the end, in MB (not the peak: json.loads' own transient copies are not
something to hold an app to).
"""

import json
import subprocess
import sys
from pathlib import Path

proc = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
assert proc.stdin is not None and proc.stdout is not None
held: list = []


def send(message: dict) -> None:
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def answer(rpc_id: int) -> dict:
    while line := proc.stdout.readline():
        message = json.loads(line)
        if message.get("id") == rpc_id and "method" not in message:
            held.append((line, message))
            return message["result"]
    raise SystemExit("server closed stdout")


params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
answer(2)
if sys.argv[1] != "-":
    send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": sys.argv[1], "arguments": {}}})
    answer(3)
proc.stdin.close()
proc.kill()
status = Path("/proc/self/status").read_text().splitlines()
print(next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024.0)
