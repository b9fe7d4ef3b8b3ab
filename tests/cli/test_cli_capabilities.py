"""Client capabilities, decided in one place (`core/client_handlers.py`): the CLI declares what its
--input-responses file answers and says what it leaves out; server-everything lists tools to a client by
what it declares, so the same server lists fewer tools to the CLI than to the app, and the CLI says why."""

from __future__ import annotations

import json
from pathlib import Path

from lens_support import run_lens

from inspector.core.client_handlers import APP_CAPABILITIES, undeclared_note
from inspector.core.input_required import file_handlers


def _tools(proc) -> set[str]:
    assert proc.returncode == 0, proc.stderr
    return {tool["name"] for tool in json.loads(proc.stdout)["tools"]}


def test_the_cli_declares_what_its_answers_file_answers() -> None:
    assert file_handlers({}).capabilities() == []
    answers = {"roots/list": {"roots": []}, "elicitation/create": {"action": "decline"}}
    assert file_handlers(answers).capabilities() == ["elicitation", "roots"]
    assert set(APP_CAPABILITIES) == {"sampling", "elicitation", "roots"}
    note = undeclared_note([])
    assert note is not None and "sampling, elicitation, roots" in note and "the app" in note
    assert undeclared_note(list(APP_CAPABILITIES)) is None


def test_everything_lists_more_tools_when_the_cli_declares_roots(everything: str, tmp_path: Path) -> None:
    plain = run_lens("--cli", "node", everything, "--method", "tools/list")
    assert "get-roots-list" not in _tools(plain)
    notice = [json.loads(line) for line in plain.stderr.splitlines() if line.startswith("{")]
    assert any("does not declare sampling, elicitation, roots" in n.get("notice", "") for n in notice), plain.stderr

    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"roots/list": {"roots": [{"uri": "file:///tmp", "name": "tmp"}]}}))
    declared = run_lens("--cli", "node", everything, "--method", "tools/list", "--input-responses", str(answers))
    assert "get-roots-list" in _tools(declared)


def test_tokens_says_the_app_may_be_given_more_tools(everything: str) -> None:
    done = run_lens("tokens", "--format", "json", "--", "node", everything, "stdio")
    assert done.returncode == 0, done.stderr
    notices = [json.loads(line)["notice"] for line in done.stderr.splitlines() if line.startswith('{"notice"')]
    assert notices and "does not declare sampling, elicitation, roots" in notices[0] and "Budget tab" in notices[0]


def test_what_the_cli_declares_it_answers_over_stdio(everything: str, tmp_path: Path) -> None:
    """server-everything asks the client for its roots once it is declared: the lean stdio client answers
    from the file (it refused: "the CLI does not handle roots/list")."""
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"roots/list": {"roots": [{"uri": "file:///tmp", "name": "tmp"}]}}))
    called = run_lens(
        "--cli", "node", everything, "stdio", "--method", "tools/call", "--tool-name", "get-roots-list",
        "--input-responses", str(answers), "--format", "text",
    )  # fmt: skip
    assert called.returncode == 0, called.stderr
    assert "file:///tmp" in called.stdout
