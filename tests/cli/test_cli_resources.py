"""The CLI's resource, prompt and logging methods, run as a real process against real servers."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import REPO, run_lens

from inspector.cli.args import UsageError, parse

PAGED = [sys.executable, str(REPO / "tests/core/paged_server.py")]


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_lens("--cli", *args, timeout=timeout)


def last_json(stderr: str) -> dict:
    return json.loads([line for line in stderr.splitlines() if line.startswith("{")][-1])


def test_resources_list_json_and_text() -> None:
    proc = cli("--demo", "--method", "resources/list")
    assert proc.returncode == 0, proc.stderr
    uris = [r["uri"] for r in json.loads(proc.stdout)["resources"]]
    assert "demo://docs/guide" in uris and "demo://live/counter" in uris
    text = cli("--demo", "--method", "resources/list", "--format", "text")
    assert text.returncode == 0 and "demo://docs/guide  text/markdown  Demo server guide" in text.stdout.splitlines()


def test_resources_read_text_and_blob() -> None:
    proc = cli("--demo", "--method", "resources/read", "--uri", "demo://data/settings.json")
    assert proc.returncode == 0, proc.stderr
    (content,) = json.loads(proc.stdout)["contents"]
    assert json.loads(content["text"])["theme"] == "dark" and content["mimeType"] == "application/json"
    blob = cli("--demo", "--method", "resources/read", "--uri", "demo://images/icon.png", "--format", "text")
    assert blob.returncode == 0 and blob.stdout.startswith("[demo://images/icon.png image/png] blob, about")
    raw = cli("--demo", "--method", "resources/read", "--uri", "demo://images/icon.png")
    assert base64.b64decode(json.loads(raw.stdout)["contents"][0]["blob"]).startswith(b"\x89PNG")


def test_resources_read_unknown_uri_is_a_protocol_error() -> None:
    proc = cli("--demo", "--method", "resources/read", "--uri", "demo://nope")
    assert proc.returncode == 4 and proc.stdout == ""
    error = last_json(proc.stderr)
    assert error["error"] == "protocol" and "demo://nope" in error["message"]


def test_templates_list(everything: str) -> None:
    proc = cli("node", everything, "--method", "resources/templates/list", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("demo://resource/dynamic/text/{resourceId}") for line in proc.stdout.splitlines())
    demo = cli("--demo", "--method", "resources/templates/list")
    assert [t["uriTemplate"] for t in json.loads(demo.stdout)["resourceTemplates"]] == ["demo://notes/{note_id}"]


def test_prompts_list_marks_required_arguments() -> None:
    proc = cli("--demo", "--method", "prompts/list", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("summarize_note(note_id*, style)") for line in proc.stdout.splitlines())


def test_prompts_get_with_several_args_after_one_option(everything: str) -> None:
    proc = cli(
        "node", everything, "--method", "prompts/get", "--prompt-name", "args-prompt",
        "--prompt-args", "city=Lyon", "state=Rhône",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["messages"][0]["content"]["text"] == "What's weather in Lyon, Rhône?"
    text = cli(
        "--demo", "--method", "prompts/get", "--prompt-name", "summarize_note",
        "--prompt-args", "note_id=ideas", "--prompt-args", "style=haiku", "--format", "text",
    )  # fmt: skip
    lines = text.stdout.splitlines()
    assert "user: Summarise this note as haiku." in lines and "user: [resource demo://notes/ideas]" in lines


def test_logging_set_level() -> None:
    legacy = ("--protocol-era", "legacy")
    proc = cli("--demo", *legacy, "--method", "logging/setLevel", "--log-level", "warning")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"ok": True, "level": "warning"}
    text = cli("--demo", *legacy, "--method", "logging/setLevel", "--log-level", "debug", "--format", "text")
    assert text.stdout.strip() == "log level set to debug"


def test_logging_set_level_is_refused_in_the_modern_era_with_the_reason() -> None:
    proc = cli("--demo", "--method", "logging/setLevel", "--log-level", "warning", "--format", "text")
    assert proc.returncode == 1
    assert "removed in 2026-07-28" in proc.stderr and "legacy" in proc.stderr


def test_findings_go_to_stderr_and_pages_are_joined() -> None:
    proc = cli("--method", "resources/list", "--", *PAGED)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["resources"]) == 7 and [f["path"] for f in out["findings"]] == ["$.resources[4].name"]


def test_method_not_found_is_exit_4() -> None:
    proc = cli("--method", "logging/setLevel", "--log-level", "info", "--", *PAGED)
    assert proc.returncode == 4 and last_json(proc.stderr)["code"] == -32601


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--demo", "--method", "resources/read"], "--method resources/read needs --uri"),
        (["--demo", "--method", "prompts/get"], "--method prompts/get needs --prompt-name"),
        (["--demo", "--method", "logging/setLevel"], "--method logging/setLevel needs --log-level"),
        (["--demo", "--method", "prompts/get", "--prompt-name", "x", "--prompt-args", "=v"], "KEY=VALUE"),
    ],
)
def test_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse(argv)


def test_usage_error_exit_code_and_bad_level() -> None:
    proc = cli("--demo", "--method", "resources/read")
    assert proc.returncode == 2 and "needs --uri" in last_json(proc.stderr)["message"]
    bad = cli("--demo", "--method", "logging/setLevel", "--log-level", "loud")
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_prompt_args_stop_at_the_server_command() -> None:
    args = parse(["--method", "prompts/get", "--prompt-name", "p", "--prompt-args", "a=1", "b=x=y", "node", "s.js"])
    assert args.prompt_args == {"a": "1", "b": "x=y"} and args.target == ["node", "s.js"]
    assert Path(REPO / "tests/core/paged_server.py").exists()


def test_copied_commands_run_as_they_read() -> None:
    import shlex

    from inspector.traffic.commands import cli_line as cli_command

    params = {"name": "summarize_note", "arguments": {"note_id": "it's; rm -rf ~", "style": "haiku"}}
    command = cli_command(["--demo"], "prompts/get", params)
    assert command is not None and "note_id=it'\"'\"'s; rm -rf ~" in command
    proc = cli(*shlex.split(command)[2:])
    assert proc.returncode == 0, proc.stderr
    messages = json.loads(proc.stdout)["messages"]
    assert messages[0]["content"]["text"] == "Summarise this note as haiku."
    assert "it's; rm -rf ~" in messages[1]["content"]["resource"]["text"]
    read = cli_command(["--demo"], "resources/read", {"uri": "demo://data/settings.json"})
    assert cli(*shlex.split(read)[2:]).returncode == 0
    assert cli_command(["--demo"], "prompts/get", {"name": "p", "arguments": {"n": 3}}) is None
    assert cli_command([], "resources/list", None) is None
