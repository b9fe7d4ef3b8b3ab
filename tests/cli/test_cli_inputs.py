"""The CLI with a VS Code config whose server uses ${input:…} and ${env:…}: values from --input and the
environment reach the server (server-everything's get-env); a missing input stops with its name."""

from __future__ import annotations

import json
from pathlib import Path

from lens_support import run_lens

from inspector.cli.args import UsageError, parse


def vscode_config(tmp_path: Path, everything: str) -> Path:
    path = tmp_path / ".vscode" / "mcp.json"
    path.parent.mkdir()
    server = {
        "type": "stdio",
        "command": "node",
        "args": [everything],
        "env": {"API_KEY": "${input:api-key}", "TOKEN": "${env:LENS_CLI_TOKEN}"},
    }
    inputs = [{"type": "promptString", "id": "api-key", "description": "Everything API key", "password": True}]
    path.write_text(json.dumps({"inputs": inputs, "servers": {"everything": server}}))
    return path


def test_input_option_parses() -> None:
    args = parse(["--config", "f.json", "--method", "tools/list", "--input", "api-key=a=b", "--input", "other="])
    assert args.inputs == {"api-key": "a=b", "other": ""}
    try:
        parse(["--config", "f.json", "--method", "tools/list", "--input", "novalue"])
    except UsageError as exc:
        assert "--input expects ID=VALUE" in str(exc)
    else:
        raise AssertionError("--input without = was accepted")


def test_values_reach_the_server_and_a_missing_input_is_named(tmp_path: Path, everything: str) -> None:
    config = vscode_config(tmp_path, everything)
    call = ["--cli", "--config", str(config), "--server", "everything", "--method", "tools/call"]
    call += ["--tool-name", "get-env"]
    done = run_lens(*call, "--input", "api-key=from-the-flag", env={"LENS_CLI_TOKEN": "from-the-env"})
    assert done.returncode == 0, done.stderr
    env = json.loads(json.loads(done.stdout)["content"][0]["text"])
    assert env["API_KEY"] == "from-the-flag" and env["TOKEN"] == "from-the-env"

    missing = run_lens(*call, env={"LENS_CLI_TOKEN": "from-the-env"})
    assert missing.returncode == 2 and missing.stdout == ""
    error = json.loads(missing.stderr)
    assert error["error"] == "usage" and "api-key ('Everything API key')" in error["message"]
    assert "--input api-key=VALUE" in error["message"]
