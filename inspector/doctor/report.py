"""The doctor's report types, at the bottom of the package: a finding, the report and its score, the
options a run takes and the connection factory it is given. It imports only `sections` (and, for
typing, the connection's `core.operations`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.doctor.sections import MODERN_SPEC, SPEC

if TYPE_CHECKING:
    from inspector.core.operations import Operations  # the connection, lean or the SDK's

SEVERITIES = ("error", "warning", "info")
# Score: 100 minus these per finding, floored at 0. Info costs nothing.
WEIGHTS = {"error": 10, "warning": 3, "info": 0}
SCORE_RULE = "100 - 10 per error - 3 per warning (floor 0); info findings cost nothing"


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
ConnectionFactory = Callable[[str], AbstractAsyncContextManager["Operations"]]
