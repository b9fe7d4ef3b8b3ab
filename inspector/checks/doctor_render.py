"""A `DoctorReport` as text, JSON or JUnit XML (one testcase per check; a failure per error or warning).

Server-sent strings are printed as they are (text) or escaped by the XML writer (JUnit).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from xml.etree import ElementTree as ET

from inspector.checks.doctor import SCORE_RULE, SEVERITIES, DoctorReport
from inspector.words import counted


def text(report: DoctorReport) -> str:
    counts = report.counts()
    name = report.server.get("name") or report.target
    era = f"{report.era} {report.version}" if report.era else "not connected"
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
        for f in found:
            lines.append(f"  [{f.check}] {f.path}: {f.message}")
            lines.append(f"      expected: {f.expected}")
            lines.append(f"      see: {f.section}")
    return "\n".join(lines) + "\n"


def as_json(report: DoctorReport) -> str:
    return json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"


def junit(report: DoctorReport) -> str:
    counts = report.counts()
    failing = counts["error"] + counts["warning"]
    suite = ET.Element(
        "testsuite",
        name=f"mcp-lens doctor: {report.server.get('name') or report.target}",
        tests=str(len(report.ran)),
        failures=str(failing),
        errors="0",
        time=f"{report.seconds:.3f}",
    )
    props = ET.SubElement(suite, "properties")
    for key, value in (("score", report.score), ("era", report.era), ("protocolVersion", report.version)):
        ET.SubElement(props, "property", name=key, value=str(value))
    checks = list(dict.fromkeys([*report.ran, *(f.check.split("/")[0] for f in report.findings)]))
    for check in checks:
        case = ET.SubElement(suite, "testcase", classname="mcp-lens.doctor", name=check)
        mine = [f for f in report.findings if f.check.split("/")[0] == check]
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
