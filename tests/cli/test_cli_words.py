"""The CLI's words in one place: the parser, the method table and "copy as command" read the same vocabulary
(`inspector.traffic.cli_vocabulary`), and no import runs in a loop between them."""

from __future__ import annotations

import argparse
import ast
import shlex
import subprocess
import sys

import pytest
from lens_support import REPO

from inspector.cli import args as cli_args
from inspector.cli import tokens_args
from inspector.cli.args import UsageError, parse
from inspector.cli.methods import RUNNERS
from inspector.traffic import cli_vocabulary as words
from inspector.traffic.commands import cli_line, method_options

# One request per method, as the app records it: what "copy as command" starts from.
REQUESTS: dict[str, dict[str, object]] = {
    "initialize": {},
    "tools/list": {},
    "tools/call": {"name": "echo", "arguments": {"message": "hi", "n": 2}},
    "ping": {},
    "resources/list": {},
    "resources/read": {"uri": "demo://data/settings.json"},
    "resources/templates/list": {},
    "prompts/list": {},
    "prompts/get": {"name": "summarize_note", "arguments": {"note_id": "n1", "style": "haiku"}},
    "logging/setLevel": {"level": "warning"},
    "tasks/list": {},
    "tasks/get": {"taskId": "t1"},
    "tasks/cancel": {"taskId": "t1"},
    "skills/list": {},
    "skills/get": {"uri": "skill://release-notes/SKILL.md"},
}


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser._option_string_actions)


def test_the_parser_defines_exactly_the_vocabulary_options() -> None:
    """`split_argv` tells our words from the server's by `OPTIONS`: it must match what argparse accepts."""
    assert _option_strings(cli_args._parser()) == set(words.OPTIONS)
    tokens_parser = tokens_args._parser()
    assert set(words.TARGET_OPTIONS) <= _option_strings(tokens_parser) == set(tokens_args._OPTIONS)
    for parser in (cli_args._parser(), tokens_parser):
        for option, action in parser._option_string_actions.items():
            takes_value = action.nargs != 0
            expected = words.OPTIONS.get(option, tokens_args._OPTIONS.get(option))
            assert takes_value == expected, option


def test_every_method_has_one_runner_and_a_copyable_command() -> None:
    assert list(RUNNERS) == list(words.METHODS) == list(REQUESTS)
    methods = cli_args._parser()._option_string_actions["--method"]
    assert list(methods.choices) == list(words.METHODS)
    for method, params in REQUESTS.items():
        line = cli_line(["--demo"], method, params)
        assert line is not None, method
        parsed = parse(shlex.split(line)[2:])
        assert parsed.method == method and parsed.demo
    read_back = parse(shlex.split(cli_line(["--demo"], "prompts/get", REQUESTS["prompts/get"]) or "")[2:])
    assert (read_back.prompt_name, read_back.prompt_args) == ("summarize_note", {"note_id": "n1", "style": "haiku"})
    assert method_options("tools/call", REQUESTS["tools/call"])[:4] == ["--method", "tools/call", "--tool-name", "echo"]
    assert method_options("sampling/createMessage", {}) is None


@pytest.mark.parametrize("method", list(words.REQUIRED))
def test_a_method_without_what_it_needs_is_a_usage_error(method: str) -> None:
    _field, option = words.REQUIRED[method]
    with pytest.raises(UsageError, match=f"--method {method} needs {option}"):
        parse(["--demo", "--method", method])
    assert method_options(method, {}) is None  # and "copy as command" will not offer it without


def test_log_levels_are_the_parsers_choices() -> None:
    choices = cli_args._parser()._option_string_actions["--log-level"].choices
    assert list(choices) == list(words.LOG_LEVELS)
    assert all(method_options("logging/setLevel", {"level": level}) for level in words.LOG_LEVELS)


def _inspector_imports(path: str) -> set[str]:
    """Every `inspector…` module a file imports, at module level or inside functions."""
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("inspector")}


def test_no_import_loop_between_the_cli_and_copy_as_command() -> None:
    assert _inspector_imports("inspector/traffic/cli_vocabulary.py") == set()
    for path in sorted((REPO / "inspector/traffic").glob("*.py")):
        imported = _inspector_imports(str(path.relative_to(REPO)))
        assert not {name for name in imported if name.startswith("inspector.cli")}, path.name
    for path in ("inspector/core/history.py", "inspector/ui/traffic/view.py"):
        assert not {name for name in _inspector_imports(path) if name.startswith("inspector.cli")}, path


def test_a_stdio_run_imports_neither_qt_nor_the_sdk() -> None:
    """The CLI package loads only what a `--cli` stdio run needs before it has an answer."""
    script = (
        "import sys\n"
        "from inspector.__main__ import main\n"
        "code = main(['--cli', '--demo', '--method', 'tools/list'])\n"
        "heavy = {'PySide6', 'mcp', 'pydantic', 'httpx2', 'anyio', 'tiktoken', 'qasync'}\n"
        "print(sorted(heavy & {name.split('.')[0] for name in sys.modules}), code, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.stderr.strip().splitlines()[-1] == "[] 0", done.stderr
