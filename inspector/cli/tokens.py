"""``mcp-lens tokens``: what a server's tool list costs in the context window, for scripts and CI.

Connects like ``mcp-lens --cli`` (same target options, same `connect` module), lists the tools, counts
them, prints lints, and optionally saves a snapshot or diffs against a baseline. Never imports Qt; heavy
imports happen while the server starts.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from inspector.budget.tokenizers import TOKENIZERS
from inspector.cli import exit_codes
from inspector.cli.args import UsageError
from inspector.cli.connect import connect, profile_of
from inspector.cli.render import fail
from inspector.cli.tokens_args import TokensArgs, parse
from inspector.cli.tokens_host import print_host_table
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.core.operations import Operations


class _TokenizerLoader:
    """Loads the tokenizer on a thread while the server starts (reading a rank file takes ~0.3 s)."""

    def __init__(self, name: str, **options: Any) -> None:
        import threading

        self.name = name
        self.options = options
        self.value: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, name="load-tokenizer", daemon=True)
        self._thread.start()

    def _load(self) -> None:
        from inspector.budget.tokenizers import get_tokenizer

        try:
            self.value = get_tokenizer(self.name, **self.options)
        except Exception as exc:  # reported by result()
            self.error = exc

    def result(self) -> Any:
        self._thread.join()
        if self.error is not None:
            raise self.error
        return self.value


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse(argv)
        if args.host == "list":  # the rules and their sources: no server needed
            return print_host_table(args.format)
        profile = None if args.tools_file else profile_of(args.conn)
    except (UsageError, ValueError) as exc:
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    options = {"model": args.model} if args.model else {}
    if not TOKENIZERS[args.encoding].offline or args.anthropic_api:  # no API key: say so before starting a server
        from inspector.budget.tokenizers import TokenizerError, get_tokenizer

        try:
            get_tokenizer("anthropic" if args.anthropic_api else args.encoding, **options)
        except TokenizerError as exc:
            return fail({"error": "tokenizer", "message": str(exc)}, exit_codes.TOKENIZER)
    process = None
    if profile is not None and profile.transport == "stdio":
        from inspector.transports.process import SpawnError, StdioCommand, spawn

        try:  # start the server now, so its start-up overlaps our imports (jsonschema is not preloaded:
            # a list whose schemas pass schema_check's fast path never needs it)
            process = spawn(StdioCommand.from_profile(profile))
        except SpawnError as exc:
            return fail({"error": "connection", "message": str(exc)}, exit_codes.CONNECTION)
    loader = _TokenizerLoader(args.encoding, **options)
    try:
        if profile is None:
            server, source, tools, meta = _from_file(args.tools_file or "")
        else:
            server, source, tools, meta = _from_server(args, profile, process)
    except _Failure as failure:
        return fail(failure.error, failure.code)
    try:
        tokenizer = loader.result()
    except (KeyError, Exception) as exc:  # TokenizerError, AnthropicError, unknown name
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        return fail({"error": "tokenizer", "message": message}, exit_codes.TOKENIZER)
    with _collector_paused():
        return run_budget(args, tokenizer, server=server, source=source, tools=tools, meta=meta)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a one-shot run counts: the counter's caches are many young
    objects that survive, so the collector walks them again and again (~0.3 s of 0.8 s for 5,000 tools)
    and frees nothing (counting makes no reference cycles). After the report, what the run built is
    frozen out of the collections still to come: the interpreter's own at exit walked it all again
    (~0.15 s for 5,000 tools)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def run_budget(
    args: TokensArgs, tokenizer: Any, *, server: str, source: str, tools: list[dict[str, Any]], meta: dict[str, Any]
) -> int:
    """Count, print, save and gate. Returns the exit code."""
    from inspector.budget.breakdown import BudgetCounter
    from inspector.budget.lints import LintOptions
    from inspector.budget.render import RENDERERS, RenderInput
    from inspector.budget.snapshot import Snapshot, SnapshotError, diff_tools, load_snapshot, save_snapshot
    from inspector.budget.tokenizers import TokenizerError

    comparison = None
    if args.calibration or args.anthropic_api:
        try:
            tokenizer, comparison = _claude_extras(args, tokenizer, server, tools)
        except TokenizerError as exc:
            return fail({"error": "tokenizer", "message": str(exc)}, exit_codes.TOKENIZER)
    if args.host:
        from inspector.cli.tokens_host import run_host

        return run_host(args, tokenizer, server=server, tools=tools)
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
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    except TokenizerError as exc:
        return fail({"error": "tokenizer", "message": str(exc)}, exit_codes.TOKENIZER)
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
        comparison=comparison,
    )
    sys.stdout.write(RENDERERS[args.format](data))
    sys.stdout.flush()
    if args.lints and args.format == "csv":  # CSV stays a pure table; lints go to stderr
        for lint in reports[0].lints:
            sys.stderr.write(json.dumps({"lint": lint.to_json()}, ensure_ascii=False) + "\n")
    return _gate(args, reports, diff)


def _claude_extras(args: TokensArgs, tokenizer: Any, server: str, tools: list[dict[str, Any]]) -> tuple[Any, Any]:
    """``--calibration``: the saved calibration applied; ``--anthropic-api``: count_tokens beside ctok
    (and ``--save-calibration`` stores API ÷ ctok for this server)."""
    from inspector.budget.calibration import Calibration, calibrated, compare, save_calibration
    from inspector.budget.tokenizers import get_tokenizer

    comparison = None
    if args.anthropic_api:
        api = get_tokenizer("anthropic", model=tokenizer.model)
        comparison = compare(tools, tokenizer, api)
        if args.save_calibration:
            path = save_calibration(Calibration.from_comparison(server, comparison))
            sys.stderr.write(f"calibration saved for {server} ({comparison.family}) in {path}\n")
    if args.calibration or args.save_calibration:
        base, tokenizer = tokenizer, calibrated(tokenizer, server)
        if tokenizer is base:
            sys.stderr.write(f"no calibration saved for {server} ({base.family}): the figures stay reconstructed\n")
    return tokenizer, comparison


def _gate(args: TokensArgs, reports: list[Any], diff: Any) -> int:
    if args.max_tokens is not None:
        over = [r for r in reports if r.grand_total > args.max_tokens]
        if over:
            worst = max(over, key=lambda r: r.grand_total)
            return fail(
                {
                    "error": "over-budget",
                    "message": f"{worst.grand_total:,} tokens ({worst.shape}, {worst.tokenizer}) is over "
                    f"--max-tokens {args.max_tokens:,}",
                    "total": worst.grand_total,
                    "max_tokens": args.max_tokens,
                    "shape": worst.shape,
                },
                exit_codes.OVER_BUDGET,
            )
    if diff is not None and diff.breaking:
        breaking = [f"{c.name}: {b}" for c in (*diff.removed, *diff.changed) for b in c.breaking]
        return fail(
            {"error": "breaking-change", "message": counted(len(breaking), "breaking change"), "breaking": breaking},
            exit_codes.DIFF,
        )
    if diff is not None and args.max_growth is not None and diff.growth() > args.max_growth:
        return fail(
            {
                "error": "growth",
                "message": f"tool list grew {diff.growth() * 100:.1f}% ({diff.old_total:,} → {diff.new_total:,} "
                f"tokens), over --max-growth {args.max_growth * 100:g}%",
                "old_total": diff.old_total,
                "new_total": diff.new_total,
            },
            exit_codes.DIFF,
        )
    return exit_codes.OK


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
        raise _Failure({"error": "usage", "message": str(exc)}, exit_codes.USAGE) from None
    return snapshot.server, snapshot.source, snapshot.tools, snapshot.meta


def _from_server(args: TokensArgs, profile: Any, process: Any) -> tuple[str, str, list[dict[str, Any]], dict[str, Any]]:
    import asyncio

    from inspector.core.errors import LensError

    try:
        tools, init = asyncio.run(_list_tools(args, profile, process))
    except LensError as exc:
        raise _Failure(exc.to_json(), exc.exit_code) from None
    except KeyboardInterrupt:
        raise _Failure({"error": "interrupted", "message": "interrupted by the user"}, exit_codes.INTERRUPTED) from None
    info = init.get("serverInfo") if isinstance(init.get("serverInfo"), dict) else {}
    server = profile.name  # as the app names it (the Budget tab, a host's mcp__<server>__ prefix); serverInfo in meta
    meta = {"serverInfo": info, "protocolVersion": init.get("protocolVersion")}
    return server, _describe_source(profile), tools, meta


async def _list_tools(args: TokensArgs, profile: Any, process: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from inspector.cli.notices import print_stray_output
    from inspector.traffic.store import TrafficStore

    store = TrafficStore()
    try:
        async with connect(args.conn, profile, store, process) as conn:
            listing = await conn.list_tools()
            for finding in listing.findings:
                sys.stderr.write(json.dumps({"finding": finding.to_json()}, ensure_ascii=False) + "\n")
            _say_capabilities(conn)
            return [t for t in listing.tools if isinstance(t, dict)], dict(conn.init)
    finally:
        print_stray_output(store)


def _say_capabilities(conn: Operations) -> None:
    """On stderr: the client capabilities the app declares and this run does not (a server may list the app
    more tools, and its Budget tab counts them)."""
    from inspector.core.client_handlers import undeclared_note

    handlers = getattr(conn, "handlers", None)
    remedy = "The Budget tab counts the list the app is given."
    note = undeclared_note(handlers.capabilities() if handlers is not None else [], remedy)
    if note is not None:
        sys.stderr.write(json.dumps({"notice": note}) + "\n")


def _describe_source(profile: Any) -> str:
    import shlex

    safe = profile.redacted()
    if safe.transport == "stdio":
        return shlex.join([safe.command, *safe.args])
    return str(safe.url)
