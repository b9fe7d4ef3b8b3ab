"""The host sections of a doctor report (``--host NAME``): text lines per host and tool, and a JUnit test suite
per host with a test case per tool (a `<failure>` for a refused one). Server text is written as `visible`
writes it, as in the rest of the report (`render`)."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

from inspector.budget.acceptance import ACCEPTED, CHANGED, REFUSED, HostAcceptance
from inspector.content.visible import visible
from inspector.doctor.report import DoctorReport

MARKS = {ACCEPTED: "✓", CHANGED: "≈", REFUSED: "✗"}


APART = "apart from the score: what this host does with the tools, not a protocol defect (exit 14 when it refuses one)"


def host_heading(judged: HostAcceptance) -> str:
    counts = judged.counts()
    return (
        f"HOST {judged.host.label} (server {visible(judged.server_name)}): {counts[ACCEPTED]} accepted, "
        f"{counts[CHANGED]} changed, {counts[REFUSED]} refused — {APART}"
    )


def host_summary(judged: HostAcceptance) -> str:
    """One line for the Doctor tab: how many tools the host refuses and changes, the first few named."""
    counts, total = judged.counts(), len(judged.verdicts)
    said = []
    for outcome, verb in ((REFUSED, "refuses"), (CHANGED, "changes")):
        names = [visible(v.tool) for v in judged.verdicts if v.outcome == outcome]
        shown = ", ".join(names[:5]) + (f", … {len(names) - 5} more" if len(names) > 5 else "")
        said.append(f"{verb} {counts[outcome]} of {total} tools" + (f" ({shown})" if names else ""))
    return (
        f"Host {judged.host.label}, apart from the score: " + "; ".join(said) + f"; accepts {counts[ACCEPTED]} as is."
    )


def host_lines(report: DoctorReport) -> list[str]:
    """Per host: its heading, then each tool's verdict and, under a change or a refusal, each rule behind it."""
    lines: list[str] = []
    for judged in report.hosts:
        lines += ["", host_heading(judged)]
        for verdict in judged.verdicts:
            lines.append(f"  {MARKS[verdict.outcome]} {visible(verdict.tool)}: {visible(verdict.summary())}")
            for rule in dict.fromkeys(r.rule for r in verdict.reasons):  # a rule once, however many reasons
                lines.append(f"      {rule.key} [{rule.status}]: {rule.summary}")
                lines.append(f"        source: {rule.source} (checked {rule.checked})")
    return lines


def host_suites(report: DoctorReport) -> list[ET.Element]:
    """A `<testsuite>` per host: a test case per tool, failed when the host refuses it (the rules in its text),
    a change said in `<system-out>`."""
    suites = []
    for judged in report.hosts:
        suite = ET.Element("testsuite", name=f"mcp-lens doctor --host {judged.host.name}: {_name(report)}")
        for verdict in judged.verdicts:
            case = ET.SubElement(
                suite, "testcase", classname=f"mcp-lens.host.{judged.host.name}", name=visible(verdict.tool)
            )
            detail = "\n".join(
                f"{r.rule.key} [{r.rule.status}]: {visible(r.message)}\n  {r.rule.summary}\n  source: {r.rule.source} "
                f"(checked {r.rule.checked})"
                for r in verdict.reasons
            )
            if verdict.outcome == REFUSED:
                failure = ET.SubElement(case, "failure", type="refused", message=visible(verdict.summary())[:500])
                failure.text = detail
            elif verdict.outcome == CHANGED:
                ET.SubElement(case, "system-out").text = visible(verdict.summary()) + "\n" + detail
        counts = judged.counts()
        suite.attrib.update(tests=str(len(judged.verdicts)), failures=str(counts[REFUSED]), errors="0", skipped="0")
        suites.append(suite)
    return suites


def _name(report: DoctorReport) -> Any:
    return visible(report.server.get("name") or report.target)
