"""What an outside tester (OT7) found in `mcp-lens replay` and `replay --against`, run as a user runs them:
the mock answers `ping` (and an unrecorded `logging/setLevel` of a server that declared logging) itself and
says so; an unchanged HTTP server passes its own regression run; a bad `--ignore` rule is a usage error; a
record of one protocol era says so to a client of the other; a record's notifications keep its order; a
record with no readable line says why; a secret on the command line is never echoed; a JUnit report is
written whenever the run cannot start or ends early."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from lens_support import DEMO, REPO, free_port, lens_env, run_lens

OFFICIAL = REPO / "tests/servers/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
REPLAY = [sys.executable, "-m", "inspector", "replay"]
HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


def record(path: Path, *words: str) -> Path:
    done = run_lens("--cli", "--record", str(path), *words, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


def fed(argv: list[str], sent: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    """Run `argv` with `sent` on its stdin, one JSON line each."""
    lines = "".join(json.dumps(m) + "\n" for m in sent)
    return subprocess.run(argv, input=lines, capture_output=True, text=True, timeout=120, env=lens_env(), cwd=REPO)


def answers(done: subprocess.CompletedProcess[str]) -> dict[Any, dict[str, Any]]:
    return {m.get("id"): m for m in map(json.loads, done.stdout.splitlines()) if "method" not in m}


def hand_record(path: Path, entries: list[tuple[str, str, dict[str, Any], float]]) -> Path:
    """A record written line by line, as a script or a merge writes one: (dir, kind, message, mono) each."""
    lines = [json.dumps({"format": "mcp-lens-traffic", "version": 1, "meta": {}})]
    asked: dict[Any, int] = {}
    for seq, (direction, kind, message, mono) in enumerate(entries, 1):
        line = {"seq": seq, "wall": 1.0 + mono, "mono": mono, "dir": direction, "transport": "stdio", "kind": kind}
        line["raw"] = json.dumps(message)
        if "method" in message:
            line["method"] = message["method"]
        if "id" in message:
            line["id"] = message["id"]
        if kind == "request":
            asked[message["id"]] = seq
        elif kind == "response":
            line["peer"] = asked[message["id"]]
        lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n")
    return path


def handshake(result: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], float]]:
    return [
        ("out", "request", {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}, 1.0),
        ("in", "response", {"jsonrpc": "2.0", "id": 1, "result": result}, 1.1),
        ("out", "notification", {"jsonrpc": "2.0", "method": "notifications/initialized"}, 1.2),
    ]


SERVER = {"protocolVersion": "2025-11-25", "serverInfo": {"name": "s", "version": "1"}}


@pytest.mark.npm
def test_a_cli_record_of_server_everything_serves_the_official_inspector(everything: str, tmp_path: Path) -> None:
    """Finding 1: the Inspector sets the log level of a server that declared logging; the record has no
    such request. The mock answers it, and ping, itself, and says these answers are its own."""
    if not OFFICIAL.exists():
        pytest.fail(f"{OFFICIAL} is missing: run scripts/test, which installs the npm test servers")
    words = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello"]
    rec = record(tmp_path / "ev.jsonl", *words, "--", "node", everything, "stdio")
    official = subprocess.run(
        ["node", str(OFFICIAL), "--cli", *words, "-e", f"PYTHONPATH={REPO}", "--", *REPLAY, str(rec), "--fast"],
        capture_output=True,
        text=True,
        timeout=120,
        env=lens_env(),
        cwd=REPO,
    )
    assert official.returncode == 0, official.stdout + official.stderr
    assert json.loads(official.stdout)["content"] == [{"type": "text", "text": "Echo: hello"}]
    pinged = run_lens("--cli", "--method", "ping", "--", *REPLAY, str(rec), timeout=120)
    assert pinged.returncode == 0, pinged.stderr


def test_the_mock_answers_ping_itself_and_set_level_only_when_logging_was_declared(tmp_path: Path) -> None:
    logs = hand_record(tmp_path / "logs.jsonl", handshake({**SERVER, "capabilities": {"logging": {}}}))
    silent = hand_record(tmp_path / "silent.jsonl", handshake({**SERVER, "capabilities": {"tools": {}}}))
    asked = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "debug"}},
    ]
    served = fed([*REPLAY, str(logs)], asked)
    got = answers(served)
    assert got[2] == {"jsonrpc": "2.0", "id": 2, "result": {}} and got[3] == {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert "ping: answered by the mock itself, not a recorded answer" in served.stderr, served.stderr
    assert "logging/setLevel: answered by the mock itself, not a recorded answer" in served.stderr, served.stderr
    refused = answers(fed([*REPLAY, str(silent)], asked))
    assert refused[2]["result"] == {} and "error" in refused[3], refused  # never declared: not the mock's to answer


def test_notifications_keep_the_records_order_when_its_clock_goes_back(tmp_path: Path) -> None:
    """Finding 12: the record's order, whatever its clock says (--fast: no waiting in the test)."""
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
    note = {"jsonrpc": "2.0", "method": "notifications/message"}
    notes = [
        ("in", "notification", {**note, "params": {"data": f"note {n}"}}, t)
        for n, t in enumerate((3601.0, -7199.0, 1e12))
    ]
    rec = hand_record(
        tmp_path / "slow.jsonl",
        [
            *handshake({**SERVER, "capabilities": {"tools": {}}}),
            ("out", "request", call, 1.0),
            *notes,
            ("in", "response", {"jsonrpc": "2.0", "id": 2, "result": {"content": []}}, 1.5),
        ],
    )
    asked = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}, {**call, "id": 9}]
    served = fed([*REPLAY, str(rec), "--fast"], asked)
    sent = [json.loads(line) for line in served.stdout.splitlines()]
    said = [m["params"]["data"] for m in sent if m.get("method") == "notifications/message"]
    assert said == ["note 0", "note 1", "note 2"], sent
    assert sent[-1] == {"jsonrpc": "2.0", "id": 9, "result": {"content": []}}, sent


def test_a_record_with_no_readable_line_names_its_damaged_lines(tmp_path: Path) -> None:
    """Finding 19: every line dropped its "len" (a hand redaction): the lines are named, with why."""
    rec = record(tmp_path / "demo.jsonl", "--method", "tools/list", "--", *DEMO)
    head, *entries = rec.read_bytes().splitlines()
    stripped = [json.dumps({k: v for k, v in json.loads(line).items() if k != "len"}).encode() for line in entries]
    (tmp_path / "t_nolen.jsonl").write_bytes(b"\n".join([head, *stripped]) + b"\n")
    done = run_lens("replay", str(tmp_path / "t_nolen.jsonl"))
    assert done.returncode == 2
    assert "has no request from a client to replay" in done.stderr and "line 3 is damaged" in done.stderr, done.stderr


def test_a_bad_ignore_rule_is_a_usage_error(tmp_path: Path) -> None:
    """Finding 10: 'garbage[' was taken as the field "garbage" and matched nothing, silently."""
    rec = record(tmp_path / "demo.jsonl", "--method", "tools/list", "--", *DEMO)
    for bad in ("garbage[", "result..content", "$.result[", "result]"):
        done = run_lens("replay", str(rec), "--ignore", bad, "--against", *DEMO, timeout=120)
        assert done.returncode == 2, (bad, done.stderr)
        assert repr(bad) in done.stderr, done.stderr
    good = run_lens(
        "replay",
        str(rec),
        "--ignore",
        "$.result.tools[0].name",
        "--ignore",
        "$.result.tools[-1].name",
        "--against",
        *DEMO,
        timeout=120,
    )  # a negative position counts from the end, as the rules' own paths do
    assert good.returncode == 0, good.stderr


def test_an_ignore_rule_that_names_no_field_of_a_differing_answer_is_said(tmp_path: Path) -> None:
    """Finding 10, its other half: a well-formed path with a typo in it is said, not silently unused."""
    real = record(tmp_path / "demo.jsonl", "--protocol-era", "legacy", "--method", "tools/list", "--", *DEMO)
    kept = []
    for line in real.read_bytes().splitlines()[1:]:
        entry = json.loads(line)
        if entry["kind"] in ("request", "response", "notification") and isinstance(entry.get("msg"), dict):
            message = entry["msg"]
            if "result" in message and "tools" in message["result"]:
                message = {**message, "result": {"tools": []}}  # the answer the demo gives no more
            kept.append((entry["dir"], entry["kind"], message, entry["mono"]))
    rec = hand_record(tmp_path / "listed.jsonl", kept)
    typo = run_lens("replay", str(rec), "--ignore", "$.result.tols", "--against", *DEMO, timeout=120)
    assert typo.returncode == 17, typo.stderr
    assert "--ignore '$.result.tols' named no field of an answer that differed" in typo.stderr, typo.stderr
    right = run_lens("replay", str(rec), "--ignore", "$.result.tools", "--against", *DEMO, timeout=120)
    assert right.returncode == 0 and "named no field" not in right.stderr, right.stdout + right.stderr


def test_a_record_of_one_era_says_so_to_a_client_of_the_other(tmp_path: Path) -> None:
    """Finding 15: a 2026-07-28 record cannot answer `initialize`: said at start-up and to the client."""
    rec = record(tmp_path / "modern.jsonl", "--protocol-era", "modern", "--method", "tools/list", "--", *DEMO)
    legacy = run_lens("--cli", "--protocol-era", "legacy", "--method", "tools/list", "--", *REPLAY, str(rec))
    assert legacy.returncode != 0
    assert "2026-07-28" in legacy.stderr and "initialize" in legacy.stderr, legacy.stderr
    served = fed([*REPLAY, str(rec)], [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}])
    first = served.stderr.splitlines()[0]
    assert "2026-07-28" in first and "initialize" in first, served.stderr
    refused = answers(served)[1]["error"]["message"]
    assert "recorded from a 2026-07-28 server" in refused and "--protocol-era legacy" in refused, refused


def test_installing_a_record_of_one_era_for_a_host_says_what_it_cannot_serve(tmp_path: Path) -> None:
    """Finding 15, for `tap --install --replay`: a host sends `initialize`; a 2026-07-28 record has no answer."""
    rec = record(tmp_path / "modern.jsonl", "--protocol-era", "modern", "--method", "tools/list", "--", *DEMO)
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"demo": {"command": "python3", "args": ["-m", "inspector.demo"]}}}))
    installed = run_lens("tap", "--install", str(config), "--server", "demo", "--replay", str(rec), "--yes")
    assert installed.returncode == 0, installed.stderr
    assert "warning" in installed.stderr and "no answer to initialize" in installed.stderr, installed.stderr


def test_a_secret_on_the_command_line_is_never_echoed(tmp_path: Path) -> None:
    """Finding 16: a secret-named flag's value, and a value the environment holds under a secret name."""
    rec = record(tmp_path / "demo.jsonl", "--method", "tools/list", "--", *DEMO)
    env = {"MY_API_TOKEN": "SEKRETenv4242x"}
    for target in (["/nonexistent", "--api-key=SEKRETflag3"], ["/nonexistent", "SEKRETenv4242x"]):
        done = run_lens("replay", str(rec), "--against", *target, env=env)
        assert done.returncode == 3, done.stderr
        assert "could not start" in done.stderr, done.stderr
        assert "SEKRET" not in done.stderr + done.stdout, done.stderr
    exits = [sys.executable, "-c", "import sys; print('SEKRETenv4242x', file=sys.stderr); sys.exit(4)"]
    done = run_lens("replay", str(rec), "--format", "junit", "--against", *exits, env=env)
    assert done.returncode == 3 and "SEKRET" not in done.stderr + done.stdout, done.stderr + done.stdout


def test_a_junit_report_is_written_when_the_run_cannot_start_or_ends_early(tmp_path: Path) -> None:
    """Finding 17: one failing test case saying why, for CI, whatever stopped the run."""
    rec = record(tmp_path / "demo.jsonl", "--method", "tools/list", "--", *DEMO)
    port = free_port()
    targets = (
        ["/nonexistent"],
        [f"http://127.0.0.1:{port}/mcp"],
        [sys.executable, "-c", "import sys; sys.exit(4)"],
    )
    (tmp_path / "junk.jsonl").write_text("not a record\n")
    runs = [(rec, target, 3) for target in targets]
    runs += [(tmp_path / "junk.jsonl", [*DEMO], 2), (tmp_path / "missing.jsonl", [*DEMO], 2)]
    for path, target, code in runs:
        done = run_lens("replay", str(path), "--format", "junit", "--against", *target, timeout=120)
        assert done.returncode == code, (target, done.stderr)
        suite = ET.fromstring(done.stdout).find("testsuite")
        assert suite is not None, done.stdout
        failing = int(suite.get("errors") or 0) + int(suite.get("failures") or 0)
        assert failing >= 1, done.stdout
        said = " ".join((case.get("message") or "") for case in suite.iter() if case.tag in ("error", "failure"))
        assert said.strip(), done.stdout


def test_an_unchanged_http_server_passes_its_own_regression_run(everything_http: str, tmp_path: Path) -> None:
    """Finding 4: its era probe was answered HTTP 400; that answer is the recorded one, compared as it was."""
    words = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hello"]
    rec = record(tmp_path / "h1.jsonl", "--server-url", everything_http, *words)
    run = run_lens("replay", str(rec), "--format", "json", "--against", everything_http, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    probe = json.loads(run.stdout)["requests"][0]
    assert probe["method"] == "server/discover" and probe["verdict"] in ("identical", "equal"), probe
    assert probe["recorded_latency_ms"] is not None, probe  # the recorded answer was found: the HTTP 400 body
