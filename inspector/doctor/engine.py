"""The server doctor: one battery of checks that says what a server's users' clients will meet.

`run_doctor(open_connection, …)` connects through the factory it is given (the CLI's lean stdio client
or the SDK's connection, in an era), runs the checks of `static_checks` (what the server lists) and
`probes` (what it answers), and returns a `DoctorReport`: findings with a severity, the check's
id, a JSON path, what the spec (or a host's documented limit) expects and the section it comes from,
plus a score. No Qt; the same engine serves the CLI and the app.

The doctor never calls a tool on its own except an unknown name, and, for tools marked
``readOnlyHint: true`` or named by the caller, a call with invalid arguments and one with the form's
default arguments.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "info")
# Score: 100 minus these per finding, floored at 0. Info costs nothing.
WEIGHTS = {"error": 10, "warning": 3, "info": 0}
SCORE_RULE = "100 - 10 per error - 3 per warning (floor 0); info findings cost nothing"

SPEC = "MCP 2025-11-25"
MODERN_SPEC = "MCP 2026-07-28"
SECTION_LIFECYCLE = f"{SPEC} · Base protocol › Lifecycle"
SECTION_STDIO = f"{SPEC} · Base protocol › Transports › stdio"
SECTION_TOOLS = f"{SPEC} · Server features › Tools"
SECTION_TOOL_NAMES = f"{SPEC} · Server features › Tools › Tool names"
SECTION_TOOL_ERRORS = f"{SPEC} · Server features › Tools › Error handling (SEP-1303: input errors as isError)"
SECTION_STRUCTURED = f"{SPEC} · Server features › Tools › Output schema"
SECTION_RESOURCES = f"{SPEC} · Server features › Resources"
SECTION_TEMPLATES = f"{SPEC} · Server features › Resources › Resource templates"
SECTION_PROMPTS = f"{SPEC} · Server features › Prompts"
SECTION_PAGINATION = f"{SPEC} · Server features › Utilities › Pagination"
SECTION_LIST_CHANGED = f"{SPEC} · Server features › Tools › List changed notification"
SECTION_PING = f"{SPEC} · Base protocol › Utilities › Ping"
SECTION_SCHEMA = f"{SPEC} · Base protocol › Overview › JSON Schema usage (2020-12 by default)"
SECTION_CLAUDE = (
    "Anthropic API · Tool use (name ^[a-zA-Z0-9_-]{1,64}$); Claude Code names MCP tools mcp__<server>__<tool>"
)
SECTION_LENS_FORM = "MCP Lens · the Tools form (inspector/schema)"
SECTION_LENS_BUDGET = "MCP Lens · Budget lints (the Budget tab, mcp-lens tokens)"


@dataclass(frozen=True)
class DoctorFinding:
    severity: str  # "error" | "warning" | "info"
    check: str  # the check's id, e.g. "tool-schema"
    path: str  # a JSON path where it applies, e.g. "$.tools[2].inputSchema"
    message: str
    expected: str  # what the spec (or the host) expects there
    section: str  # where that expectation comes from

    def to_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "check": self.check,
            "path": self.path,
            "message": self.message,
            "expected": self.expected,
            "section": self.section,
        }


@dataclass
class DoctorReport:
    target: str
    findings: list[DoctorFinding] = field(default_factory=list)
    era: str | None = None  # "legacy" | "modern"; None when it never connected
    version: str | None = None
    server: dict[str, Any] = field(default_factory=dict)  # serverInfo
    ran: list[str] = field(default_factory=list)  # the checks that ran, in order
    seconds: float = 0.0

    def add(self, severity: str, check: str, path: str, message: str, expected: str, section: str) -> None:
        """Sections are named in the negotiated era's spec version (the same sections in both)."""
        if self.era == "modern" and section.startswith(SPEC):
            section = MODERN_SPEC + section[len(SPEC) :]
        self.findings.append(DoctorFinding(severity, check, path, message, expected, section))

    def by_severity(self, severity: str) -> list[DoctorFinding]:
        return [f for f in self.findings if f.severity == severity]

    @property
    def score(self) -> int:
        if self.era is None:
            return 0
        return max(0, 100 - sum(WEIGHTS.get(f.severity, 0) for f in self.findings))

    def counts(self) -> dict[str, int]:
        return {s: len(self.by_severity(s)) for s in SEVERITIES}

    def fails(self, fail_on: str | None) -> bool:
        """True when a finding at or above `fail_on` ("error" | "warning") is present."""
        if fail_on is None:
            return False
        worst = SEVERITIES[: SEVERITIES.index(fail_on) + 1]
        return any(f.severity in worst for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "server": self.server,
            "era": self.era,
            "protocolVersion": self.version,
            "score": self.score,
            "scoreRule": SCORE_RULE,
            "counts": self.counts(),
            "checks": self.ran,
            "seconds": round(self.seconds, 3),
            "findings": [f.to_json() for f in sorted(self.findings, key=_severity_order)],
        }


def _severity_order(finding: DoctorFinding) -> int:
    return SEVERITIES.index(finding.severity) if finding.severity in SEVERITIES else len(SEVERITIES)


@dataclass
class DoctorOptions:
    timeout: float = 5.0  # seconds for each probe (an unknown tool, a read, a get)
    call: tuple[str, ...] = ()  # tools the user allows the doctor to call, besides readOnlyHint ones
    # when given, the only tools the doctor may call (the app's dialog: what the user ticked, readOnlyHint or not)
    allowed: frozenset[str] | None = None
    max_pages: int = 50  # a list with more pages than this "never ends"
    max_reads: int = 10  # resources read / prompts got, at most
    host_server_name: str | None = None  # the name a host gives the server (default: serverInfo.name)


# era → an unopened connection (``async with``) in that era ("auto" | "legacy" | "modern")
ConnectionFactory = Callable[[str], AbstractAsyncContextManager[Any]]


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
    from inspector.core.errors import LensError
    from inspector.doctor import probes, static_checks
    from inspector.doctor.state import ProbeState

    options = options or DoctorOptions()
    report = DoctorReport(target=target)
    started = time.perf_counter()
    seen: list[str] = []
    claimed: list[str] = []
    try:
        async with open_connection(era) as conn:
            conn.subscribe(lambda event: _note_notification(event, seen))
            static_checks.check_connected(report, conn)
            claimed = probes.legacy_versions(conn) if conn.era == "modern" else []
            state = ProbeState(conn, report, options, seen)
            try:
                await state.run_listings(tokenizer)
                await probes.run_probes(state)
            finally:
                store = store_of(conn) if store_of is not None else getattr(conn, "store", None)
                static_checks.check_stdout(report, store)
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
        await probes.check_other_era(report, open_connection, claimed)
    report.seconds = time.perf_counter() - started
    return report


def _note_notification(event: Any, seen: list[str]) -> None:
    if getattr(event, "kind", None) == "notification":
        method = event.data.get("method") if isinstance(getattr(event, "data", None), dict) else None
        if isinstance(method, str):
            seen.append(method)
