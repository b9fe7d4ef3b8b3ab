"""The official Inspector CLI's documented examples (npm @modelcontextprotocol/inspector 2.12, `--cli`) run
against server-everything with both CLIs, word for word apart from the program: the results compare equal.

What must differ is normalised and said: the official CLI wraps its JSON as {"result": …} (ours prints the
result, with conformance findings beside it); it declares roots, ours declares what --input-responses
answers (and says so), so server-everything hides get-roots-list from ours until a file answers roots/list;
it starts a stdio server with a minimal environment, ours with the user's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lens_support import REPO

OFFICIAL = REPO / "tests/servers/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"


@pytest.fixture(scope="module")
def official() -> list[str]:
    if not OFFICIAL.exists():
        pytest.fail(f"{OFFICIAL} is missing: run scripts/test, which installs the npm test servers")
    return ["node", str(OFFICIAL), "--cli"]


def run(program: list[str], words: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*program, *words], capture_output=True, text=True, timeout=120, cwd=REPO, stdin=subprocess.DEVNULL
    )


OURS = [sys.executable, "-m", "inspector", "--cli"]


def both(official: list[str], words: list[str], *ours_only: str) -> tuple[Any, Any]:
    """The same words to both CLIs (JSON output); their results, normalised."""
    if "--" in words and words[0].startswith("-"):  # options, then -- and the server's words: ours go first
        cut = words.index("--")
        words = [*words[:cut], "--format", "json", *ours_only, *words[cut:]]
    else:
        words = [*words, "--format", "json", *ours_only]
    theirs = run(official, [w for w in words if w not in ours_only])
    assert theirs.returncode == 0, theirs.stdout + theirs.stderr
    mine = run(OURS, words)
    assert mine.returncode == 0, mine.stderr
    result = json.loads(mine.stdout)
    result.pop("findings", None)  # ours only: conformance findings beside the result
    return json.loads(theirs.stdout)["result"], result


def names(listing: dict[str, Any], key: str) -> list[str]:
    return [item.get("name") or item.get("uri") for item in listing[key]]


def test_tools_list_and_the_capabilities_that_hide_tools(official: list[str], everything: str, tmp_path: Path) -> None:
    words = ["node", everything, "stdio", "--method", "tools/list"]
    theirs, mine = both(official, words)
    assert set(names(theirs, "tools")) - set(names(mine, "tools")) == {"get-roots-list"}  # it declares roots
    said = run(OURS, [*words, "--format", "json"]).stderr
    assert "does not declare sampling, elicitation, roots" in said
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"roots/list": {"roots": []}}))
    theirs, mine = both(official, words, "--input-responses", str(answers))
    assert names(theirs, "tools") == names(mine, "tools")
    assert theirs["tools"] == mine["tools"]


@pytest.mark.parametrize(
    "call",
    [
        ["--tool-name", "echo", "--tool-arg", "message=hello world"],
        ["--tool-name", "get-sum", "--tool-arg", "a=2", "--tool-arg", "b=3"],
        ["--tool-name", "get-sum", "--tool-arg", "a=2", "b=3.5"],  # several after one flag
        ["--tool-name", "get-annotated-message", "--tool-arg", "messageType=error", "includeImage=false"],
        ["--tool-name", "get-sum", "--tool-args-json", '{"a": 1, "b": 2}'],
    ],
    ids=["echo", "repeated", "several", "json-values", "args-json"],
)
def test_tools_call(official: list[str], everything: str, call: list[str]) -> None:
    theirs, mine = both(official, ["node", everything, "stdio", "--method", "tools/call", *call])
    assert theirs == mine


@pytest.mark.parametrize(
    "method",
    [
        ["--method", "resources/list"],
        ["--method", "resources/templates/list"],
        ["--method", "resources/read", "--uri", "demo://resource/static/document/architecture.md"],
        ["--method", "prompts/list"],
        ["--method", "prompts/get", "--prompt-name", "args-prompt", "--prompt-args", "city=Paris", "state=CA"],
    ],
    ids=["resources", "templates", "read", "prompts", "prompt"],
)
def test_resources_and_prompts(official: list[str], everything: str, method: list[str]) -> None:
    theirs, mine = both(official, ["node", everything, "stdio", *method])
    assert theirs == mine


def test_log_level(official: list[str], everything: str) -> None:
    theirs, mine = both(official, ["node", everything, "stdio", "--method", "logging/setLevel", "--log-level", "debug"])
    assert theirs == {} and mine == {"ok": True, "level": "debug"}  # ours says what it set (on purpose)


def test_env_config_server_and_separator(official: list[str], everything: str, tmp_path: Path) -> None:
    call = ["--method", "tools/call", "--tool-name", "get-env"]
    theirs, mine = both(official, ["-e", "LENS_PARITY=1", "-e", "OTHER=a=b", "node", everything, "stdio", *call])
    for result in (theirs, mine):  # the official CLI passes a minimal environment, ours the user's: both pass -e
        env = json.loads(result["content"][0]["text"])
        assert (env["LENS_PARITY"], env["OTHER"]) == ("1", "a=b")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"everything": {"command": "node", "args": [everything, "stdio"]}}}))
    theirs, mine = both(official, ["--config", str(config), "--server", "everything", "--method", "prompts/list"])
    assert theirs == mine
    theirs, mine = both(official, ["--method", "prompts/list", "--", "node", everything, "stdio"])
    assert theirs == mine
    theirs, mine = both(official, ["node", everything, "stdio", "--", "--method", "prompts/list"])
    assert theirs == mine


def test_http_with_headers(official: list[str], everything_http: str) -> None:
    words = [everything_http, "--transport", "http", "--method", "prompts/list"]
    theirs, mine = both(official, [*words, "--header", "X-Api-Key: k1", "X-Other: k2"])
    assert theirs == mine


def test_a_missing_method_fails_in_both(official: list[str], everything: str) -> None:
    theirs = run(official, ["node", everything, "stdio"])
    mine = run(OURS, ["node", everything, "stdio"])
    assert theirs.returncode != 0 and "Method is required" in theirs.stdout + theirs.stderr
    assert mine.returncode == 2 and "--method is required" in mine.stderr
