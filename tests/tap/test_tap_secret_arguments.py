"""A secret typed into a tool's secret-looking argument (`password`, a nested `apiToken`) never reaches
the tap's record: hidden by value from the request on, in the server's echo of it and in every later
line that carries it, while the host gets every byte unchanged. As in the app and `--cli --record`.

Real processes: the tap relaying tests/servers/canary_server.py (its `sign_in` says the password back),
first driven by a host written here, then installed into a host's config and driven by `mcp-lens --cli`
as that host, after which every file under the fresh HOME is searched for the canaries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from canary_support import CANARY_SERVER, Canaries, fresh_home, leaks, loose_permissions
from lens_support import REPO, run_lens
from tap_support import load_entries, only_record

from inspector.traffic.entry import SECRETS_HIDDEN, Direction, Kind

HELLO = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "host", "version": "1"}}


def _call(rpc_id: int, name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def test_a_secret_named_argument_and_its_echo_are_hidden_in_the_record(tmp_path: Path) -> None:
    canaries = Canaries.make()
    password = canaries["tool-password"]
    env = fresh_home(tmp_path)
    tap = subprocess.Popen(
        [sys.executable, "-m", "inspector", "tap", "--name", "canary", "--", *CANARY_SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    )
    assert tap.stdin is not None and tap.stdout is not None and tap.stderr is not None
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        _call(2, "sign_in", {"user": "u", "password": password}),
        # nested under a secret-looking name, then the same value under a plain name in a later call
        _call(3, "echo", {"message": "hi", "auth": {"apiToken": password}}),
        _call(4, "echo", {"message": f"again: {password}"}),
        _call(5, "sign_in", {"user": "u", "password": "pw1"}),  # too short to hide by value: hidden by name
    ]
    answers = []
    for line in lines:  # one at a time: each answer read before the next request goes
        tap.stdin.write(json.dumps(line).encode() + b"\n")
        tap.stdin.flush()
        if "id" in line:
            answers.append(tap.stdout.readline())
            assert answers[-1], tap.stderr.read()
    tap.stdin.close()
    assert tap.wait(60) == 0
    tap.stderr.read()
    assert password.encode() in answers[1]  # the host got the server's echo unchanged
    assert password.encode() in answers[3]

    record = only_record(Path(env["XDG_DATA_HOME"]))
    assert not leaks(canaries, [tmp_path / "home"]), record.read_text()
    assert not loose_permissions([Path(env["XDG_DATA_HOME"]) / "mcp-lens"])
    entries, _ = load_entries(record)
    calls = [e for e in entries if e.method == "tools/call" and e.kind in (Kind.REQUEST, Kind.RESPONSE)]
    assert len(calls) == 8, [(e.direction, e.kind, e.method) for e in entries]
    sign_in, signed_in = calls[0], calls[1]
    assert sign_in.direction is Direction.OUT
    assert sign_in.parsed()["params"]["arguments"] == {"user": "u", "password": "<redacted>"}
    assert signed_in.parsed()["result"]["content"][0]["text"] == "signed in u with <redacted>"
    assert calls[2].parsed()["params"]["arguments"]["auth"] == {"apiToken": "<redacted>"}
    assert calls[4].parsed()["params"]["arguments"] == {"message": "again: <redacted>"}
    assert calls[6].parsed()["params"]["arguments"] == {"user": "u", "password": "<redacted>"}
    # its echo keeps it: a value under 6 characters is never hidden by value (every "pw1" in the record)
    assert calls[7].parsed()["result"]["content"][0]["text"] == "signed in u with pw1"
    hidden = [SECRETS_HIDDEN in e.notes for e in calls]  # as the app says it; echo's "hi" carries no secret
    assert hidden == [True, True, True, False, True, True, True, False], [e.notes for e in calls]
    untouched = [e for e in entries if e.method == "initialize"]
    assert untouched and not [e for e in untouched if SECRETS_HIDDEN in e.notes]

    # The record as a mock server (`mcp-lens replay`): the host's same calls, passwords and all, are answered
    # as recorded (a recorded `<redacted>` argument stands for whatever the host types there).
    replayed = subprocess.run(
        [sys.executable, "-m", "inspector", "replay", str(record)],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    answered = {m["id"]: m for m in map(json.loads, replayed.stdout.splitlines()) if "id" in m}
    assert answered[2].get("result", answered[2])["content"][0]["text"] == "signed in u with <redacted>"
    assert answered[3].get("result", answered[3])["content"][0]["text"] == "hi"
    assert answered[5].get("result", answered[5])["content"][0]["text"] == "signed in u with pw1"


def test_the_testers_steps_installed_tap_and_the_cli_as_host_leave_no_canary(tmp_path: Path) -> None:
    """Outside tester's finding 9: `tap --install` into a host config, then `mcp-lens --cli` as that host
    calls `sign_in` with a password; no file MCP Lens wrote holds it (nor the entry's own secrets)."""
    canaries = Canaries.make()
    env = fresh_home(tmp_path)
    config = tmp_path / "home" / "host.json"
    entry = canaries.stdio_entry()
    del entry["env"]["FOO_SETTING"]  # a `${input:…}` the CLI would ask for; the host's own business
    entry["env"]["PYTHONPATH"] = str(REPO)
    original = json.dumps({"mcpServers": {"c": entry}}, indent=2)
    config.write_text(original)
    installed = run_lens("tap", "--install", str(config), "--server", "c", "--yes", env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert not canaries.found_in((installed.stdout + installed.stderr).encode()), installed.stdout

    password = canaries["tool-password"]
    called = run_lens(
        *("--cli", "--config", str(config), "--server", "c", "--method", "tools/call", "--tool-name", "sign_in"),
        *("--tool-arg", "user=u", f"password={password}"),
        env=env,
        timeout=120,
    )
    assert called.returncode == 0, called.stdout + called.stderr
    assert "signed in u with" in called.stdout
    data_home = Path(env["XDG_DATA_HOME"])
    record = only_record(data_home)
    assert b"<redacted>" in record.read_bytes()
    # The host's config and its backups hold the entry's secrets (they are the host's configuration);
    # the typed password is in none of them, nor anywhere else.
    host_files = {p: "the host's configuration" for p in (tmp_path / "home").iterdir() if p.name.startswith("host")}
    host_files |= {p: "install's sidecar" for p in (tmp_path / "home").glob(".host*")}
    assert not leaks(canaries, [tmp_path / "home"], allowed=host_files)
    only_password = Canaries({"tool-password": password})
    assert not leaks(only_password, [tmp_path / "home"])
    assert not loose_permissions([data_home / "mcp-lens"])
    written = [p for p in host_files if p.name != "host.json"]  # the backup and the sidecar hold the secrets
    assert len(written) == 2 and not loose_permissions(written), written

    removed = run_lens("tap", "--uninstall", str(config), "--server", "c", "--yes", env=env)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    assert not canaries.found_in((removed.stdout + removed.stderr).encode()), removed.stdout
    assert config.read_text() == original


# A server that says back what it is given: a prompt's arguments, and the answer to the form it asks for.
ECHO_SERVER = r"""
import json, sys
def rpc(**fields):
    print(json.dumps({"jsonrpc": "2.0", **fields}), flush=True)
for line in sys.stdin:
    m = json.loads(line)
    if isinstance(m, list):  # a batch (2025-03-26): not answered
        continue
    if m.get("method") == "prompts/get":
        text = "args: " + json.dumps(m["params"]["arguments"])
        rpc(id=m["id"], result={"messages": [{"role": "user", "content": {"type": "text", "text": text}}]})
    elif m.get("method") == "tools/call":
        schema = {"type": "object", "properties": {"passphrase": {"type": "string"}}}
        rpc(id="form-1", method="elicitation/create", params={"message": "sign in", "requestedSchema": schema})
    elif m.get("id") == "form-1":
        rpc(method="notifications/message", params={"level": "info", "data": "got " + json.dumps(m["result"])})
"""


def test_a_secret_typed_into_a_prompts_argument_or_a_form_is_hidden_too(tmp_path: Path) -> None:
    """The other places a host sends what its user typed: a prompt's arguments (`prompts/get`) and the
    answer to a server's form (`elicitation/create`): a secret-named one hidden from there on."""
    key, phrase = "canary prompt key 5f0c2a9e71", "canary form phrase 83be0d4c16"
    server = tmp_path / "echo_server.py"
    server.write_text(ECHO_SERVER)
    env = fresh_home(tmp_path)
    tap = subprocess.Popen(
        [sys.executable, "-m", "inspector", "tap", "--name", "echo", "--", sys.executable, str(server)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, "PYTHONPATH": str(REPO)},
        cwd=tmp_path,
    )
    assert tap.stdin is not None and tap.stdout is not None
    prompt = {"jsonrpc": "2.0", "id": 1, "method": "prompts/get"}
    prompt["params"] = {"name": "p", "arguments": {"topic": "x", "apiKey": key}}
    said = []
    for line in (prompt, _call(2, "sign_in", {})):
        tap.stdin.write(json.dumps(line).encode() + b"\n")
        tap.stdin.flush()
        said.append(json.loads(tap.stdout.readline()))
    assert said[1]["method"] == "elicitation/create"
    answer = {"jsonrpc": "2.0", "id": "form-1", "result": {"action": "accept", "content": {"passphrase": phrase}}}
    tap.stdin.write(json.dumps(answer).encode() + b"\n")
    tap.stdin.flush()
    assert phrase in tap.stdout.readline().decode()  # the server's log line says it back, unchanged on the wire
    batched = "canary batched token 0d9e4b7a52"  # a 2025-03-26 batch: each member looked at
    batch = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, _call(3, "sign_in", {"password": batched})]
    tap.stdin.write(json.dumps(batch).encode() + b"\n")
    tap.stdin.close()
    assert tap.wait(60) == 0
    path = only_record(Path(env["XDG_DATA_HOME"]))
    record = path.read_bytes()
    assert b"prompts/get" in record and b"form-1" in record
    assert b"batched token" not in record and b"0d9e4b7a52" not in record, record.decode()
    assert key.encode() not in record and phrase.encode() not in record, record.decode()
    hidden = [(e.direction, e.kind) for e in load_entries(path)[0] if SECRETS_HIDDEN in e.notes]
    out, back = (Direction.OUT, Kind.RESPONSE), (Direction.IN, Kind.NOTIFICATION)  # the form's answer, said back
    batch_entry = (Direction.OUT, Kind.NOTIFICATION)  # a batch is classified by its first member
    assert hidden == [(Direction.OUT, Kind.REQUEST), (Direction.IN, Kind.RESPONSE), out, back, batch_entry], hidden
    replayed = subprocess.run(  # the record as a mock: the same prompt, its key and all, answered as recorded
        [sys.executable, "-m", "inspector", "replay", str(path)],
        input=json.dumps(prompt) + "\n",
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert '\\"apiKey\\": \\"<redacted>\\"' in replayed.stdout, replayed.stdout + replayed.stderr
