"""``mcp-lens run COLLECTION [--server NAME | target options…]``: run a collection headless, for CI.

Each step goes to the saved server profile it names, or every step to the one server given on the
command line (the target options of ``mcp-lens --cli``: a command, --server-url, --config/--server,
--demo). Exit codes: 0 every step passed, 13 an assertion failed, 3 a step's server could not be
reached (and no assertion failed), 2 usage.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from inspector.cli import exit_codes
from inspector.cli.args import CliArgs, UsageError, add_target_options, split_argv, target_args
from inspector.cli.render import fail
from inspector.config.files import write_atomic
from inspector.content.visible import visible
from inspector.traffic.cli_vocabulary import TARGET_OPTIONS

FORMATS = ("text", "json", "junit")
_OPTIONS: dict[str, bool] = {**TARGET_OPTIONS, "--format": True, "--output": True, "-o": True}
EPILOG = exit_codes.describe(
    (exit_codes.OK, "every step passed"),
    (exit_codes.USAGE, "usage, an unreadable collection (a damaged one's intact steps run first), or a ${VAR} not set"),
    (exit_codes.CONNECTION, "a step's server could not be reached (and no assertion failed)"),
    (exit_codes.ASSERTION_FAILED, "an assertion failed"),
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
    from inspector.checks.collection import CollectionError, env_references, load

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
        opener, one_server = _opener(args, collection.servers, values)
        for note in collection.damage:  # a damaged file: its intact steps run, what was lost is said
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
    return exit_codes.USAGE if collection.damage else exit_codes.OK  # steps were lost: not a pass


def _ask(names: list[str]) -> dict[str, str]:
    """The values of `names`, typed at the terminal without echo (getpass), for this run only."""
    import getpass

    sys.stderr.write("The collection needs values nothing here gives (--input NAME=VALUE, the environment):\n")
    try:
        return {name: getpass.getpass(f"  ${{{name}}}: ", stream=sys.stderr) for name in names}
    except EOFError:
        raise UsageError("no value typed for " + ", ".join("${" + name + "}" for name in names)) from None


def reference_answers(args: CliArgs, collection: Any) -> dict[str, str]:
    """The values of the collection's ``${NAME}`` references: `--input NAME=VALUE` first, then the
    environment, then the saved profiles of its servers (the names `secret_references` gives their secrets)."""
    from inspector.checks.secret_references import reference_values
    from inspector.config.references import Unresolved, resolve_profile
    from inspector.config.store import ProfileStore

    store = ProfileStore()
    try:
        store.load()
    except (OSError, ValueError):
        return {**os.environ, **args.inputs}
    names = [args.server] if args.server else [step.server for step in collection.steps]
    profiles = []
    for name in dict.fromkeys(n for n in names if n and n in store):
        with suppress(Unresolved):
            profiles.append(resolve_profile(store.get(name), os.environ, args.inputs))
    return {**reference_values(profiles), **os.environ, **args.inputs}


def _opener(
    args: CliArgs, recorded: Mapping[str, Any] | None = None, values: Mapping[str, str] | None = None
) -> tuple[Any, bool]:
    """(a function from a step's server name and a traffic store to an unopened connection, whether
    every step goes to one server). A name that is no saved profile is reached as the collection
    recorded it (`recorded`, its references filled from `values`), or is the demo."""
    from inspector.cli.connect import connect, profile_of

    if args.target or args.server_url or args.config or args.demo:
        profile = profile_of(args)
        return (lambda _name, store: connect(args, profile, store, None)), True
    if args.server:  # no --config: a saved profile's name
        chosen = _saved_profile(args.server, recorded, values)
        return (lambda _name, store: connect(args, chosen, store, None)), True
    return (lambda name, store: connect(args, _saved_profile(name, recorded, values), store, None)), False


def profile_opener(known: Mapping[str, Any]) -> Any:
    """For the app: each step's server connected as this command connects it (stored OAuth tokens only,
    never a browser), by the profile `known` holds under its name (``${…}`` resolved), else the saved one."""
    from inspector.cli.connect import connect
    from inspector.config.references import Unresolved, resolve_profile

    args = CliArgs(stored_auth_only=True)

    def open_step(name: str, store: Any) -> Any:
        if name not in known:
            return connect(args, _saved_profile(name), store, None)
        try:
            return connect(args, resolve_profile(known[name], os.environ, {}), store, None)
        except Unresolved as exc:
            raise UsageError(str(exc)) from None

    return open_step


def _saved_profile(
    name: str, recorded: Mapping[str, Any] | None = None, values: Mapping[str, str] | None = None
) -> Any:
    """The saved server profile `name`, else the server as the collection recorded it (`recorded`), else
    the demo by its name; its ``${…}`` references resolved (from `values`, else the environment).
    `UsageError` if none of them, or if the recorded entry holds `<redacted>` (never sent)."""
    from inspector.checks.runner import refused_redacted
    from inspector.checks.secret_references import redacted_fields
    from inspector.config.profile import ProfileError, ServerProfile
    from inspector.config.references import Unresolved, resolve_profile
    from inspector.config.store import ProfileStore
    from inspector.demo.launch import demo_profile

    if not name:
        raise UsageError("a step names no server: pass --server NAME or a target")
    store = ProfileStore()
    store.load()
    if name in store:
        profile = store.get(name)
    elif recorded and name in recorded:
        if hidden := redacted_fields(recorded[name]):
            raise UsageError(f"the collection's entry for server {name!r}: {refused_redacted(hidden)}")
        try:
            profile = ServerProfile.from_entry(name, recorded[name], source="the collection's servers")
        except ProfileError as exc:
            raise UsageError(f"the collection's entry for {name!r} is not a server: {exc}") from None
        how = profile.url if profile.transport != "stdio" else shlex.join([profile.command, *profile.args])
        # said, since the file (not a profile the user saved) names what is started
        sys.stderr.write(f"{name}: no saved profile; reached as the collection records it: {visible(how)}\n")
    elif name == demo_profile().name:
        profile = demo_profile()
    else:
        known = ", ".join(store.names()) or "none saved"
        raise UsageError(
            f"no saved server profile named {name!r} ({known}), and the collection records no way to reach it"
        )
    try:
        return resolve_profile(profile, os.environ if values is None else values, {})
    except Unresolved as exc:
        raise UsageError(str(exc)) from None
