"""A `DoctorReport` as text, JSON or JUnit XML (one testcase per check; a failure per error or warning).

Server-sent strings are printed one way, on a terminal or in a file: control, bidi and invisible
characters as `content/visible.py` writes them (``\x1b``, ``\u202e``; in JSON, JSON's ``\u001b``),
so no terminal obeys them and a JUnit file stays well-formed XML; markup is left to the XML writer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from xml.etree import ElementTree as ET

from inspector.content.visible import json_visible, visible
from inspector.doctor.report import SCORE_RULE, SEVERITIES, DoctorFinding, DoctorReport
from inspector.words import counted


def _seen(finding: DoctorFinding) -> DoctorFinding:
    """The finding with each field as `visible` writes it (newlines and tabs kept)."""
    return replace(
        finding,
        path=visible(finding.path),
        message=visible(finding.message),
        expected=visible(finding.expected),
        section=visible(finding.section),
    )


def _name(report: DoctorReport) -> str:
    return visible(report.server.get("name") or report.target)


def text(report: DoctorReport) -> str:
    counts = report.counts()
    name = _name(report)
    era = visible(f"{report.era} {report.version}") if report.era else "not connected"
    lines = [
        f"mcp-lens doctor: {name} ({era})",
        f"score {report.score}/100 — {counted(counts['error'], 'error')}, {counted(counts['warning'], 'warning')}, "
        f"{counted(counts['info'], 'note')} — {counted(len(report.ran), 'check')} in {report.seconds:.2f} s",
        f"  ({SCORE_RULE})",
    ]
    for severity in SEVERITIES:
        found = report.by_severity(severity)
        if not found:
            continue
        heading = {"error": "ERRORS", "warning": "WARNINGS", "info": "NOTES"}[severity]
        lines += ["", f"{heading} ({len(found)})"]
        for f in map(_seen, found):
            lines.append(f"  [{f.check}] {f.path}: {f.message}")
            lines.append(f"      expected: {f.expected}")
            lines.append(f"      see: {f.section}")
    return "\n".join(lines) + "\n"


def as_json(report: DoctorReport) -> str:
    return json_visible(report.to_json(), indent=2) + "\n"


def junit(report: DoctorReport) -> str:
    counts = report.counts()
    failing = counts["error"] + counts["warning"]
    suite = ET.Element(
        "testsuite",
        name=f"mcp-lens doctor: {_name(report)}",
        tests=str(len(report.ran)),
        failures=str(failing),
        errors="0",
        time=f"{report.seconds:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for key, value in (("score", report.score), ("era", report.era), ("protocolVersion", report.version)):
        ET.SubElement(props, "property", name=key, value=visible(value))
    findings = [_seen(f) for f in report.findings]
    checks = list(dict.fromkeys([*report.ran, *(f.check.split("/")[0] for f in findings)]))
    for check in checks:
        case = ET.SubElement(suite, "testcase", classname="mcp-lens.doctor", name=check)
        mine = [f for f in findings if f.check.split("/")[0] == check]
        notes = []
        for f in mine:
            detail = f"{f.path}: {f.message}\nexpected: {f.expected}\nsee: {f.section}"
            if f.severity == "info":
                notes.append(detail)
            else:
                failure = ET.SubElement(case, "failure", type=f.severity, message=f"[{f.check}] {f.message}"[:500])
                failure.text = detail
        if notes:
            ET.SubElement(case, "system-out").text = "\n\n".join(notes)
    suites = ET.Element("testsuites", tests=suite.get("tests", "0"), failures=str(failing))
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


RENDERERS: dict[str, Callable[[DoctorReport], str]] = {"text": text, "json": as_json, "junit": junit}
