"""`mcp-lens --cli --input-responses FILE`: a 2026-07-28 server's input requests answered from a file, or
the run fails with exit 12 naming what the server asked for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lens_support import run_lens

from inspector.cli import exit_codes
from inspector.core.input_required import InputNeeded

ORDER = ("--method", "tools/call", "--tool-name", "order_coffee", "--tool-arg", "drink=tea")
FORM = {"action": "accept", "content": {"name": "Ada", "size": "small"}}
KEY = "inspector.demo.round_trips:ask_order"  # the demo's key for its form (the resolver's name)


def target(kind: str, request: pytest.FixtureRequest) -> tuple[str, ...]:
    return ("--demo",) if kind == "stdio" else ("--server-url", request.getfixturevalue("demo_http"))


def responses(tmp_path: Path, content: object) -> str:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(content))
    return str(path)


def structured(stdout: str) -> dict:
    return json.loads(stdout)["structuredContent"]


def test_the_exit_code_is_named_and_listed() -> None:
    assert InputNeeded.exit_code == exit_codes.INPUT_NEEDED == 12
    assert "12 the server asked for input that --input-responses does not answer" in exit_codes.CLI_EPILOG


@pytest.mark.parametrize("kind", ["stdio", "http"])
def test_without_answers_the_run_fails_with_exit_12_and_names_the_request(kind, request, tmp_path) -> None:
    # No file: the CLI declares no elicitation (it could not answer), the server says it needs it (-32021).
    done = run_lens("--cli", *target(kind, request), *ORDER)
    assert done.returncode == exit_codes.INPUT_NEEDED, done.stderr
    error = json.loads(done.stderr.strip().splitlines()[-1])
    assert error["error"] == "input-required"
    assert "declare elicitation" in error["message"]
    assert '"elicitation/create"' in error["hint"] and "--input-responses" in error["hint"]
    assert done.stdout == ""
    # A file that answers by key declares every kind: the server asks, and the request is named.
    done = run_lens("--cli", *target(kind, request), *ORDER, "--input-responses", responses(tmp_path, {"x": {}}))
    assert done.returncode == exit_codes.INPUT_NEEDED, done.stderr
    error = json.loads(done.stderr.strip().splitlines()[-1])
    assert "How would you like your tea?" in error["message"]
    assert KEY in error["hint"] and "--input-responses" in error["hint"]
    assert error["request"][KEY]["method"] == "elicitation/create"


@pytest.mark.parametrize("kind", ["stdio", "http"])
def test_answers_by_method_name_complete_the_call(kind, request, tmp_path) -> None:
    file = responses(tmp_path, {"elicitation/create": FORM})
    done = run_lens("--cli", *target(kind, request), *ORDER, "--input-responses", file)
    assert done.returncode == exit_codes.OK, done.stderr
    assert structured(done.stdout)["order"] == {"name": "Ada", "size": "small", "oat_milk": False}


def test_answers_by_key_and_a_sampling_reply_and_a_decline(tmp_path) -> None:
    reply = {"role": "assistant", "content": {"type": "text", "text": "Scone"}, "model": "file"}
    file = responses(tmp_path, {KEY: FORM, "sampling/createMessage": reply})
    done = run_lens("--cli", "--demo", *ORDER, "--tool-arg", "suggest_pastry=true", "--input-responses", file)
    assert done.returncode == exit_codes.OK, done.stderr
    assert structured(done.stdout)["pastry"] == "Scone"

    file = responses(tmp_path, {KEY: {"action": "decline"}})
    done = run_lens("--cli", "--demo", *ORDER, "--input-responses", file)
    assert done.returncode == exit_codes.OK, done.stderr
    assert structured(done.stdout)["action"] == "decline"  # declined is an answer: the server decides


def test_the_record_shows_both_rounds_with_the_state_echoed(tmp_path) -> None:
    record = tmp_path / "run.jsonl"
    file = responses(tmp_path, {"elicitation/create": FORM})
    done = run_lens("--cli", "--demo", *ORDER, "--input-responses", file, "--record", str(record))
    assert done.returncode == exit_codes.OK, done.stderr
    lines = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    calls = [line["msg"] for line in lines if line.get("method") == "tools/call" and line.get("dir") == "out"]
    answers = [line["msg"] for line in lines if line.get("method") == "tools/call" and line.get("dir") == "in"]
    assert len(calls) == 2 and calls[0]["id"] != calls[1]["id"]
    assert answers[0]["result"]["resultType"] == "input_required"
    assert calls[1]["params"]["requestState"] == answers[0]["result"]["requestState"]
    assert calls[1]["params"]["inputResponses"] == {KEY: FORM}


@pytest.mark.parametrize(
    ("content", "said"),
    [("not json", "cannot read"), ([1, 2], "must hold a JSON object"), ({"k": 3}, "must hold a JSON object")],
)
def test_a_bad_file_is_a_usage_error(tmp_path, content, said) -> None:
    path = tmp_path / "answers.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    done = run_lens("--cli", "--demo", *ORDER, "--input-responses", str(path))
    assert done.returncode == exit_codes.USAGE
    assert said in done.stderr
