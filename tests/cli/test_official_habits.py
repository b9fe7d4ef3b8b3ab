"""The official Inspector CLI's habits (npm @modelcontextprotocol/inspector 2.12, `--cli`): several
values after one `--tool-arg`, `--prompt-args` or `--header`, `--method` required, the `--` rules."""

from __future__ import annotations

import json

import pytest
from lens_support import run_lens

from inspector.cli.args import UsageError, parse


def test_several_tool_args_after_one_flag_stay_ours() -> None:
    args = parse(["node", "server.js", "--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=2", "b=3"])
    assert args.target == ["node", "server.js"]
    assert args.tool_args == {"a": 2, "b": 3}
    args = parse(
        ["node", "s.js", "--method", "tools/call", "--tool-name", "t", "--tool-arg=a=2", "b=3", "--format=text"]
    )
    assert (args.target, args.tool_args, args.format) == (["node", "s.js"], {"a": 2, "b": 3}, "text")


def test_values_are_json_as_there() -> None:
    args = parse(
        ["--demo", "--method", "tools/call", "--tool-name", "t", "--tool-arg", 'o={"k":[1,true]}', "s=hi", "n=null"]
    )
    assert args.tool_args == {"o": {"k": [1, True]}, "s": "hi", "n": None}


def test_several_headers_after_one_flag_stay_ours() -> None:
    args = parse(
        [
            "--server-url",
            "http://127.0.0.1:1/mcp",
            "--method",
            "tools/list",
            "--header",
            "X-A: 1",
            "Authorization: Bearer t",
        ]
    )
    assert args.headers == {"X-A": "1", "Authorization": "Bearer t"}
    assert args.target == []


def test_a_header_list_ends_at_the_server_url() -> None:
    args = parse(["--method", "tools/list", "--header", "X-A: 1", "http://127.0.0.1:1/mcp"])
    assert args.headers == {"X-A": "1"}
    assert args.server_url == "http://127.0.0.1:1/mcp"


def test_prompt_args_are_coerced_then_sent_as_strings_as_there() -> None:
    args = parse(
        ["--demo", "--method", "prompts/get", "--prompt-name", "p", "--prompt-args", 'a="x"', "n=1.50", "s=hi"]
    )
    assert args.prompt_args == {"a": "x", "n": "1.5", "s": "hi"}


def test_a_missing_method_is_a_usage_error_that_says_so() -> None:
    with pytest.raises(UsageError, match="--method is required"):
        parse(["--demo"])


def test_words_before_dashes_are_the_server_when_they_come_first() -> None:
    """`inspector --cli node server.js --verbose -- --method tools/list`: the target first, our options after."""
    args = parse(["--cli", "node", "server.js", "--verbose", "--", "--method", "tools/list"])
    assert args.target == ["node", "server.js", "--verbose"]
    assert args.method == "tools/list"
    args = parse(["--method", "tools/list", "--", "node", "server.js", "--method", "x"])
    assert args.target == ["node", "server.js", "--method", "x"]


def test_a_missing_method_exits_2_naming_it() -> None:
    proc = run_lens("--cli", "--demo")
    assert proc.returncode == 2, proc.stderr
    assert "--method is required" in json.loads(proc.stderr.strip().splitlines()[-1])["message"]


def test_help_lists_every_subcommand() -> None:
    done = run_lens("--help")
    assert done.returncode == 0, done.stderr
    for way in ("mcp-lens --cli", "mcp-lens tokens", "mcp-lens tap", "mcp-lens run", "mcp-lens doctor"):
        assert way in done.stdout, f"--help does not mention {way!r}:\n{done.stdout}"


def test_cli_help_says_where_the_server_command_goes() -> None:
    done = run_lens("--cli", "--help")
    assert done.returncode == 0, done.stderr
    usage = done.stdout.split("\n\n", 1)[0]
    assert "COMMAND" in usage and "-- COMMAND" in usage and "--method METHOD" in usage, usage


def test_a_url_picks_its_transport_as_there_and_servers_are_named_as_in_the_app() -> None:
    from inspector.cli.connect import profile_of

    sse = profile_of(parse(["--method", "tools/list", "http://127.0.0.1:1/sse"]))
    assert (sse.transport, sse.name) == ("sse", "127.0.0.1:1")
    assert profile_of(parse(["--method", "tools/list", "http://127.0.0.1:1/mcp"])).transport == "http"
    assert profile_of(parse(["--method", "tools/list", "--transport", "http", "http://h/sse"])).transport == "http"
    assert profile_of(parse(["--method", "tools/list", "--demo"])).name == "Demo server"
    command = profile_of(
        parse(["--method", "tools/list", "--transport", "stdio", "node", "/x/server-everything/dist/index.js"])
    )
    assert (command.transport, command.name) == ("stdio", "server-everything")


def test_copied_prompt_arguments_parse_back_to_the_same_strings() -> None:
    """`--prompt-args` values are JSON-coerced then sent as strings (as there): "copy as command" quotes a
    value that coercion would change, so the copied line sends what the app sent."""
    import shlex

    from inspector.traffic.commands import cli_line

    arguments = {"code": "007", "n": "1.50", "flag": "true", "text": "hi there", "quoted": '"x"', "obj": '{"a": 1}'}
    line = cli_line(["--demo"], "prompts/get", {"name": "p", "arguments": arguments})
    assert line is not None
    assert parse(shlex.split(line)[2:]).prompt_args == arguments


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--transport", "stdio", "--server-url", "http://127.0.0.1:9/mcp"], "--transport stdio"),
        (["--transport", "sse", "node", "x.js"], "--transport sse"),
    ],
)
def test_a_transport_that_does_not_fit_the_target_is_a_usage_error(words: list[str], said: str) -> None:
    from inspector.cli.connect import profile_of

    with pytest.raises(UsageError, match=said):
        profile_of(parse(["--method", "tools/list", *words]))
