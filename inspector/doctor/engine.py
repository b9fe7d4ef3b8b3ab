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

import inspect
import time
from collections.abc import Callable
from typing import Any

from inspector.core.errors import LensError
from inspector.doctor import probes
from inspector.doctor.report import (
    NOT_APPLICABLE,
    RAN,
    SKIPPED,
    CheckOutcome,
    ConnectionFactory,
    DoctorOptions,
    DoctorReport,
)
from inspector.doctor.sections import SECTION_LIFECYCLE
from inspector.doctor.state import Crashed, ProbeState
from inspector.doctor.table import CHECKS, Check, Stage, stage


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
    `store_of(conn)` gives the connection's `TrafficStore` (default ``conn.store``). The report's
    `coverage` says of every check of the table whether it ran, and if not, why."""
    options = options or DoctorOptions()
    report = DoctorReport(target=target)
    started = time.perf_counter()
    seen: list[str] = []
    claimed: list[str] = []
    stopped: list[str] = []  # why the checks not reached were not
    apart: dict[str, str] = {}  # the checks that do not apply to the connection (`Check.applies`), and why
    try:
        async with open_connection(era) as conn:
            conn.subscribe(lambda event: _note_notification(event, seen))
            for check in stage(Stage.CONNECTED):
                await _run(report, check, report, conn, notify=options.on_check)
            claimed = probes.legacy_versions(conn) if conn.era == "modern" else []
            apart = {c.id: why for c in CHECKS if c.applies is not None and (why := c.applies(conn))}
            state = ProbeState(conn, report, options, seen, tokenizer=tokenizer, asked=era)
            try:
                await _lists(state, stopped, apart)
                if not stopped:  # a server gone or mute: the probes would only wait for it
                    await _probes(state, stopped, apart)
            finally:
                broke = report.running  # the check a lost connection ends: it owns the finding that says so
                store = store_of(conn) if store_of is not None else getattr(conn, "store", None)
                for check in stage(Stage.WIRE):
                    await _run(report, check, report, store, notify=options.on_check)
                report.running = broke
    except LensError as exc:
        if report.era is None:
            report.running = "connects"
            report.ran.append("connects")
            report.add(
                "error",
                "connects",
                "$",
                f"could not connect: {exc.message}",
                "an answer to initialize (or server/discover)",
                SECTION_LIFECYCLE,
            )
            stopped.append("could not connect")
        else:
            report.add(
                "error",
                report.running or "connects",
                "$",
                f"the connection failed: {exc.message}",
                "a live server",
                SECTION_LIFECYCLE,
            )
            stopped.append("the connection failed before it")
        report.running = None
    if report.era == "modern" and era == "auto":
        for check in stage(Stage.OTHER_ERA):
            await _run(report, check, report, open_connection, claimed, notify=options.on_check)
    elif report.era is not None:
        for check in stage(Stage.OTHER_ERA):
            report.not_applicable(check.id, _one_era(report.era, era))
    report.coverage = _coverage(report, stopped, apart)
    report.seconds = time.perf_counter() - started
    return report


async def _run(report: DoctorReport, check: Check, *args: Any, notify: Callable[[str], None] | None) -> None:
    """`check` with `args`, the findings it adds owned by it (`notify(id)` first, if given). A check that
    raises (the server crashed) stays the running one, so the finding that says so is owned by it too."""
    report.running = check.id
    if notify is not None:
        notify(check.id)
    done = check.run(*args)
    if inspect.isawaitable(done):
        await done
    report.running = None


def _declared(report: DoctorReport, check: Check, capabilities: Any, apart: dict[str, str]) -> bool:
    """Whether `check` applies: the server declares what it needs and the connection is one it is for
    (`Check.applies`); if not, it does not apply (said)."""
    if check.needs and check.needs not in capabilities:
        report.not_applicable(check.id, f"the server does not declare the {check.needs} capability")
        return False
    if check.id in apart:
        report.not_applicable(check.id, apart[check.id])
        return False
    return True


async def _lists(state: ProbeState, stopped: list[str], apart: dict[str, str]) -> None:
    """The lists the server declares, in table order; a crash ends them (the probes then say so)."""
    caps = state.conn.capabilities
    try:
        for check in stage(Stage.LISTS):
            if _declared(state.report, check, caps, apart):
                await _run(state.report, check, state, notify=state.options.on_check)
    except Crashed as stop:
        stopped.append(f"not reached: {stop.why}")
        state.report.running = None


async def _probes(state: ProbeState, stopped: list[str], apart: dict[str, str]) -> None:
    """The live checks, in table order, each tool call's checks tool by tool; a crash skips the rest."""
    caps = state.conn.capabilities
    report = state.report
    try:
        for check in stage(Stage.PROBES):
            if _declared(report, check, caps, apart):
                await _run(report, check, state, notify=state.options.on_check)
        calls = [check for check in stage(Stage.TOOL_CALLS) if _declared(report, check, caps, apart)]
        callable_tools = state.callable_tools() if calls else []
        for check in calls if not callable_tools else ():
            report.not_applicable(check.id, _no_tool_to_call(state))
        for index, tool in callable_tools:
            for check in calls:
                await _run(report, check, state, index, tool, notify=state.options.on_check)
        for check in stage(Stage.READS):
            if _declared(report, check, caps, apart):
                await _run(report, check, state, notify=state.options.on_check)
    except Crashed as stop:
        stopped.append(f"not reached: {stop.why}")  # each check not reached says so in the coverage
        report.running = None


def _no_tool_to_call(state: ProbeState) -> str:
    if not state.tools:
        return "the server lists no tools"
    if state.options.allowed is not None:
        return "no tool was ticked for the doctor to call"
    return "no tool the doctor may call: none is marked readOnlyHint: true or named with --call"


def _one_era(negotiated: str, asked: str) -> str:
    if negotiated == "legacy":
        return "the server speaks the legacy era (initialize): it claims no other"
    return f"the era was chosen ({asked}): the other era is not tried"


def _coverage(report: DoctorReport, stopped: list[str], apart: dict[str, str]) -> list[CheckOutcome]:
    """Every check of the table, in its order: ran (it said so in ``report.ran``, or it found something),
    or why not (it said why; it does not apply to the connection; or it was not reached: the server
    crashed or stopped answering, the connection failed)."""
    out = []
    found = {f.owner for f in report.findings}
    for check in CHECKS:
        if any(i in report.ran for i in check.ids) or check.id in found:
            status, reason = RAN, report.skipped_items(check.id)
        elif check.id in apart and report.why_not(check.id) is None:
            status, reason = NOT_APPLICABLE, apart[check.id]
        else:
            status, reason = report.why_not(check.id) or (
                (SKIPPED, stopped[0]) if stopped else (SKIPPED, "did not run (it gave no reason)")
            )
        out.append(CheckOutcome(check.id, status, reason, check.what, report.in_era(check.section)))
    return out


def _note_notification(event: Any, seen: list[str]) -> None:
    if getattr(event, "kind", None) == "notification":
        method = event.data.get("method") if isinstance(getattr(event, "data", None), dict) else None
        if isinstance(method, str):
            seen.append(method)
