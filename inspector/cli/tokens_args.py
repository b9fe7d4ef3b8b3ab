"""``mcp-lens tokens`` command line: the same target options as ``mcp-lens --cli``, then counting,
budget/diff gates for CI, and lints."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from inspector.budget.host_rules import find_host, host_names
from inspector.budget.tokenizers import all_tokenizers
from inspector.cli.args import CliArgs, UsageError, add_target_options, require_one_server, split_argv, target_args
from inspector.cli.exit_codes import TOKENS_EPILOG
from inspector.traffic.cli_vocabulary import TARGET_OPTIONS

SHAPE_CHOICES = ("mcp", "openai", "anthropic", "all")
FORMATS = ("text", "json", "csv", "markdown")

# option → takes a value (our options may come before or after the server command)
_OPTIONS: dict[str, bool] = {
    **TARGET_OPTIONS,
    "--tools-file": True,
    "--encoding": True,
    "--model": True,
    "--anthropic-api": False,
    "--save-calibration": False,
    "--calibration": False,
    "--shape": True,
    "--format": True,
    "--window": True,
    "--max-tokens": True,
    "--save": True,
    "--baseline": True,
    "--max-growth": True,
    "--max-description-tokens": True,
    "--max-tools": True,
    "--no-lints": False,
    "--host": True,
    "--tool-search": True,
}


@dataclass
class TokensArgs:
    conn: CliArgs
    tools_file: str | None = None
    encoding: str = "o200k_base"
    model: str | None = None  # --encoding claude: the Claude model (its ctok family); newest by default
    anthropic_api: bool = False  # also ask count_tokens and show it beside ctok's figure
    save_calibration: bool = False
    calibration: bool = False
    shapes: tuple[str, ...] = ("mcp",)
    format: str = "text"
    window: int = 128_000
    window_label: str = "128K"
    max_tokens: int | None = None
    save: str | None = None
    baseline: str | None = None
    max_growth: float | None = None  # a fraction: 0.1 for 10%
    max_description_tokens: int = 300
    max_tools: int = 40
    lints: bool = True
    host: str | None = None  # --host: the list as that host sends it (inspector/budget/host_rules.py)
    tool_search: str | None = None  # --tool-search: Claude Code's mode; None for the host's default


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens tokens",
        description="Count what an MCP server's tool list costs in a model's context window.",
        epilog=TOKENS_EPILOG,
    )
    source = p.add_argument_group("server (one of: a command, --server-url, --config/--server, --demo, --tools-file)")
    source.add_argument("--demo", action="store_true", help="the embedded demo server")
    add_target_options(source)
    source.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS")
    source.add_argument("--request-timeout", type=float, default=60.0, metavar="SECONDS")
    source.add_argument("--tools-file", metavar="FILE", help="a saved snapshot or tools/list JSON; no server")
    source.add_argument(
        "--stored-auth-only", action="store_true", help="OAuth servers: stored tokens only, never a browser (exit 11)"
    )
    count = p.add_argument_group("counting")
    count.add_argument(
        "--encoding",
        default="o200k_base",
        choices=all_tokenizers(),
        help="default o200k_base; with --host claude-code or claude-desktop, claude (Claude's counter)",
    )
    claude = p.add_argument_group("Claude (--encoding claude: reconstructed offline with ctok)")
    claude.add_argument("--model", metavar="NAME", help="Claude model id → ctok family (default: the newest)")
    claude.add_argument(
        "--anthropic-api",
        action="store_true",
        help="also ask Anthropic's count_tokens (ANTHROPIC_API_KEY; sends the tool list) and show the difference",
    )
    claude.add_argument(
        "--save-calibration", action="store_true", help="with --anthropic-api: save API ÷ ctok for this server"
    )
    claude.add_argument("--calibration", action="store_true", help="apply the calibration saved for this server")
    count.add_argument("--shape", default="mcp", choices=SHAPE_CHOICES, help="how the host sends the list")
    count.add_argument("--format", default="text", choices=FORMATS)
    count.add_argument("--window", default="128K", metavar="128K|200K|1M|N", help="context window for the share")
    gate = p.add_argument_group("budget and diff (for CI)")
    gate.add_argument("--max-tokens", type=int, metavar="N", help="exit 8 when a total (with overhead) is over N")
    gate.add_argument("--save", metavar="FILE", help="save a snapshot of the tool list")
    gate.add_argument(
        "--baseline", metavar="FILE", help="diff against a snapshot or tools/list JSON (in the first --shape)"
    )
    gate.add_argument("--max-growth", metavar="P%", help="with --baseline: exit 9 when the total grew by more")
    lint = p.add_argument_group("lints")
    lint.add_argument("--max-description-tokens", type=int, default=300, metavar="N")
    lint.add_argument("--max-tools", type=int, default=40, metavar="N")
    lint.add_argument("--no-lints", action="store_true", help="do not print lints")
    hosts = p.add_argument_group("hosts (the list as a host sends it: renamed, truncated, capped, deferred)")
    hosts.add_argument(
        "--host", metavar="NAME", help=f"one of {', '.join(host_names())}; 'list' prints the rules and their sources"
    )
    hosts.add_argument("--tool-search", choices=("on", "auto", "off"), help="Claude Code's tool search (default on)")
    return p


def parse(argv: list[str]) -> TokensArgs:
    """Raises `UsageError`; ``--help`` prints and raises SystemExit(0)."""
    from inspector.budget.breakdown import parse_window

    ours, target = split_argv(argv, _OPTIONS)
    ns = _parser().parse_args(ours)
    conn = target_args(ns, target)
    if ns.host != "list":  # --host list prints the host rules: no server needed
        require_one_server(
            conn,
            ns.tools_file,
            none="a command, --server-url URL, --config FILE, --demo or --tools-file",
            many="a command, --server-url, --config, --demo or --tools-file",
        )
    try:
        window = parse_window(ns.window)
    except ValueError as exc:
        raise UsageError(f"--window: {exc}") from None
    args = TokensArgs(
        conn=conn,
        tools_file=ns.tools_file,
        encoding=ns.encoding,
        model=ns.model,
        anthropic_api=ns.anthropic_api,
        save_calibration=ns.save_calibration,
        calibration=ns.calibration,
        shapes=("mcp", "openai", "anthropic") if ns.shape == "all" else (ns.shape,),
        format=ns.format,
        window=window,
        window_label=ns.window,
        max_tokens=ns.max_tokens,
        save=ns.save,
        baseline=ns.baseline,
        max_description_tokens=ns.max_description_tokens,
        max_tools=ns.max_tools,
        lints=not ns.no_lints,
    )
    if ns.host == "list":
        args.host = "list"
    elif ns.host:
        try:
            args.host = find_host(ns.host).name
        except KeyError as exc:
            raise UsageError(f"--host: {exc.args[0]}") from None
        from inspector.budget.hosts import host_encoding

        if not any(word == "--encoding" or word.startswith("--encoding=") for word in ours):
            # no --encoding: a Claude host counts with Claude's counter, as the Budget tab does
            args.encoding = host_encoding(args.host, None) or args.encoding
    args.tool_search = ns.tool_search
    if ns.max_growth is not None:
        if not ns.baseline:
            raise UsageError("--max-growth needs --baseline FILE")
        args.max_growth = _percent(ns.max_growth)
    if (args.anthropic_api or args.calibration) and args.encoding != "claude":
        raise UsageError("--anthropic-api and --calibration go with --encoding claude")
    if args.model and args.encoding not in ("claude", "anthropic"):
        raise UsageError("--model goes with --encoding claude or --encoding anthropic")
    if args.save_calibration and not args.anthropic_api:
        raise UsageError("--save-calibration needs --anthropic-api (the calibration is API ÷ ctok)")
    if args.max_tokens is not None and args.max_tokens < 0:
        raise UsageError("--max-tokens must be 0 or more")
    return args


def _percent(text: str) -> float:
    raw = text.strip().rstrip("%").strip()
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(f"--max-growth expects a percentage such as 10% or 2.5, got {text!r}") from None
    if value < 0:
        raise UsageError("--max-growth must be 0% or more")
    return value / 100
