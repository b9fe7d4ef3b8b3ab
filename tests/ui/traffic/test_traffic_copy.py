"""traffic.commands: `mcp-lens --cli` and curl command lines built from recorded requests, shell-safe."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from inspector.cli.args import parse
from inspector.traffic.commands import cli_command, cli_words, curl_command, curl_for_entry, http_request_of
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

OUT, IN = Direction.OUT, Direction.IN
HOSTILE = "'; rm -rf ~"


def request(store: TrafficStore, method: str, params: object = None, **kw: object):
    message = {"jsonrpc": "2.0", "id": len(store) + 1, "method": method}
    if params is not None:
        message["params"] = params
    return store.record_message(OUT, kw.pop("transport", "stdio"), json.dumps(message).encode(), **kw)


def test_cli_for_tools_call_quotes_hostile_arguments() -> None:
    store = TrafficStore()
    entry = request(store, "tools/call", {"name": "echo", "arguments": {"message": HOSTILE, "n": 2}})
    command = cli_command(["python", "my server.py", "--verbose"], entry)
    assert command is not None
    words = shlex.split(command)
    assert words[:2] == ["mcp-lens", "--cli"]
    assert words[words.index("--") + 1 :] == ["python", "my server.py", "--verbose"]
    assert json.loads(words[words.index("--tool-args-json") + 1]) == {"message": HOSTILE, "n": 2}
    # The shell agrees: echoing the command's words gives back exactly the same words.
    echoed = subprocess.run(["sh", "-c", "printf '%s\\n' " + command.split(" ", 1)[1]], capture_output=True, text=True)
    assert echoed.stdout.splitlines() == words[1:]
    # And our own CLI parser reads it back as the same request.
    args = parse(words[1:])
    assert (args.method, args.tool_name, args.tool_args) == ("tools/call", "echo", {"message": HOSTILE, "n": 2})
    assert args.target == ["python", "my server.py", "--verbose"]


def test_cli_for_other_methods_and_option_targets() -> None:
    store = TrafficStore()
    listing = request(store, "tools/list")
    assert shlex.split(cli_command(["--server-url", "http://127.0.0.1:9/mcp"], listing)) == [
        "mcp-lens",
        "--cli",
        "--server-url",
        "http://127.0.0.1:9/mcp",
        "--method",
        "tools/list",
    ]
    ping = request(store, "ping")
    assert cli_command(["node", "s.js"], ping) == "mcp-lens --cli --method ping -- node s.js"
    init = request(store, "initialize", {"protocolVersion": "2025-06-18"})
    assert "--method initialize" in cli_command(["node", "s.js"], init)
    assert cli_command(None, ping) is None, "unknown target"
    assert cli_command(["x"], request(store, "completion/complete")) is None, "the CLI cannot send it"
    read = cli_command(["node", "s.js"], request(store, "resources/read", {"uri": "demo://notes/1"}))
    assert read == "mcp-lens --cli --method resources/read --uri demo://notes/1 -- node s.js"
    response = store.record_message(IN, "stdio", b'{"jsonrpc":"2.0","id":2,"result":{}}')
    assert cli_command(["x"], response) is None, "only outgoing requests"
    assert cli_words(["x"], "tools/call", {"arguments": {}}) is None, "a call without a tool name"
    hostile_target = cli_command(["sh", "-c", HOSTILE], ping)
    assert shlex.split(hostile_target)[-3:] == ["sh", "-c", HOSTILE]


def run_with_fake_curl(command: str, tmp_path: Path) -> tuple[list[str], bytes]:
    """Run the copied text in a real shell with `curl` as a function that records argv and stdin."""
    fake = 'curl() { printf "%s\\0" "$@" > "$DIR/argv"; cat > "$DIR/stdin"; }\n'
    subprocess.run(["sh", "-c", fake + command], env={"DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}, check=True)
    argv = (tmp_path / "argv").read_bytes().decode().split("\0")[:-1]
    return argv, (tmp_path / "stdin").read_bytes()


def test_curl_keeps_redaction_and_quotes_everything(tmp_path: Path) -> None:
    http = {
        "method": "POST",
        "url": "http://127.0.0.1:8000/mcp?x=1&y=2",
        "headers": [
            ["host", "127.0.0.1:8000"],
            ["content-length", "99"],
            ["content-type", "application/json"],
            ["authorization", "Bearer <redacted>"],
            ["x-note", HOSTILE],
        ],
    }
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {"q": HOSTILE}}})
    text = curl_command(http, body.encode())
    lines = text.splitlines()
    assert lines[0].startswith("# authorization: redacted when recorded") and "your own token" in lines[0]
    words, _ = run_with_fake_curl(text, tmp_path)
    assert words[:3] == ["-X", "POST", "http://127.0.0.1:8000/mcp?x=1&y=2"]
    headers = [words[i + 1] for i, w in enumerate(words) if w == "-H"]
    assert headers == ["content-type: application/json", "authorization: Bearer <redacted>", f"x-note: {HOSTILE}"]
    assert words[words.index("--data-binary") + 1] == body


def test_curl_heredoc_for_multiline_bodies_and_lookup_through_request_seq(tmp_path: Path) -> None:
    store = TrafficStore()
    body = b'{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "ping"\n}'
    http = {"method": "POST", "url": "http://h/mcp", "headers": [["accept", "application/json, text/event-stream"]]}
    sent = store.record_message(OUT, "http", body, http=http)
    status = store.record(IN, "http", Kind.HTTP_META, b"HTTP 200 OK", http={"status": 200, "request_seq": sent.seq})
    stdio = request(store, "ping")
    assert http_request_of(status, store.by_seq) is sent
    assert http_request_of(stdio, store.by_seq) is None and curl_for_entry(stdio, store.by_seq) is None
    text = curl_for_entry(status, store.by_seq)
    assert text is not None
    assert "--data-binary @- <<'EOF'" in text and text.endswith("\nEOF")
    argv, stdin = run_with_fake_curl(text, tmp_path)
    accept = "accept: application/json, text/event-stream"
    assert argv == ["-X", "POST", "http://h/mcp", "-H", accept, "--data-binary", "@-"]
    assert stdin == body + b"\n", "exactly the body, plus the newline a here-document ends with"


def test_curl_heredoc_tag_avoids_body_lines() -> None:
    text = curl_command({"method": "POST", "url": "u"}, b"line\nEOF\nmore")
    assert "<<'EOF_1'" in text and text.endswith("\nEOF_1")
