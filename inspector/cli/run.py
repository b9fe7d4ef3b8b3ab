"""``mcp-lens run COLLECTION [--server NAME | target options…]``: run a collection headless, for CI.

Each step goes to the saved server profile it names, or every step to the one server given on the
command line (the target options of ``mcp-lens --cli``: a command, --server-url, --config/--server,
--demo). Exit codes: 0 every step passed, 13 an assertion failed, 3 a step's server could not be
reached (and no assertion failed), 18 the collection file is damaged (its intact steps ran and passed),
2 usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from inspector.cli import exit_codes
from inspector.cli.args import UsageError, add_target_options, split_argv, target_args
from inspector.cli.render import fail
from inspector.cli.run_servers import opener_of, reference_answers
from inspector.config.files import write_atomic
from inspector.content.visible import visible
from inspector.traffic.cli_vocabulary import TARGET_OPTIONS

FORMATS = ("text", "json", "junit")
_OPTIONS: dict[str, bool] = {**TARGET_OPTIONS, "--format": True, "--output": True, "-o": True}
EPILOG = exit_codes.describe(
    (exit_codes.OK, "every step passed"),
    (exit_codes.USAGE, "usage, an unreadable collection, or a ${VAR} not set"),
    (exit_codes.CONNECTION, "a step's server could not be reached (and no assertion failed)"),
    (exit_codes.ASSERTION_FAILED, "an assertion failed"),
    (exit_codes.DAMAGED_FILE, "the collection file is damaged: its intact steps ran and passed, the rest was lost"),
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-lens run",
        usage="mcp-lens run COLLECTION [--server NAME | target options] [--format text|json|junit] [--output FILE]",
        description="Run a saved collection's steps and check their assertions. Without a target, each step "
        "goes to the saved server profile it names; --server NAME sends every step to that profile.",
        epilog=EPILOG,
    )
    p.add_argument("--demo", action="store_true", help="every step to the embedded demo server")
    add_target_options(p)
    p.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS")
    p.add_argument("--request-timeout", type=float, default=60.0, metavar="SECONDS")
    p.add_argument("--stored-auth-only", action="store_true", help="OAuth: stored tokens only, never a browser")
    p.add_argument("--format", default="text", choices=FORMATS)
    p.add_argument("-o", "--output", metavar="FILE", help="write the report there (the summary still goes to stderr)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        _parser().print_help()
        return exit_codes.OK if argv else exit_codes.USAGE
    from inspector.checks.collection import CollectionError, encoding_note, env_references, load

    try:
        collection = load(argv[0])
        ours, target = split_argv(argv[1:], _OPTIONS)
        ns = _parser().parse_args(ours)
        args = target_args(ns, target)
        values = reference_answers(args, collection)
        missing = [name for name in env_references(collection) if name not in values]
        if missing and sys.stdin.isatty() and sys.stderr.isatty():  # a person at a terminal: asked, not echoed
            values.update(_ask(missing))
            missing = []
        if missing:
            named = ", ".join("${" + name + "}" for name in missing)
            raise UsageError(
                f"the collection needs {named}: give it with --input NAME=VALUE or set it in the environment"
            )
        opener, one_server = opener_of(args, collection.servers, values)
        notes = [encoding_note(collection)] if collection.encoding else []  # read as UTF-16, said once
        for note in notes + collection.damage:  # a damaged file: its intact steps run, what was lost is said
            sys.stderr.write(f"mcp-lens run: {argv[0]}: {visible(note)}\n")
    except (UsageError, CollectionError, ValueError) as exc:
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    from inspector.checks.report import RENDERERS, summary
    from inspector.checks.runner import FAILED, UNREACHABLE, Runner

    try:
        run = asyncio.run(Runner(opener, env=values, one_server=one_server).run(collection))
    except KeyboardInterrupt:
        return exit_codes.INTERRUPTED
    text = RENDERERS[ns.format](run)
    if ns.output:
        try:
            write_atomic(ns.output, text)
        except OSError as exc:
            return fail({"error": "usage", "message": f"cannot write {ns.output}: {exc}"}, exit_codes.USAGE)
        sys.stderr.write(summary(run) + "\n")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if run.count(FAILED):
        return exit_codes.ASSERTION_FAILED
    if run.count(UNREACHABLE):
        return exit_codes.CONNECTION
    return exit_codes.DAMAGED_FILE if collection.damage else exit_codes.OK  # steps were lost: not a pass


def _ask(names: list[str]) -> dict[str, str]:
    """The values of `names`, typed at the terminal without echo (getpass), for this run only."""
    import getpass

    sys.stderr.write("The collection needs values nothing here gives (--input NAME=VALUE, the environment):\n")
    try:
        return {name: getpass.getpass(f"  ${{{name}}}: ", stream=sys.stderr) for name in names}
    except EOFError:
        raise UsageError("no value typed for " + ", ".join("${" + name + "}" for name in names)) from None
