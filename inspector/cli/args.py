"""Command-line parsing for the headless CLI, in the shape of the official Inspector's CLI (npm
``@modelcontextprotocol/inspector`` 2.12, ``--cli``).

Our own options may come before or after the server command; everything else is the target
(command words, or a URL). ``--`` separates the two as there: when the words before it start with
the server command, they are the target and our options follow; otherwise everything after it is
the target, for servers whose own flags collide with ours. ``--tool-arg``, ``--prompt-args`` and
``--header`` take several values after one flag, as there. ``--method`` is required, as there.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.cli.auth_options import add_oauth_options, oauth_settings
from inspector.cli.exit_codes import CLI_EPILOG
from inspector.config.eras import ERAS, KNOWN_VERSIONS
from inspector.config.text_files import NotUtf8Error, read_utf8
from inspector.traffic.cli_vocabulary import (
    FORMATS,
    LOG_LEVELS,
    METHODS,
    OPTIONS,
    REQUIRED,
    takes_more,
)
from inspector.transports.kinds import TRANSPORT_KINDS


class UsageError(ValueError):
    """Bad command line; the message says which option and why."""


@dataclass
class CliArgs:
    method: str = "tools/list"  # `mcp-lens --cli` requires --method; other commands list tools
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
    oauth: dict[str, Any] = field(default_factory=dict)  # profile fields from the --oauth-* options, --dpop
    uri: str | None = None
    prompt_name: str | None = None
    prompt_args: dict[str, str] = field(default_factory=dict)
    log_level: str | None = None
    task_id: str | None = None  # tasks/get, tasks/cancel
    skill: str | None = None  # skills/get: a skill's name or its SKILL.md URI
    as_task: bool = False  # tools/call: run as a task, wait for its result
    input_responses: dict[str, Any] = field(default_factory=dict)  # input_required: key or method → result
    protocol_era: str | None = None  # --protocol-version or --protocol-era; None keeps the profile's (auto)


def coerce(value: str) -> Any:
    """`--tool-arg k=v` values are JSON when they parse as JSON (numbers, booleans, objects), else strings."""
    try:
        return json.loads(value)
    except ValueError:
        return value


def prompt_value(value: str) -> str:
    """A `--prompt-args` value as the official CLI sends it: JSON-coerced like `--tool-arg`, then a string
    again (prompt arguments are strings), so `a="x"` sends `x` and `n=1.50` sends `1.5`."""
    coerced = coerce(value)
    return coerced if isinstance(coerced, str) else json.dumps(coerced, ensure_ascii=False, separators=(",", ":"))


def split_argv(
    argv: list[str], options: dict[str, bool], takes_more: Callable[[str, str], bool] | None = takes_more
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
            if options[name] and name != arg:  # --option=value: two words, so more values may follow
                ours.extend([name, arg.split("=", 1)[1]])
            else:
                ours.append(arg)
            if options[name] and "=" not in arg:
                if i + 1 >= len(argv):
                    raise UsageError(f"{arg} needs a value")
                ours.append(argv[i + 1])
                i += 1
            while options[name] and takes_more is not None and i + 1 < len(argv) and takes_more(name, argv[i + 1]):
                ours.append(argv[i + 1])  # --tool-arg a=1 b=2, or --tool-arg=a=1 b=2
                i += 1
        else:
            target.append(arg)
        i += 1
    return ours, target


def split_cli_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """`split_argv` for ``--cli`` with the official CLI's ``--`` rule: when the first word before ``--``
    (``--cli`` aside) is not an option, the words before it are the server command and ours follow it."""
    if "--" in argv:
        cut = argv.index("--")
        before = [word for word in argv[:cut] if word != "--cli"]
        if before and not before[0].startswith("-"):
            ours, more = split_argv(argv[cut + 1 :], OPTIONS)
            return ours, [*before, *more]
    return split_argv(argv, OPTIONS)


def add_target_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """The options from --server-url to --input, the same for every subcommand that connects."""
    parser.add_argument("--server-url", metavar="URL")
    parser.add_argument("--transport", choices=tuple(TRANSPORT_KINDS))
    parser.add_argument("--config", metavar="FILE", help="mcp.json / claude_desktop_config.json / .vscode/mcp.json")
    parser.add_argument("--server", metavar="NAME", help="server name inside --config")
    parser.add_argument("-e", "--env", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--cwd")
    parser.add_argument(
        "--header",
        nargs="+",
        action="extend",
        default=[],
        metavar='"Name: value"',
        help="HTTP headers; several may follow one --header",
    )
    parser.add_argument(
        "--protocol-era",
        choices=ERAS,
        help="auto (the default: probe server/discover, else initialize), legacy (initialize), modern (2026-07-28)",
    )
    parser.add_argument(
        "--protocol-version",
        choices=KNOWN_VERSIONS,
        metavar="VERSION",
        help=f"pin one protocol version ({', '.join(KNOWN_VERSIONS)}); overrides --protocol-era",
    )
    parser.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="ID=VALUE",
        help="the value of a ${input:ID} placeholder in --config (VS Code inputs); asked for by the app",
    )
    add_oauth_options(parser)


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
        protocol_era=ns.protocol_version or ns.protocol_era,
        **more,
    )
    try:
        args.oauth = oauth_settings(ns)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
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
        usage="mcp-lens --cli [options] (COMMAND [ARG ...] | URL | --server-url URL | --config FILE [--server NAME]"
        " | --demo) --method METHOD [options]\n       mcp-lens --cli [options] --method METHOD -- COMMAND [ARG ...]",
        description="Connect to an MCP server, run one method, print the result. The server is a command that "
        "starts it over stdio (its words may come before or after our options: words we do not know are the "
        "command's; after -- every word is, unless the command came first, then our options follow --, as in the "
        "official Inspector CLI), a URL, --config/--server, or --demo.",
        epilog=CLI_EPILOG,
    )
    p.add_argument("--cli", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--demo", action="store_true", help="target the embedded demo server")
    p.add_argument(
        "--method", choices=METHODS, metavar="METHOD", help="required, as in the official CLI: one of %(choices)s"
    )
    p.add_argument("--tool-name")
    p.add_argument(
        "--tool-arg",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="values are JSON when they parse as JSON (else strings); several may follow one --tool-arg",
    )
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
    p.add_argument("--uri", help="resource URI for resources/read")
    p.add_argument("--prompt-name", metavar="NAME", help="prompt for prompts/get")
    p.add_argument(
        "--prompt-args",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="prompt arguments (strings); several may follow one --prompt-args",
    )
    p.add_argument("--log-level", choices=LOG_LEVELS, help="level for logging/setLevel")
    p.add_argument(
        "--input-responses",
        metavar="FILE",
        help="JSON object answering a 2026-07-28 server's input requests (input_required): each input-request "
        "key, or a method name (elicitation/create, sampling/createMessage, roots/list), maps to its result",
    )
    p.add_argument("--task-id", metavar="ID", help="task for tasks/get and tasks/cancel")
    p.add_argument("--as-task", action="store_true", help="tools/call: run as a task and wait for its result")
    p.add_argument(
        "--skill",
        metavar="NAME",
        help="skills/get: a skill's name (looked up with skills/list) or its SKILL.md URI; its SKILL.md is read "
        "and verified (exit 15 when it does not match the entry)",
    )
    return p


def read_input_responses(path: str) -> dict[str, Any]:
    """The --input-responses file: a JSON object (key or method name → result object)."""
    try:
        loaded = json.loads(read_utf8(path))
    except NotUtf8Error as exc:
        raise UsageError(f"--input-responses: {path}: {exc.reason}") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"--input-responses: cannot read {path}: {exc}") from exc
    if not isinstance(loaded, dict) or not all(isinstance(value, dict) for value in loaded.values()):
        raise UsageError("--input-responses must hold a JSON object mapping keys or method names to result objects")
    return loaded


def parse(argv: list[str]) -> CliArgs:
    """Raises `UsageError`; `--help` prints and raises SystemExit(0) as argparse does."""
    ours, target = split_cli_argv(argv)
    parser = _parser()
    ns = parser.parse_args(ours)
    if ns.method is None:
        raise UsageError(
            "--method is required, as in the official Inspector CLI: pass --method tools/list (or "
            f"{', '.join(m for m in METHODS if m != 'tools/list')})"
        )
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
    args.uri, args.prompt_name, args.log_level = ns.uri, ns.prompt_name, ns.log_level
    args.task_id, args.as_task, args.skill = ns.task_id, ns.as_task, ns.skill
    if ns.input_responses:
        args.input_responses = read_input_responses(ns.input_responses)
    for item in ns.prompt_args:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--prompt-args expects KEY=VALUE, got {item!r}")
        args.prompt_args[key] = prompt_value(value)
    if args.method in REQUIRED:
        attribute, option = REQUIRED[args.method]
        if not getattr(args, attribute):
            raise UsageError(f"--method {args.method} needs {option}")
    require_one_server(
        args,
        none="a command, --server-url URL, --config FILE, or --demo",
        many="a command, --server-url, --config or --demo",
    )
    return args
