"""The doctor's report types, at the bottom of the package: a finding, the report and its score (with
its coverage: each check's `CheckOutcome`), the options a run takes and the connection factory it is
given. It imports only `sections` (and, for typing, the connection's `core.operations`)."""

from __future__ import annotations

import re
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
# What became of each check of the table: it ran, it was skipped (it applied but could not run: the
# server crashed before it, no tokenizer, no arguments the doctor may send), or it does not apply.
RAN, SKIPPED, NOT_APPLICABLE = "ran", "skipped", "not applicable"
# the lists whose items a finding's path names: `$.tools[2]` reads `$.tools[2] (get_weather)`
NAMED_LISTS = {"tools": ("name",), "prompts": ("name",), "resources": ("name", "uri"), "resourceTemplates": ("name",)}
_ITEM_PATH = re.compile(r"^\$\.(tools|prompts|resources|resourceTemplates)\[(\d+)\](?! \()")
NAME_SHOWN = 60  # characters of an item's name in a path


@dataclass(frozen=True)
class DoctorFinding:
    severity: str  # "error" | "warning" | "info"
    check: str  # the check's id, e.g. "tool-schema"
    path: str  # a JSON path where it applies, e.g. "$.tools[2].inputSchema"
    message: str
    expected: str  # what the spec (or the host) expects there
    section: str  # where that expectation comes from
    owner: str | None = field(default=None, compare=False)  # the table check that added it (None: the engine)

    def to_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "check": self.check,
            "path": self.path,
            "message": self.message,
            "expected": self.expected,
            "section": self.section,
        }


@dataclass(frozen=True)
class CheckOutcome:
    """One check of the table in a run: `status` is `RAN`, `SKIPPED` or `NOT_APPLICABLE`, `reason` why not."""

    check: str
    status: str
    reason: str = ""
    what: str = ""  # what the check checks (the table's words)
    section: str = ""  # the spec section it enforces

    def said(self) -> str:
        """``skipped: why`` / ``not applicable: why`` (``ran`` when it ran)."""
        return self.status if self.status == RAN else f"{self.status}: {self.reason}"

    def to_json(self) -> dict[str, str]:
        return {
            "check": self.check,
            "status": self.status,
            "reason": self.reason,
            "what": self.what,
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
    # why a check did not run, as it said: its id → [(SKIPPED or NOT_APPLICABLE, why, the item or None)]
    reasons: dict[str, list[tuple[str, str, str | None]]] = field(default_factory=dict)
    # every check of the table, in its order, with what became of it (filled by `engine.run_doctor`)
    coverage: list[CheckOutcome] = field(default_factory=list)
    running: str | None = None  # the table check running now: the owner of the findings added
    names: dict[str, list[str | None]] = field(default_factory=dict)  # list key → each item's name
    # what each host chosen with --host does with each tool (`budget.acceptance.HostAcceptance`, in order)
    hosts: list[Any] = field(default_factory=list)

    def add(self, severity: str, check: str, path: str, message: str, expected: str, section: str) -> None:
        """Sections are named in the negotiated era's spec version (the same sections in both); a path
        into a listed item names it (`name_items`)."""
        named = self._named(path)
        self.findings.append(
            DoctorFinding(severity, check, named, message, expected, self.in_era(section), self.running)
        )

    def in_era(self, section: str) -> str:
        """`section` named in the negotiated era's spec version (``MCP 2025-11-25 · …`` → ``MCP 2026-07-28 · …``)."""
        if self.era != "modern":
            return section
        return "; ".join(MODERN_SPEC + s[len(SPEC) :] if s.startswith(SPEC) else s for s in section.split("; "))

    def skip(self, check: str, why: str, item: str | None = None) -> None:
        """`check` applied (to `item`, a tool's name, if given) but could not run, and why."""
        self.reasons.setdefault(check, []).append((SKIPPED, why, item))

    def not_applicable(self, check: str, why: str, item: str | None = None) -> None:
        """`check` does not apply to this server (or to `item`), and why."""
        self.reasons.setdefault(check, []).append((NOT_APPLICABLE, why, item))

    def why_not(self, check: str) -> tuple[str, str] | None:
        """(status, reason) from what `check` said when it did not run: skipped if it said so of
        anything, the reasons grouped (``why (item, item)``), skipped ones first; None if it said nothing."""
        said = self.reasons.get(check)
        if not said:
            return None
        status = SKIPPED if any(s == SKIPPED for s, _, _ in said) else NOT_APPLICABLE
        groups: dict[tuple[str, str], list[str]] = {}
        for s, why, item in sorted(said, key=lambda r: r[0] != SKIPPED):
            items = groups.setdefault((s, why), [])
            if item is not None and item not in items:
                items.append(item)
        return status, "; ".join(f"{why} ({_few(items)})" if items else why for (_, why), items in groups.items())

    def skipped_items(self, check: str) -> str:
        """For a check that ran: the items it skipped and why (``why (a, b)``), '' when none."""
        said = [(s, why, item) for s, why, item in self.reasons.get(check, []) if s == SKIPPED and item is not None]
        groups: dict[str, list[str]] = {}
        for _, why, item in said:
            if item not in (items := groups.setdefault(why, [])):
                items.append(item)  # type: ignore[arg-type]
        return "; ".join(f"{why} ({_few(items)})" for why, items in groups.items())

    def name_items(self, key: str, items: list[Any]) -> None:
        """The items of a list (``tools``, ``prompts``, ``resources``, ``resourceTemplates``), so that
        later findings' paths into them name them."""
        fields = NAMED_LISTS.get(key, ("name",))
        names: list[str | None] = []
        for item in items:
            found = [item.get(f) for f in fields if isinstance(item, dict)]
            name = next((n for n in found if isinstance(n, str) and n), None)
            if name is not None:  # a path stays on one line
                name = name.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
            names.append(name if name is None or len(name) <= NAME_SHOWN else name[: NAME_SHOWN - 1] + "…")
        self.names[key] = names

    def _named(self, path: str) -> str:
        match = _ITEM_PATH.match(path)
        if match is None:
            return path
        names = self.names.get(match.group(1), [])
        index = int(match.group(2))
        name = names[index] if index < len(names) else None
        return path if name is None else f"{match.group(0)} ({name}){path[match.end() :]}"

    @property
    def ran_count(self) -> int:
        return sum(o.status == RAN for o in self.coverage)

    def coverage_line(self) -> str:
        """``17 of 19 checks ran``."""
        return f"{self.ran_count} of {len(self.coverage)} checks ran"

    def not_run(self) -> list[CheckOutcome]:
        return [o for o in self.coverage if o.status != RAN]

    def ran_in_part(self) -> list[CheckOutcome]:
        """Checks that ran but skipped some items (their `reason` says which and why)."""
        return [o for o in self.coverage if o.status == RAN and o.reason]

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
            "coverage": {
                "ran": self.ran_count,
                "of": len(self.coverage),
                "line": self.coverage_line(),
                "checks": [o.to_json() for o in self.coverage],
            },
            "checks": self.ran,
            "seconds": round(self.seconds, 3),
            "findings": [f.to_json() for f in sorted(self.findings, key=_severity_order)],
            "hosts": [h.to_json() for h in self.hosts],
        }


def _few(items: list[str], shown: int = 5) -> str:
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" and {more} more" if more > 0 else "")


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
    no_tokenizer: str = "the tokenizer could not be loaded"  # why the budget lints are skipped without one
    on_check: Callable[[str], None] | None = None  # called with each check's id as it starts (a progress line)
    hosts: tuple[str, ...] = ()  # hosts of `budget.host_rules.HOSTS` whose verdict on each tool is wanted


# era → an unopened connection (``async with``) in that era ("auto" | "legacy" | "modern")
ConnectionFactory = Callable[[str], AbstractAsyncContextManager["Operations"]]
