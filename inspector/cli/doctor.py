"""``mcp-lens doctor TARGET``: the server doctor (`inspector/doctor/`), headless, for a server's author and CI.

Takes the same target options as ``mcp-lens --cli`` and ``mcp-lens tokens`` (`cli/args.py`,
`cli/connect.py`): stdio servers run on the lean client, URLs on the SDK's connection.
"""

from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import replace
from typing import Any

from inspector.cli import exit_codes
from inspector.cli.args import CliArgs, UsageError, add_target_options, require_one_server, split_argv, target_args
from inspector.cli.render import fail
from inspector.config.files import write_atomic
from inspector.doctor.report import SCORE_RULE, DoctorOptions, DoctorReport
from inspector.traffic.cli_vocabulary import TARGET_OPTIONS

FORMATS = ("text", "json", "junit", "markdown")  # markdown: --list-checks only
_OPTIONS: dict[str, bool] = {
    **TARGET_OPTIONS,
    "--format": True,
    "--fail-on": True,
    "--timeout": True,
    "--call": True,
    "--max-pages": True,
    "--host-server-name": True,
    "--no-budget": False,
    "--host": True,
    "--output": True,
    "--record": True,
    "--list-checks": False,
}

EPILOG = exit_codes.describe(
    (exit_codes.OK, "ok (no finding at or above --fail-on)"),
    (exit_codes.USAGE, "usage"),
    (exit_codes.CONNECTION, "could not connect (the report says why)"),
    (exit_codes.DOCTOR_FINDINGS, "a finding at or above --fail-on, or a host chosen with --host refuses a tool"),
)


def _parser() -> argparse.ArgumentParser:
    from inspector.budget.host_rules import host_names

    p = argparse.ArgumentParser(
        prog="mcp-lens doctor",
        description="Check an MCP server against the spec and hosts' limits: what its users' clients will meet. "
        f"Score: {SCORE_RULE}. A server that cannot be reached is one error finding (score 0). Every check "
        "says whether it ran, and if not why (not applicable, or skipped); the score says how many ran.",
        epilog=EPILOG,
    )
    source = p.add_argument_group("server (one of: a command, --server-url, --config/--server, --demo)")
    source.add_argument("--demo", action="store_true", help="the embedded demo server")
    add_target_options(source)
    source.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS")
    source.add_argument("--request-timeout", type=float, default=60.0, metavar="SECONDS", help=argparse.SUPPRESS)
    source.add_argument(
        "--stored-auth-only", action="store_true", help="OAuth servers: stored tokens only, never a browser"
    )
    run = p.add_argument_group("checks")
    run.add_argument(
        "--timeout", type=float, default=5.0, metavar="SECONDS", help="for each probe: past it, a hang (default 5)"
    )
    run.add_argument(
        "--call",
        action="append",
        default=[],
        metavar="TOOL",
        help="also call this tool: with invalid arguments, then with the form's default arguments (by default "
        "only readOnlyHint tools get the first, and those of them with an outputSchema the second)",
    )
    run.add_argument("--max-pages", type=int, default=50, metavar="N", help="a list longer than N pages never ends")
    run.add_argument("--host-server-name", metavar="NAME", help="the server's name in the host (default serverInfo)")
    run.add_argument("--no-budget", action="store_true", help="skip the token budget lints (no tokenizer load)")
    run.add_argument(
        "--host",
        action="append",
        default=[],
        metavar="NAME",
        help="also say what this host does with each tool: accepted, changed (how) or refused (why), each with its "
        f"rule's source; several allowed; exit {exit_codes.DOCTOR_FINDINGS} when one refuses a tool. Hosts: "
        + ", ".join(host_names()),
    )
    p.add_argument(
        "--list-checks",
        action="store_true",
        help="print the checks the doctor runs, in order, with the spec section each enforces (no server); "
        "--format text, json or markdown",
    )
    out = p.add_argument_group("output")
    out.add_argument("--format", default="text", choices=FORMATS)
    out.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    out.add_argument(
        "--record",
        metavar="FILE",
        help="also save the doctor's own traffic (its connections and its probes, marked 'doctor probe') as a "
        "user-only record that mcp-lens opens read-only (File › Open session…)",
    )
    out.add_argument(
        "--fail-on", choices=("error", "warning"), help=f"exit {exit_codes.DOCTOR_FINDINGS} on such a finding"
    )
    return p


def parse(argv: list[str]) -> tuple[argparse.Namespace, CliArgs]:
    """Raises `UsageError`; ``--help`` prints and raises SystemExit(0)."""
    ours, target = split_argv(argv, _OPTIONS)
    ns = _parser().parse_args(ours)
    if ns.list_checks:
        if ns.format == "junit":
            raise UsageError("--list-checks prints text, json or markdown")
        return ns, CliArgs()
    if ns.format == "markdown":
        raise UsageError("--format markdown is for --list-checks; a report is text, json or junit")
    conn = target_args(ns, target)
    require_one_server(
        conn,
        none="a command, --server-url URL, --config FILE or --demo",
        many="a command, --server-url, --config or --demo",
    )
    if ns.timeout <= 0 or ns.max_pages < 1:
        raise UsageError("--timeout and --max-pages must be positive")
    if ns.host:
        from inspector.budget.host_rules import find_host

        try:
            ns.host = list(dict.fromkeys(find_host(name).name for name in ns.host))
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
    return ns, conn


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from inspector.cli.connect import profile_of, spawn_early

    try:
        ns, conn = parse(argv)
        if ns.list_checks:
            return _list_checks(ns.format, ns.output)
        profile = profile_of(conn)
    except (UsageError, ValueError) as exc:
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    tokenizer: dict[str, Any] = {}
    loader = None if ns.no_budget else threading.Thread(target=_load_tokenizer, args=(tokenizer,), daemon=True)
    if loader is not None:
        loader.start()
    first: list[Any] = []
    if profile.transport == "stdio":
        from inspector.transports.process import SpawnError

        try:
            first.append(spawn_early(profile))
        except SpawnError:
            first.append(None)  # the connection tries again and the report names the failure
    if loader is not None:
        loader.join()
    options = DoctorOptions(
        timeout=ns.timeout,
        call=tuple(ns.call),
        max_pages=ns.max_pages,
        host_server_name=ns.host_server_name,
        hosts=tuple(ns.host),
    )
    if ns.no_budget:
        options.no_tokenizer = "--no-budget: no tokenizer loaded"
    from inspector.doctor.own_traffic import DoctorTraffic

    traffic = DoctorTraffic(profile.name)
    try:
        report = _run(conn, profile, first, options, tokenizer.get("value"), traffic)
    except KeyboardInterrupt:
        return fail({"error": "interrupted", "message": "interrupted by the user"}, exit_codes.INTERRUPTED)
    if ns.record:
        try:
            traffic.save(ns.record)
        except OSError as exc:
            sys.stderr.write(f"mcp-lens doctor: could not write the record {ns.record}: {exc.strerror or exc}\n")
    from inspector.doctor.render import RENDERERS

    rendered = RENDERERS[ns.format](report)
    if ns.output:
        write_atomic(ns.output, rendered)
    else:
        sys.stdout.write(rendered)
        sys.stdout.flush()
    if report.era is None:  # never connected: the report says why
        return exit_codes.CONNECTION
    refused = any(judged.refused() for judged in report.hosts)  # --host: CI fails on a refused tool
    return exit_codes.DOCTOR_FINDINGS if refused or report.fails(ns.fail_on) else exit_codes.OK


def _list_checks(fmt: str, output: str | None) -> int:
    from inspector.doctor.render import CHECK_LISTS

    listed = CHECK_LISTS[fmt]()
    if output:
        write_atomic(output, listed)
    else:
        sys.stdout.write(listed)
        sys.stdout.flush()
    return exit_codes.OK


def _load_tokenizer(out: dict[str, Any]) -> None:
    from inspector.budget.tokenizers import get_tokenizer

    try:
        out["value"] = get_tokenizer("o200k_base")
    except Exception:  # no budget lints then; the report says which checks ran
        out["value"] = None


def _run(
    conn: CliArgs, profile: Any, first: list[Any], options: DoctorOptions, tokenizer: Any, traffic: Any
) -> DoctorReport:
    import asyncio

    from inspector.cli.connect import connect
    from inspector.cli.notices import print_stray_output
    from inspector.doctor.engine import run_doctor
    from inspector.traffic.store import TrafficStore

    args = replace(conn, request_timeout=options.timeout)
    stores: list[TrafficStore] = []

    def open_connection(era: str) -> Any:
        process = first.pop() if first else None  # the early-started server serves the first connection
        chosen = replace(profile, protocol_era=era if era != "auto" else profile.protocol_era)
        stores.append(traffic.store(era))
        return connect(args, chosen, stores[-1], process)

    target = _describe(profile)
    try:
        return asyncio.run(
            run_doctor(open_connection, target=target, era=profile.protocol_era, options=options, tokenizer=tokenizer)
        )
    finally:
        print_stray_output(*stores)


def _describe(profile: Any) -> str:
    import shlex

    safe = profile.redacted()
    return shlex.join([safe.command, *safe.args]) if safe.transport == "stdio" else str(safe.url)
