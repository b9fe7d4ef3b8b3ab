"""``mcp-lens tokens``: what a server's tool list costs in the context window, for scripts and CI.

Connects like ``mcp-lens --cli`` (same target options, same connection code in cli.py), lists the
tools, counts them, prints lints, and optionally saves a snapshot or diffs against a baseline.
Never imports Qt; heavy imports happen while the server starts.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any

from inspector.cliargs import (
    TARGET_OPTIONS,
    CliArgs,
    UsageError,
    add_target_options,
    require_one_server,
    split_argv,
    target_args,
)

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_OVER_BUDGET = 8
EXIT_DIFF = 9  # a breaking change, or growth over --max-growth
EXIT_TOKENIZER = 10

ENCODINGS = ("o200k_base", "cl100k_base", "chars4", "anthropic")
SHAPE_CHOICES = ("mcp", "openai", "anthropic", "all")
FORMATS = ("text", "json", "csv", "markdown")

EPILOG = (
    "Exit codes: 0 ok, 2 usage or unreadable file, 3 connection, 4 JSON-RPC error, 7 timeout, "
    "8 over --max-tokens, 9 breaking change or growth over --max-growth against --baseline, "
    "10 tokenizer unavailable (e.g. anthropic without ANTHROPIC_API_KEY), 11 sign-in needed (--stored-auth-only). "
    "Use -- before a server command whose flags collide with ours."
)

# option → takes a value (our options may come before or after the server command)
_OPTIONS: dict[str, bool] = {
    **TARGET_OPTIONS,
    "--tools-file": True,
    "--encoding": True,
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
}


@dataclass
class TokensArgs:
    conn: CliArgs
    tools_file: str | None = None
    encoding: str = "o200k_base"
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


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens tokens",
        description="Count what an MCP server's tool list costs in a model's context window.",
        epilog=EPILOG,
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
    count.add_argument("--encoding", default="o200k_base", choices=ENCODINGS, help="default o200k_base")
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
    return p


def parse(argv: list[str]) -> TokensArgs:
    """Raises `UsageError`; ``--help`` prints and raises SystemExit(0)."""
    from inspector.budget.breakdown import parse_window

    ours, target = split_argv(argv, _OPTIONS)
    ns = _parser().parse_args(ours)
    conn = target_args(ns, target)
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
    if ns.max_growth is not None:
        if not ns.baseline:
            raise UsageError("--max-growth needs --baseline FILE")
        args.max_growth = _percent(ns.max_growth)
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


def _fail(error: dict[str, Any], code: int) -> int:
    sys.stderr.write(json.dumps(error, ensure_ascii=False, default=str) + "\n")
    return code


class _TokenizerLoader:
    """Loads the tokenizer on a thread while the server starts (reading a rank file takes ~0.3 s)."""

    def __init__(self, name: str) -> None:
        import threading

        self.name = name
        self.value: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, name="load-tokenizer", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        from inspector.budget.tokenizers import get_tokenizer

        try:
            self.value = get_tokenizer(self.name)
        except Exception as exc:  # reported by result()
            self.error = exc

    def result(self) -> Any:
        self._thread.join()
        if self.error is not None:
            raise self.error
        return self.value


def main(argv: list[str] | None = None) -> int:
    from inspector.cli import _profile, spawn_early

    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse(argv)
        profile = None if args.tools_file else _profile(args.conn)
    except (UsageError, ValueError) as exc:
        return _fail({"error": "usage", "message": str(exc)}, EXIT_USAGE)
    if args.encoding == "anthropic":  # no key: say so before starting any server
        from inspector.budget.tokenizers import TokenizerError, get_tokenizer

        try:
            get_tokenizer("anthropic")
        except TokenizerError as exc:
            return _fail({"error": "tokenizer", "message": str(exc)}, EXIT_TOKENIZER)
    process = None
    if profile is not None and profile.transport == "stdio":
        from inspector.transports.process import SpawnError

        try:  # start the server now, so its start-up overlaps our imports
            process = spawn_early(profile)
        except SpawnError as exc:
            return _fail({"error": "connection", "message": str(exc)}, 3)
    loader = _TokenizerLoader(args.encoding)
    try:
        if profile is None:
            server, source, tools, meta = _from_file(args.tools_file or "")
        else:
            server, source, tools, meta = _from_server(args, profile, process)
    except _Failure as failure:
        return _fail(failure.error, failure.code)
    try:
        tokenizer = loader.result()
    except (KeyError, Exception) as exc:  # TokenizerError, AnthropicError, unknown name
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        return _fail({"error": "tokenizer", "message": message}, EXIT_TOKENIZER)
    return run_budget(args, tokenizer, server=server, source=source, tools=tools, meta=meta)


def run_budget(
    args: TokensArgs, tokenizer: Any, *, server: str, source: str, tools: list[dict[str, Any]], meta: dict[str, Any]
) -> int:
    """Count, print, save and gate. Returns the exit code."""
    from inspector.budget.breakdown import BudgetCounter
    from inspector.budget.lints import LintOptions
    from inspector.budget.render import RENDERERS, RenderInput
    from inspector.budget.snapshot import Snapshot, SnapshotError, diff_tools, load_snapshot, save_snapshot
    from inspector.budget.tokenizers import TokenizerError

    counter = BudgetCounter(tokenizer)
    options = LintOptions(max_description_tokens=args.max_description_tokens, max_tools=args.max_tools)
    try:
        reports = [counter.report(tools, shape, lint_options=options) for shape in args.shapes]
        baseline = diff = None
        if args.baseline:
            baseline = load_snapshot(args.baseline)
            diff = diff_tools(baseline.tools, tools, counter, args.shapes[0])
        if args.save:
            save_snapshot(args.save, Snapshot.now(server, tools, source, **meta))
    except SnapshotError as exc:
        return _fail({"error": "usage", "message": str(exc)}, EXIT_USAGE)
    except TokenizerError as exc:
        return _fail({"error": "tokenizer", "message": str(exc)}, EXIT_TOKENIZER)
    described = ""
    if baseline is not None:
        described = f"{args.baseline} ({baseline.server}{', ' + baseline.taken_at if baseline.taken_at else ''})"
    data = RenderInput(
        server=server,
        source=source,
        reports=reports,
        window=args.window,
        window_label=args.window_label,
        lints=args.lints and args.format != "csv",
        diff=diff,
        baseline=described,
    )
    sys.stdout.write(RENDERERS[args.format](data))
    sys.stdout.flush()
    if args.lints and args.format == "csv":  # CSV stays a pure table; lints go to stderr
        for lint in reports[0].lints:
            sys.stderr.write(json.dumps({"lint": lint.to_json()}, ensure_ascii=False) + "\n")
    return _gate(args, reports, diff)


def _gate(args: TokensArgs, reports: list[Any], diff: Any) -> int:
    if args.max_tokens is not None:
        over = [r for r in reports if r.grand_total > args.max_tokens]
        if over:
            worst = max(over, key=lambda r: r.grand_total)
            return _fail(
                {
                    "error": "over-budget",
                    "message": f"{worst.grand_total:,} tokens ({worst.shape}, {worst.tokenizer}) is over "
                    f"--max-tokens {args.max_tokens:,}",
                    "total": worst.grand_total,
                    "max_tokens": args.max_tokens,
                    "shape": worst.shape,
                },
                EXIT_OVER_BUDGET,
            )
    if diff is not None and diff.breaking:
        breaking = [f"{c.name}: {b}" for c in (*diff.removed, *diff.changed) for b in c.breaking]
        return _fail(
            {"error": "breaking-change", "message": f"{len(breaking)} breaking change(s)", "breaking": breaking},
            EXIT_DIFF,
        )
    if diff is not None and args.max_growth is not None and diff.growth() > args.max_growth:
        return _fail(
            {
                "error": "growth",
                "message": f"tool list grew {diff.growth() * 100:.1f}% ({diff.old_total:,} → {diff.new_total:,} "
                f"tokens), over --max-growth {args.max_growth * 100:g}%",
                "old_total": diff.old_total,
                "new_total": diff.new_total,
            },
            EXIT_DIFF,
        )
    return EXIT_OK


class _Failure(Exception):
    def __init__(self, error: dict[str, Any], code: int) -> None:
        super().__init__(error.get("message"))
        self.error = error
        self.code = code


def _from_file(path: str) -> tuple[str, str, list[dict[str, Any]], dict[str, Any]]:
    from inspector.budget.snapshot import SnapshotError, load_snapshot

    try:
        snapshot = load_snapshot(path)
    except SnapshotError as exc:
        raise _Failure({"error": "usage", "message": str(exc)}, EXIT_USAGE) from None
    return snapshot.server, snapshot.source, snapshot.tools, snapshot.meta


def _from_server(args: TokensArgs, profile: Any, process: Any) -> tuple[str, str, list[dict[str, Any]], dict[str, Any]]:
    import asyncio

    from inspector.core.errors import LensError

    try:
        tools, init = asyncio.run(_list_tools(args, profile, process))
    except LensError as exc:
        raise _Failure(exc.to_json(), exc.exit_code) from None
    except KeyboardInterrupt:
        raise _Failure({"error": "interrupted", "message": "interrupted by the user"}, 130) from None
    info = init.get("serverInfo") if isinstance(init.get("serverInfo"), dict) else {}
    server = str(info.get("name") or profile.name)
    meta = {"serverInfo": info, "protocolVersion": init.get("protocolVersion")}
    return server, _describe_source(profile), tools, meta


async def _list_tools(args: TokensArgs, profile: Any, process: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from inspector.cli import _connect
    from inspector.traffic.store import TrafficStore

    async with _connect(args.conn, profile, TrafficStore(), process) as conn:
        listing = await conn.list_tools()
        for finding in listing.findings:
            sys.stderr.write(json.dumps({"finding": finding.to_json()}, ensure_ascii=False) + "\n")
        return [t for t in listing.tools if isinstance(t, dict)], dict(conn.init)


def _describe_source(profile: Any) -> str:
    import shlex

    safe = profile.redacted()
    if safe.transport == "stdio":
        return shlex.join([safe.command, *safe.args])
    return str(safe.url)
