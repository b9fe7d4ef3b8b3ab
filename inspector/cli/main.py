"""``mcp-lens --cli …``: parse, start the server, run one method, print, exit. Never imports Qt.

For speed the stdio server is spawned before any heavy import, so its start-up overlaps ours
(`connect.spawn_early`).
"""

from __future__ import annotations

import sys
from typing import Any

from inspector.cli import exit_codes
from inspector.cli.args import CliArgs, UsageError, parse
from inspector.cli.connect import connect, profile_of, spawn_early
from inspector.cli.render import fail


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse(argv)
        profile = profile_of(args)
    except (UsageError, ValueError) as exc:
        return fail({"error": "usage", "message": str(exc)}, exit_codes.USAGE)
    process = None
    if profile.transport == "stdio":
        from inspector.transports.process import SpawnError

        try:  # start the server now, so its start-up overlaps our imports
            process = spawn_early(profile)
        except SpawnError as exc:
            return fail({"error": "connection", "message": str(exc)}, exit_codes.CONNECTION)
    import asyncio

    from inspector.core.errors import LensError

    try:
        return asyncio.run(_run(args, profile, process))
    except LensError as exc:
        from inspector.config.redact import Redactor

        # The record already hides the profile's secrets; an error's words (a URL, a server's stderr) too.
        return fail(Redactor.for_profile(profile).json(exc.to_json()), exc.exit_code)
    except KeyboardInterrupt:
        return fail({"error": "interrupted", "message": "interrupted by the user"}, exit_codes.INTERRUPTED)


async def _run(args: CliArgs, profile: Any, process: Any) -> int:
    from inspector.cli.methods import execute
    from inspector.cli.notices import print_stray_output
    from inspector.traffic.store import TrafficStore

    store = TrafficStore()
    writer = None
    if args.record:
        from inspector.traffic.jsonl import RecordWriter

        writer = RecordWriter(args.record, meta={"server": profile.redacted().to_entry(), "method": args.method})
        store.subscribe(writer)
    try:
        async with connect(args, profile, store, process) as conn:
            return await execute(args, conn)
    finally:
        if writer is not None:
            writer.close()
        print_stray_output(store)
