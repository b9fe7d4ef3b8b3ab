"""`mcp-lens replay` and `mcp-lens diff` as a user runs them, on records of real servers: server-everything
(stdio, HTTP) and the demo (both eras) recorded through `mcp-lens --cli --record` and `mcp-lens tap`, played
back to the SDK's client, the official Inspector CLI and ours; a tapped session replayed against a changed
demo build; the clear ends (a damaged line, a request never recorded, several servers)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import anyio
import pytest
from lens_support import DEMO, REPO, free_port, lens_env, run_lens
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

OFFICIAL = REPO / "tests/servers/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
CHANGED_DEMO = [sys.executable, str(REPO / "tests/servers/changed_demo.py")]
REPLAY = [sys.executable, "-m", "inspector", "replay"]


def record(path: Path, *words: str) -> Path:
    done = run_lens("--cli", "--record", str(path), *words, timeout=120)
    assert done.returncode == 0, done.stderr
    return path


def messages(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_bytes().splitlines()[1:]:
        value = json.loads(line)
        if isinstance(value.get("msg"), dict):
            out.append(value["msg"])
    return out


def answer_to(path: Path, method: str) -> Any:
    """The recorded result of the first `method` request of `path`."""
    found = messages(path)
    ids = [m["id"] for m in found if m.get("method") == method and "id" in m]
    return next(m["result"] for m in found if "method" not in m and m.get("id") == ids[0] and "result" in m)


def fed(argv: list[str], sent: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    """Run `argv` with `sent` on its stdin, one JSON line each."""
    lines = "".join(json.dumps(m) + "\n" for m in sent)
    return subprocess.run(argv, input=lines, capture_output=True, text=True, timeout=120, env=lens_env(), cwd=REPO)


def sdk_session(argv: list[str], work: Any, **env: str) -> Any:
    """Start `argv` as a stdio server, initialize the SDK's client with it, run `work(session)`."""

    async def main() -> Any:
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=lens_env(**env), cwd=str(REPO))
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write, read_timeout_seconds=60) as session,
            ):
                init = await session.initialize()
                return init, await work(session)

    return anyio.run(main)


def dumped(result: Any) -> Any:
    return result.model_dump(mode="json", by_alias=True, exclude_unset=True)


def test_server_everything_recorded_over_stdio_answers_the_sdk_client_as_recorded(
    everything: str, tmp_path: Path
) -> None:
    words = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi", "--", "node", everything]
    rec = record(tmp_path / "everything.jsonl", *words, "stdio")

    async def work(session: ClientSession) -> Any:
        return await session.call_tool("echo", {"message": "hi"})

    init, result = sdk_session([*REPLAY, str(rec), "--fast"], work)
    assert dumped(result) == answer_to(rec, "tools/call")
    assert dumped(init.server_info) == answer_to(rec, "initialize")["serverInfo"]


def test_server_everything_recorded_over_http_answers_as_recorded(everything_http: str, tmp_path: Path) -> None:
    rec = record(tmp_path / "everything-http.jsonl", "--server-url", everything_http, "--method", "tools/list")

    async def work(session: ClientSession) -> Any:
        return await session.list_tools()

    _, listed = sdk_session([*REPLAY, str(rec)], work)
    assert dumped(listed)["tools"] == answer_to(rec, "tools/list")["tools"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_demo_recorded_in_each_era_answers_our_cli_in_that_era(era: str, tmp_path: Path) -> None:
    words = ["--protocol-era", era, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=both"]
    rec = record(tmp_path / f"demo-{era}.jsonl", *words, "--", *DEMO)
    handshake = "server/discover" if era == "modern" else "initialize"
    assert answer_to(rec, handshake)
    again = run_lens("--cli", *words, "--", *REPLAY, str(rec), timeout=120)
    assert again.returncode == 0, again.stderr
    printed = json.loads(again.stdout)
    printed.pop("findings", None)
    assert printed == answer_to(rec, "tools/call")


def test_the_demo_recorded_over_http_in_the_modern_era(demo_http: str, tmp_path: Path) -> None:
    words = ["--protocol-era", "modern", "--method", "tools/list"]
    rec = record(tmp_path / "demo-http.jsonl", "--server-url", demo_http, *words)
    assert answer_to(rec, "server/discover")
    again = run_lens("--cli", *words, "--", *REPLAY, str(rec), timeout=120)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["tools"] == answer_to(rec, "tools/list")["tools"]


def tapped(folder: Path) -> Path:
    """The one record `mcp-lens tap` wrote with XDG_DATA_HOME=`folder`."""
    (record_file,) = (folder / "mcp-lens/taps").glob("*.jsonl")
    return record_file


@pytest.mark.npm
def test_a_tapped_official_inspector_session_answers_the_official_inspector_again(
    everything: str, tmp_path: Path
) -> None:
    if not OFFICIAL.exists():
        pytest.fail(f"{OFFICIAL} is missing: run scripts/test, which installs the npm test servers")
    words = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=recorded"]
    env = lens_env(XDG_DATA_HOME=str(tmp_path))
    # it starts a stdio server with a minimal environment: the tap's folder and our checkout named
    words += ["-e", f"XDG_DATA_HOME={tmp_path}", "-e", f"PYTHONPATH={REPO}"]
    tap = [sys.executable, "-m", "inspector", "tap", "--name", "everything", "--", "node", everything, "stdio"]
    first = subprocess.run(
        ["node", str(OFFICIAL), "--cli", *words, "--", *tap],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=REPO,
    )
    assert first.returncode == 0, first.stderr
    rec = tapped(tmp_path)
    again = subprocess.run(
        ["node", str(OFFICIAL), "--cli", *words, "--", *REPLAY, str(rec), "--fast"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=REPO,
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)


def sdk_tapped_demo(folder: Path) -> Path:
    """A session of the SDK's client with the demo through `mcp-lens tap` (the tap's record)."""
    tap = [sys.executable, "-m", "inspector", "tap", "--name", "demo", "--", *DEMO]

    async def work(session: ClientSession) -> Any:
        await session.list_tools()
        await session.call_tool("echo", {"message": "hello"})
        return await session.call_tool("generate_image", {"size": 8})

    sdk_session(tap, work, XDG_DATA_HOME=str(folder))
    return tapped(folder)


def test_a_tapped_session_replayed_against_a_changed_build_reports_the_one_changed_answer(tmp_path: Path) -> None:
    rec = sdk_tapped_demo(tmp_path)
    same = run_lens("replay", str(rec), "--against", *CHANGED_DEMO, timeout=120)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "different" not in same.stdout
    changed = run_lens(
        "replay", str(rec), "--format", "junit", "--against", *CHANGED_DEMO, env={"DEMO_CHANGED_ECHO": "1"}, timeout=120
    )
    assert changed.returncode == 17, changed.stderr
    suite = ET.fromstring(changed.stdout).find("testsuite")
    assert suite is not None and suite.get("failures") == "1" and suite.get("errors") == "0"
    cases = suite.findall("testcase")
    assert len(cases) >= 4  # initialize, tools/list, two calls
    failed = [case for case in cases if case.find("failure") is not None]
    assert len(failed) == 1 and "tools/call" in failed[0].get("name", "") and "hello" in failed[0].get("name", "")
    text = failed[0].find("failure").text or ""  # type: ignore[union-attr]
    assert '$.result.content[0].text: "hello" → "hello (changed)"' in text


def test_diff_of_two_tapped_sessions_names_the_changed_answer(tmp_path: Path) -> None:
    before = sdk_tapped_demo(tmp_path / "a")
    after_folder = tmp_path / "b"
    tap = [sys.executable, "-m", "inspector", "tap", "--name", "demo", "--", *CHANGED_DEMO]
    changed = run_lens(
        "replay", str(before), "--against", *tap, env={"DEMO_CHANGED_ECHO": "1", "XDG_DATA_HOME": str(after_folder)}
    )
    assert changed.returncode == 17, changed.stdout + changed.stderr
    after = tapped(after_folder)
    shown = run_lens("diff", str(before), str(after), "--format", "markdown")
    assert shown.returncode == 17, shown.stderr
    assert '`$.result.content[0].text`: `"hello"` → `"hello (changed)"`' in shown.stdout
    assert shown.stdout.count("| different |") == 1


def test_a_damaged_line_a_request_never_recorded_and_several_servers_end_clearly(tmp_path: Path) -> None:
    words = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"]
    rec = record(tmp_path / "demo.jsonl", *words, "--", *DEMO)
    lines = rec.read_bytes().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"".join([*lines[:3], b"\x00\xffnot json\n", *lines[3:]]))
    asked = [m for m in messages(rec) if "method" in m]  # what our CLI sent: the handshake, the call
    served = fed([*REPLAY, str(damaged), "--fast"], asked)
    assert served.returncode == 0, served.stderr  # the intact exchanges still answer
    assert "line 4 is damaged" in served.stderr and "replayed without it" in served.stderr
    assert answer_to(rec, "tools/call") in [m.get("result") for m in map(json.loads, served.stdout.splitlines())]

    bye = ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=bye"]
    other = run_lens("--cli", *bye, "--", *REPLAY, str(rec))
    assert other.returncode != 0
    assert "no recorded answer to tools/call" in other.stderr and '\\"bye\\"' in other.stderr
    assert '"nearest":' in other.stderr or "nearest recorded" in other.stderr
    unknown = [*asked[:-1], {**asked[-1], "params": {"name": "echo", "arguments": {"message": "bye"}}}]
    strict = fed([*REPLAY, str(rec), "--strict"], unknown)
    assert strict.returncode == 16
    assert (
        'mcp-lens replay: no recorded answer to tools/call with params {"name":"echo","arguments":{"message":"bye"}}'
        in strict.stderr
    )
    assert 'nearest recorded: {"name":"echo","arguments":{"message":"hi"}' in strict.stderr

    export = tmp_path / "workspace.jsonl"
    _head, *entries = rec.read_bytes().splitlines()
    named = [
        json.dumps({**json.loads(line), "server": name}).encode() for name in ("alpha", "beta") for line in entries
    ]
    export.write_bytes(
        b"\n".join(
            [
                json.dumps(
                    {"format": "mcp-lens-traffic", "version": 1, "meta": {"servers": ["alpha", "beta"]}}
                ).encode(),
                *named,
            ]
        )
        + b"\n"
    )
    refused = run_lens("replay", str(export))
    assert refused.returncode == 2
    assert "holds 2 servers; choose one with --server NAME: 'alpha', 'beta'" in refused.stderr


FORM = {"name": "Ada", "size": "large", "oat_milk": True}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_servers_own_requests_are_answered_as_recorded(mode: str, tmp_path: Path) -> None:
    """order_coffee asks the client mid-call: elicitation and sampling requests (legacy), or an
    input_required round and a retry carrying the server's requestState (2026-07-28)."""
    import mcp_types as types
    from mcp import Client

    tap = [sys.executable, "-m", "inspector", "tap", "--name", "demo", "--", *DEMO]
    asked: list[str] = []

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        asked.append("elicit")
        return types.ElicitResult(action="accept", content=FORM)

    async def sample(context: Any, params: Any) -> types.CreateMessageResult:
        asked.append("sample")
        return types.CreateMessageResult(role="assistant", content=types.TextContent(text="Croissant"), model="t")

    async def main() -> Any:
        env = lens_env(XDG_DATA_HOME=str(tmp_path))
        target = StdioServerParameters(command=tap[0], args=tap[1:], env=env, cwd=str(REPO))
        async with Client(
            target, mode=mode, read_timeout_seconds=60, elicitation_callback=elicit, sampling_callback=sample
        ) as client:
            return (await client.call_tool("order_coffee", {"suggest_pastry": True})).structured_content

    assert anyio.run(main)["pastry"] == "Croissant"
    assert sorted(asked) == ["elicit", "sample"]
    rec = tapped(tmp_path)
    run = run_lens("replay", str(rec), "--format", "json", "--against", *DEMO, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    calls = [r for r in report["requests"] if r["method"] == "tools/call"]
    assert calls and all(r["verdict"] in ("identical", "equal") for r in calls)
    final = [r for r in calls if r["params"].get("requestState") is None or mode == "2026-07-28"][-1]
    assert final["verdict"] in ("identical", "equal")


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_stdio_record_replayed_against_the_same_server_over_http(era: str, demo_http: str, tmp_path: Path) -> None:
    """Streamable HTTP as the target: its session, the protocol-version header (legacy, from the handshake)
    and the 2026-07-28 Mcp-Method / Mcp-Name headers, from the recorded requests."""
    words = ["--protocol-era", era, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=web"]
    rec = record(tmp_path / f"demo-{era}.jsonl", *words, "--", *DEMO)
    run = run_lens("replay", str(rec), "--format", "json", "--against", demo_http, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    handshake = "server/discover" if era == "modern" else "initialize"
    assert [r["method"] for r in report["requests"]] == [handshake, "tools/list", "tools/call"]
    assert report["passed"] is True


def test_a_target_that_cannot_be_reached_ends_with_a_clear_message(tmp_path: Path) -> None:
    rec = record(tmp_path / "demo.jsonl", "--method", "tools/list", "--", *DEMO)
    port = free_port()  # nothing listens there
    for target in ([sys.executable, "-c", "pass"], [f"http://127.0.0.1:{port}/mcp"]):
        run = run_lens("replay", str(rec), "--against", *target, timeout=120)
        assert run.returncode == 3, run.stdout + run.stderr
        assert "Traceback" not in run.stderr
        said = run.stderr.strip()
        assert said.startswith(("mcp-lens replay: the server ended at request 1", "mcp-lens replay: could not")), said
        assert "request 1" in said and run.stdout == ""


def test_recorded_progress_notifications_reach_the_client_with_its_own_token(everything: str, tmp_path: Path) -> None:
    call = ["--tool-name", "trigger-long-running-operation", "--tool-arg", "duration=1", "steps=3"]
    rec = record(tmp_path / "progress.jsonl", "--method", "tools/call", *call, "--", "node", everything, "stdio")
    recorded = [m["params"]["progress"] for m in messages(rec) if m.get("method") == "notifications/progress"]
    assert len(recorded) == 3
    seen: list[float] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append(value)

    async def work(session: ClientSession) -> Any:
        arguments = {"duration": 1, "steps": 3}
        return await session.call_tool("trigger-long-running-operation", arguments, progress_callback=progress)

    _, result = sdk_session([*REPLAY, str(rec)], work)  # at the recorded pace
    assert dumped(result) == answer_to(rec, "tools/call")
    assert seen == recorded  # the SDK drops progress whose token is not its own


def test_a_tapped_session_rotated_by_size_is_replayed_from_every_part(tmp_path: Path) -> None:
    """A tap record past --max-bytes goes on in a new part; replaying the newest part (what Tapped sessions
    opens) serves the whole session, the older parts' answers included, oldest first."""
    tap = [sys.executable, "-m", "inspector", "tap", "--name", "demo", "--max-bytes", "4096", "--", *DEMO]

    async def work(session: ClientSession) -> Any:
        await session.list_tools()
        for n in range(6):
            await session.call_tool("echo", {"message": f"call {n}"})

    sdk_session(tap, work, XDG_DATA_HOME=str(tmp_path))
    parts = sorted((tmp_path / "mcp-lens/taps").glob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    assert len(parts) >= 3, parts  # rotated
    newest = next(
        p
        for p in parts
        if not any(json.loads(q.open().readline())["meta"]["tap"].get("continues") == p.name for q in parts)
    )
    handshake = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    calls = [
        {
            "jsonrpc": "2.0",
            "id": 10 + n,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": f"call {n}"}},
        }
        for n in range(6)
    ]
    done = fed([*REPLAY, str(newest)], [handshake, *calls])
    assert done.returncode == 0, done.stderr
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert "result" in answers[1], answers[1]
    for n in range(6):
        assert answers[10 + n].get("result", {}).get("content") == [{"type": "text", "text": f"call {n}"}], answers[
            10 + n
        ]
    assert "no recorded answer" not in done.stderr


def test_what_the_outside_tester_found_in_the_commands(tmp_path: Path) -> None:
    """OT7: diff's hint names its own options; a secret flag of the target is never echoed; a JUnit report
    is written (one error case saying why) when the server cannot be started."""
    store_a = tmp_path / "multi.jsonl"
    lines = [
        json.dumps({"format": "mcp-lens-traffic", "version": 1, "meta": {"servers": ["alpha", "beta"]}}),
        *(
            json.dumps(
                {
                    "seq": n,
                    "wall": 1.0,
                    "mono": 1.0,
                    "dir": "out",
                    "transport": "stdio",
                    "kind": "request",
                    "raw": json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}),
                    "method": "ping",
                    "id": n,
                    "server": server,
                }
            )
            for n, server in ((1, "alpha"), (2, "beta"))
        ),
    ]
    store_a.write_text("\n".join(lines) + "\n")
    hint = run_lens("diff", str(store_a), str(store_a))
    assert hint.returncode == 2 and "--server-a NAME" in hint.stderr and "--server NAME" not in hint.stderr, hint.stderr
    one = tmp_path / "one.jsonl"
    one.write_text("\n".join([json.dumps({"format": "mcp-lens-traffic", "version": 1, "meta": {}}), lines[1]]) + "\n")
    secret = run_lens("replay", str(one), "--format", "junit", "--against", "/nonexistent", "--api-key=SEKRETflag3")
    assert secret.returncode == 3, secret.stderr
    assert "SEKRETflag3" not in secret.stderr + secret.stdout, secret.stderr
    suite = ET.fromstring(secret.stdout).find("testsuite")
    assert suite is not None and suite.get("errors") == "1", secret.stdout
    error = suite.find("testcase/error")
    assert error is not None and "could not start" in (error.get("message") or ""), secret.stdout
