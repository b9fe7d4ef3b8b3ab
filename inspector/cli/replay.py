"""``mcp-lens replay RECORD``: a traffic record played back as a stdio MCP server (a mock), or, with
``--against CMD…|URL``, its client side sent to another server and each answer compared with the
recorded one (a regression run). On `inspector/replay/`."""

from __future__ import annotations

import argparse
import os
import sys

from inspector.cli import exit_codes

FORMATS = ("text", "json", "junit")
EPILOG = exit_codes.describe(
    (exit_codes.OK, "ok (the client ended; or, with --against, every answer as recorded)"),
    (exit_codes.USAGE, "usage, or a record that cannot be replayed"),
    (exit_codes.CONNECTION, "--against: the server could not be started or reached"),
    (exit_codes.REPLAY_UNMATCHED, "--strict: a request the record has no answer for"),
    (exit_codes.REPLAY_DIFFERENT, "--against: an answer differs from the record"),
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens replay",
        usage="mcp-lens replay RECORD [--server NAME] [--fast] [--strict]\n"
        "       mcp-lens replay RECORD [--server NAME] [--ignore PATH …] [--format text|json|junit] "
        "--against CMD …|URL",
        description="Without --against: a stdio MCP server answering from RECORD (a record MCP Lens saved: "
        "--record, File › Export session, a tapped session): each request gets the recorded answer to the "
        "same request (ids, progress tokens and the other volatile fields ignored), the recorded "
        "notifications after it follow at their recorded pace (--fast: at once). With --against: the "
        "record's client side is sent to that server (the words after --against: a command, or a URL) "
        "and each answer is compared with the recorded one.",
        epilog=EPILOG,
    )
    p.add_argument("record", metavar="RECORD", help="a traffic record (.jsonl)")
    p.add_argument("--server", metavar="NAME", help="the server to replay, in a record that holds several")
    p.add_argument("--fast", action="store_true", help="send recorded notifications at once, not at their pace")
    p.add_argument("--strict", action="store_true", help="exit at a request the record has no answer for")
    p.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="PATH",
        help="--against: also ignore this field of every answer ($.result.content[0].text; * for any)",
    )
    p.add_argument("--format", choices=FORMATS, default="text", help="--against: the report's format")
    return p


def main(argv: list[str]) -> int:
    ours, target = _split(argv)
    args = _parser().parse_args(ours)
    from inspector.replay.record import ReplayError, open_record

    try:
        replay = open_record(args.record, args.server)
    except (ReplayError, OSError) as exc:
        said = str(exc) if isinstance(exc, ReplayError) else f"cannot read {args.record}: {exc.strerror or exc}"
        print(f"mcp-lens replay: {said}", file=sys.stderr)
        if target is not None and args.format == "junit":  # CI gets a report saying why, not an empty file
            _junit_ended(said)
        return exit_codes.USAGE
    if replay.parts:
        print(
            f"mcp-lens replay: a record rotated by size, read from its {len(replay.parts)} parts: "
            + ", ".join(replay.parts),
            file=sys.stderr,
        )
    for warning in replay.warnings:
        print(f"mcp-lens replay: warning: {warning}", file=sys.stderr)
    try:
        if target is None:
            return _mock(replay, args)
        return _against(replay, args, target)
    finally:
        replay.close()


def _junit_ended(said: str) -> None:
    """A JUnit report of a run that could not start: one error test case saying why."""
    from inspector.replay.against import Run
    from inspector.replay.report import Streamed

    Streamed("junit", sys.stdout).finish(Run(ended=said))


def _split(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """Our words, and the target: every word after ``--against`` (a leading ``--`` dropped)."""
    if "--against" not in argv:
        return argv, None
    at = argv.index("--against")
    target = argv[at + 1 :]
    if target[:1] == ["--"]:
        target = target[1:]
    if not target:
        _parser().error("--against needs a command or a URL after it")
    return argv[:at], target


def _mock(replay, args: argparse.Namespace) -> int:
    from inspector.replay.mock import Unmatched, era_limit, serve

    def warn(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    era = replay.era or "unknown era"
    limit = era_limit(replay)
    warn(
        f"mcp-lens replay: serving {len(replay):,} recorded requests of {replay.path} ({era}) on stdio"
        + (f"; {limit}" if limit else "")
    )
    try:
        serve(replay, sys.stdin.buffer, sys.stdout.buffer, warn, fast=args.fast, strict=args.strict)
    except Unmatched:
        return exit_codes.REPLAY_UNMATCHED
    except (BrokenPipeError, KeyboardInterrupt):
        return exit_codes.OK
    return exit_codes.OK


def _against(replay, args: argparse.Namespace, target: list[str]) -> int:
    from inspector.config.redact import Redactor
    from inspector.replay.against import Run, TargetFailed, run_against
    from inspector.replay.compare import Verdict
    from inspector.replay.report import Streamed
    from inspector.replay.volatile import matches, parse_ignore

    try:
        ignore = tuple(parse_ignore(text) for text in args.ignore)
    except ValueError as exc:
        print(f"mcp-lens replay: {exc}", file=sys.stderr)
        return exit_codes.USAGE
    where: list[str] | str = target[0] if len(target) == 1 and target[0].startswith(("http://", "https://")) else target
    streamed = Streamed(args.format, sys.stdout)
    held: list[Verdict] = []  # until one is answered: a server that never answers gets one line, no report
    # what we say of the target (its start failure, its exit and last stderr lines) never holds a secret of
    # its command line: a secret-named flag's value, a value our environment keeps under a secret name
    hide = Redactor.for_environment(os.environ, target).text

    differed, used = [False], set[int]()  # whether an answer differed; the --ignore rules naming a field of one

    def judged(verdict: Verdict) -> None:
        if verdict.note:
            verdict.note = hide(verdict.note)
        if not verdict.passed and verdict.new is not None:
            differed[0] = True
            used.update(
                n for n, rule in enumerate(ignore) if matches(rule, verdict.recorded) or matches(rule, verdict.new)
            )
        held.append(verdict)
        if verdict.new is not None or verdict.passed:
            for earlier in held:
                streamed.verdict(earlier)
            held.clear()

    run = Run(keep_answers=False, keep_verdicts=False, on_verdict=judged)
    try:
        run_against(replay, where, ignore, run=run)
    except TargetFailed as exc:
        print(f"mcp-lens replay: {hide(str(exc))}", file=sys.stderr)
        if args.format == "junit":  # a CI reporter gets a report saying why, not an empty file
            run.ended = hide(str(exc))
            streamed.finish(run)
        return exit_codes.CONNECTION
    if run.ended:
        run.ended = hide(run.ended)
    for n, text in enumerate(args.ignore):  # a rule with a typo in its path is said, not silently ignored
        if differed[0] and n not in used:
            print(
                f"mcp-lens replay: warning: --ignore {text!r} named no field of an answer that differed",
                file=sys.stderr,
            )
    if run.ended and held and streamed.first:
        print(f"mcp-lens replay: {run.ended}", file=sys.stderr)  # nothing was answered: no text or JSON report
        if args.format != "junit":
            return exit_codes.CONNECTION
        for earlier in held:
            streamed.verdict(earlier)
        streamed.finish(run)
        return exit_codes.CONNECTION
    for earlier in held:
        streamed.verdict(earlier)
    streamed.finish(run)
    if run.ended:
        print(f"mcp-lens replay: stopped: {run.ended}", file=sys.stderr)
    return exit_codes.OK if run.passed else exit_codes.REPLAY_DIFFERENT
