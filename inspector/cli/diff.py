"""``mcp-lens diff A B``: two traffic records lined up by request (`inspector/replay/diff.py`)."""

from __future__ import annotations

import argparse
import sys

from inspector.cli import exit_codes

EPILOG = exit_codes.describe(
    (exit_codes.OK, "the same (answers equal once volatile fields are ignored)"),
    (exit_codes.USAGE, "usage, or a record that cannot be read"),
    (exit_codes.REPLAY_DIFFERENT, "they differ"),
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens diff",
        description="Line two traffic records up by request: what was asked, what each answered, where the "
        "answers differ (JSON paths), the latency of each, and the differences of their tool lists and "
        "capabilities.",
        epilog=EPILOG,
    )
    p.add_argument("a", metavar="A", help="a traffic record (.jsonl)")
    p.add_argument("b", metavar="B", help="another traffic record")
    p.add_argument("--server-a", metavar="NAME", help="the server of A, when A holds several")
    p.add_argument("--server-b", metavar="NAME", help="the server of B, when B holds several")
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    from inspector.replay.diff import RENDERERS, diff_records
    from inspector.replay.record import ReplayError, open_record

    opened = []
    try:
        for path, server, option in ((args.a, args.server_a, "--server-a"), (args.b, args.server_b, "--server-b")):
            replay = open_record(path, server, option)
            opened.append(replay)
            for warning in replay.warnings:
                print(f"mcp-lens diff: warning: {path}: {warning}", file=sys.stderr)
        diff = diff_records(*opened)
    except ReplayError as exc:
        print(f"mcp-lens diff: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    except OSError as exc:
        print(f"mcp-lens diff: cannot read {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        return exit_codes.USAGE
    finally:
        for replay in opened:
            replay.close()
    sys.stdout.write(RENDERERS[args.format](diff))
    return exit_codes.OK if diff.same else exit_codes.REPLAY_DIFFERENT
