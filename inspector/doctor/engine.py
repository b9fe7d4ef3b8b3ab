"""The server doctor: one battery of checks that says what a server's users' clients will meet.

`run_doctor(open_connection, …)` connects through the factory it is given (the CLI's lean stdio client
or the SDK's connection, in an era), runs the checks of `table.CHECKS` in their order (what the server
said and lists, what it answers), and returns a `DoctorReport`: findings with a severity, the check's
id, a JSON path, what the spec (or a host's documented limit) expects and the section it comes from,
plus a score. No Qt; the same engine serves the CLI and the app.

The doctor never calls a tool on its own except an unknown name, and, for tools marked
``readOnlyHint: true`` or named by the caller, a call with invalid arguments and one with the form's
default arguments.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from inspector.core.errors import LensError
from inspector.doctor import probes
from inspector.doctor.report import ConnectionFactory, DoctorOptions, DoctorReport
from inspector.doctor.sections import SECTION_LIFECYCLE
from inspector.doctor.state import Crashed, ProbeState
from inspector.doctor.table import Stage, stage


async def run_doctor(
    open_connection: ConnectionFactory,
    *,
    target: str,
    era: str = "auto",
    store_of: Callable[[Any], Any] | None = None,
    options: DoctorOptions | None = None,
    tokenizer: Any = None,
) -> DoctorReport:
    """Every check, in order. Never raises for a broken server: what broke is a finding.
    `store_of(conn)` gives the connection's `TrafficStore` (default ``conn.store``)."""
    options = options or DoctorOptions()
    report = DoctorReport(target=target)
    started = time.perf_counter()
    seen: list[str] = []
    claimed: list[str] = []
    try:
        async with open_connection(era) as conn:
            conn.subscribe(lambda event: _note_notification(event, seen))
            for check in stage(Stage.CONNECTED):
                check.run(report, conn)
            claimed = probes.legacy_versions(conn) if conn.era == "modern" else []
            state = ProbeState(conn, report, options, seen, tokenizer=tokenizer)
            try:
                await _lists(state)
                await _probes(state)
            finally:
                store = store_of(conn) if store_of is not None else getattr(conn, "store", None)
                for check in stage(Stage.WIRE):
                    check.run(report, store)
    except LensError as exc:
        if report.era is None:
            report.ran.append("connects")
            report.add(
                "error",
                "connects",
                "$",
                f"could not connect: {exc.message}",
                "an answer to initialize (or server/discover)",
                SECTION_LIFECYCLE,
            )
        else:
            report.add(
                "error",
                "connection-lost",
                "$",
                f"the connection failed: {exc.message}",
                "a live server",
                SECTION_LIFECYCLE,
            )
    if report.era == "modern" and era == "auto":
        for check in stage(Stage.OTHER_ERA):
            await check.run(report, open_connection, claimed)
    report.seconds = time.perf_counter() - started
    return report


async def _lists(state: ProbeState) -> None:
    """The lists the server declares, in table order; a crash ends them (the probes then say so)."""
    try:
        for check in stage(Stage.LISTS, state.conn.capabilities):
            await check.run(state)
    except Crashed:
        pass


async def _probes(state: ProbeState) -> None:
    """The live checks, in table order, each tool call's checks tool by tool; a crash skips the rest."""
    caps = state.conn.capabilities
    try:
        for check in stage(Stage.PROBES, caps):
            await check.run(state)
        calls = stage(Stage.TOOL_CALLS, caps)
        for index, tool in state.callable_tools() if calls else ():
            for check in calls:
                await check.run(state, index, tool)
        for check in stage(Stage.READS, caps):
            await check.run(state)
    except Crashed as stop:
        state.report.add(
            "info",
            "skipped",
            "$",
            f"the remaining checks were skipped: {stop.why}",
            "a live server",
            SECTION_LIFECYCLE,
        )


def _note_notification(event: Any, seen: list[str]) -> None:
    if getattr(event, "kind", None) == "notification":
        method = event.data.get("method") if isinstance(getattr(event, "data", None), dict) else None
        if isinstance(method, str):
            seen.append(method)
