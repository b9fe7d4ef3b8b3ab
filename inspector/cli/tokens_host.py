"""``mcp-lens tokens --host NAME``: the list as a host sends it, its findings, and the budget gates on the
host's figure; ``--host list`` prints the host rules with their sources."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from inspector.cli import exit_codes
from inspector.cli.render import fail


def print_host_table(fmt: str) -> int:
    from inspector.budget.hosts_render import render_host_table

    sys.stdout.write(render_host_table(fmt))
    return exit_codes.OK


def run_host(args: Any, tokenizer: Any, *, server: str, tools: list[dict[str, Any]]) -> int:
    """Count the host's view of ``tools``, print it in ``args.format``, then gate. Returns the exit code."""
    from inspector.budget.breakdown import BudgetCounter
    from inspector.budget.hosts import host_diff, host_view
    from inspector.budget.hosts_render import HOST_RENDERERS
    from inspector.budget.snapshot import SnapshotError, load_snapshot
    from inspector.budget.tokenizers import TokenizerError
    from inspector.cli.tokens import _gate

    counter = BudgetCounter(tokenizer)
    diff = None
    described = ""
    try:
        view = host_view(tools, args.host, server, counter=counter, window=args.window, tool_search=args.tool_search)
        if args.baseline:
            baseline = load_snapshot(args.baseline)
            options = {"counter": counter, "window": args.window, "tool_search": args.tool_search}
            diff = host_diff(baseline.tools, tools, args.host, server, **options)
            described = f"{args.baseline} ({baseline.server}{', ' + baseline.taken_at if baseline.taken_at else ''})"
    except SnapshotError as exc:
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    except TokenizerError as exc:
        return fail({"error": "tokenizer", "message": str(exc)}, exit_codes.TOKENIZER)
    render = HOST_RENDERERS[args.format]
    label = tokenizer.label or tokenizer.name
    sys.stdout.write(render(view, window_label=args.window_label, tokenizer_label=label, diff=diff, baseline=described))
    sys.stdout.flush()
    if args.max_tokens is not None and view.total > args.max_tokens:
        return fail(
            {
                "error": "over-budget",
                "message": f"{view.total:,} tokens ({view.host.label} view, {tokenizer.name}) is over "
                f"--max-tokens {args.max_tokens:,}",
                "total": view.total,
                "max_tokens": args.max_tokens,
                "host": view.host.name,
            },
            exit_codes.OVER_BUDGET,
        )
    return _gate(replace(args, max_tokens=None), [], diff)
