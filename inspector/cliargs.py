"""Command-line parsing for the headless CLI, in the shape of the official Inspector's CLI.

Our own options may come before or after the server command; everything else is the target
(command words, or a URL). After ``--`` everything is the target, for servers whose own flags
collide with ours.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.cli_resources import RESOURCE_PROMPT_METHODS, add_options, is_pair, read_options

METHODS = ("initialize", "tools/list", "tools/call", "ping", *RESOURCE_PROMPT_METHODS)
FORMATS = ("json", "text")

# the options that say which server and how to reach it (shared with `mcp-lens tokens`) → takes a value
TARGET_OPTIONS: dict[str, bool] = {
    "--help": False,
    "-h": False,
    "--demo": False,
    "--server-url": True,
    "--transport": True,
    "--config": True,
    "--server": True,
    "-e": True,
    "--env": True,
    "--cwd": True,
    "--header": True,
    "--input": True,
    "--connect-timeout": True,
    "--request-timeout": True,
    "--stored-auth-only": False,
}

# option → takes a value
_OPTIONS: dict[str, bool] = {
    **TARGET_OPTIONS,
    "--cli": False,
    "--method": True,
    "--tool-name": True,
    "--tool-arg": True,
    "--tool-args-json": True,
    "--format": True,
    "--max-timeout": True,
    "--record": True,
    "--uri": True,
    "--prompt-name": True,
    "--prompt-args": True,  # then more KEY=VALUE words, as the official CLI takes them
    "--log-level": True,
}


class UsageError(ValueError):
    """Bad command line; the message says which option and why."""


@dataclass
class CliArgs:
    method: str = "tools/list"
    target: list[str] = field(default_factory=list)
    demo: bool = False
    server_url: str | None = None
    transport: str | None = None
    config: str | None = None
    server: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    inputs: dict[str, str] = field(default_factory=dict)  # values for the config's ${input:ID} references
    tool_name: str | None = None
    tool_args: dict[str, Any] = field(default_factory=dict)
    format: str = "json"
    connect_timeout: float = 30.0
    request_timeout: float = 60.0
    max_timeout: float | None = None
    record: str | None = None
    stored_auth_only: bool = False  # OAuth: stored tokens / refresh only, never a browser
    uri: str | None = None
    prompt_name: str | None = None
    prompt_args: dict[str, str] = field(default_factory=dict)
    log_level: str | None = None


def coerce(value: str) -> Any:
    """`--tool-arg k=v` values are JSON when they parse as JSON (numbers, booleans, objects), else strings."""
    try:
        return json.loads(value)
    except ValueError:
        return value


def split_argv(
    argv: list[str], options: dict[str, bool], takes_more: Callable[[str, str], bool] | None = None
) -> tuple[list[str], list[str]]:
    """Our words and the target's: `options` maps each of our options to whether it takes a value;
    `takes_more(option, word)` says whether a further word still belongs to a multi-value option.
    Everything after ``--`` is the target."""
    ours: list[str] = []
    target: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            target.extend(argv[i + 1 :])
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg
        if name in options:
            ours.append(arg)
            if options[name] and "=" not in arg:
                if i + 1 >= len(argv):
                    raise UsageError(f"{arg} needs a value")
                ours.append(argv[i + 1])
                i += 1
                while takes_more is not None and i + 1 < len(argv) and takes_more(name, argv[i + 1]):
                    ours.append(argv[i + 1])
                    i += 1
        else:
            target.append(arg)
        i += 1
    return ours, target


def _more_prompt_args(option: str, word: str) -> bool:
    return option == "--prompt-args" and is_pair(word)


def add_target_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options from --server-url to --input, the same for every subcommand that connects."""
    parser.add_argument("--server-url", metavar="URL")
    parser.add_argument("--transport", choices=("stdio", "http", "sse"))
    parser.add_argument("--config", metavar="FILE", help="mcp.json / claude_desktop_config.json / .vscode/mcp.json")
    parser.add_argument("--server", metavar="NAME", help="server name inside --config")
    parser.add_argument("-e", "--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--cwd")
    parser.add_argument("--header", action="append", default=[], metavar='"Name: value"')
    parser.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="ID=VALUE",
        help="the value of a ${input:ID} placeholder in --config (VS Code inputs); asked for by the app",
    )


def target_args(ns: argparse.Namespace, target: list[str], **more: Any) -> CliArgs:
    """`CliArgs` from the parsed target options (see `TARGET_OPTIONS`), with -e and --header checked
    and a leading URL in the target taken as --server-url; `more` sets the other fields."""
    args = CliArgs(
        target=target,
        demo=ns.demo,
        server_url=ns.server_url,
        transport=ns.transport,
        config=ns.config,
        server=ns.server,
        cwd=ns.cwd,
        connect_timeout=ns.connect_timeout,
        request_timeout=ns.request_timeout,
        stored_auth_only=ns.stored_auth_only,
        **more,
    )
    for item in ns.env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"-e expects KEY=VALUE, got {item!r}")
        args.env[key] = value
    for item in ns.input:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--input expects ID=VALUE, got {item!r}")
        args.inputs[key] = value
    for item in ns.header:
        key, sep, value = item.partition(":")
        if not sep or not key.strip():
            raise UsageError(f'--header expects "Name: value", got {item!r}')
        args.headers[key.strip()] = value.strip()
    if target and target[0].startswith(("http://", "https://")) and not args.server_url:
        args.server_url, args.target = target[0], target[1:]
    return args


def require_one_server(args: CliArgs, *others: object, none: str, many: str) -> None:
    """Exactly one of a command, --server-url, --config, --demo (and `others`); the messages end in `none`/`many`."""
    sources = sum(bool(x) for x in (args.demo, args.server_url, args.config, args.target, *others))
    if sources == 0:
        raise UsageError(f"no server given: pass {none}")
    if sources > 1:
        raise UsageError(f"give exactly one server: {many}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens --cli",
        description="Connect to an MCP server, run one method, print the result.",
        epilog="Exit codes: 0 ok, 2 usage, 3 connection, 4 JSON-RPC error, 5 tool isError, "
        "6 unknown tool, 7 timeout, 11 OAuth sign-in needed or failed. "
        "Use -- before a server command whose flags collide with ours.",
    )
    p.add_argument("--cli", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--demo", action="store_true", help="target the embedded demo server")
    p.add_argument("--method", default="tools/list", choices=METHODS)
    p.add_argument("--tool-name")
    p.add_argument("--tool-arg", action="append", default=[], metavar="KEY=VALUE", help="JSON-coerced")
    p.add_argument("--tool-args-json", metavar="JSON", help="all tool arguments as one JSON object")
    add_target_options(p)
    p.add_argument("--format", default="json", choices=FORMATS)
    p.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS")
    p.add_argument("--request-timeout", type=float, default=60.0, metavar="SECONDS", help="reset by progress")
    p.add_argument("--max-timeout", type=float, metavar="SECONDS", help="hard limit, not reset by progress")
    p.add_argument("--record", metavar="FILE.jsonl", help="write the exact wire record of the run")
    p.add_argument(
        "--stored-auth-only",
        action="store_true",
        help="OAuth servers: use stored tokens (refreshing them) only; never open a browser (exit 11 if needed)",
    )
    add_options(p)
    return p


def parse(argv: list[str]) -> CliArgs:
    """Raises `UsageError`; `--help` prints and raises SystemExit(0) as argparse does."""
    ours, target = split_argv(argv, _OPTIONS, _more_prompt_args)
    parser = _parser()
    ns = parser.parse_args(ours)
    args = target_args(
        ns,
        target,
        method=ns.method,
        tool_name=ns.tool_name,
        format=ns.format,
        max_timeout=ns.max_timeout,
        record=ns.record,
    )
    if ns.tool_args_json:
        try:
            loaded = json.loads(ns.tool_args_json)
        except ValueError as exc:
            raise UsageError(f"--tool-args-json is not valid JSON: {exc}") from exc
        if not isinstance(loaded, dict):
            raise UsageError("--tool-args-json must be a JSON object")
        args.tool_args.update(loaded)
    for item in ns.tool_arg:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--tool-arg expects KEY=VALUE, got {item!r}")
        args.tool_args[key] = coerce(value)
    read_options(ns, args)
    if args.method == "tools/call" and not args.tool_name:
        raise UsageError("--method tools/call needs --tool-name")
    require_one_server(
        args,
        none="a command, --server-url URL, --config FILE, or --demo",
        many="a command, --server-url, --config or --demo",
    )
    return args
