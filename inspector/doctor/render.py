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
from inspector.doctor.host_render import host_lines, host_suites
from inspector.doctor.report import RAN, SCORE_RULE, SEVERITIES, DoctorFinding, DoctorReport
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


def score_line(report: DoctorReport) -> str:
    """``score 84/100 · 17 of 19 checks ran``: the score with its coverage, one wording for every output."""
    return f"score {report.score}/100 · {report.coverage_line()}"


def text(report: DoctorReport) -> str:
    counts = report.counts()
    name = _name(report)
    era = visible(f"{report.era} {report.version}") if report.era else "not connected"
    lines = [
        f"mcp-lens doctor: {name} ({era})",
        f"{score_line(report)} — {counted(counts['error'], 'error')}, {counted(counts['warning'], 'warning')}, "
        f"{counted(counts['info'], 'note')} — in {report.seconds:.2f} s",
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
    not_run = report.not_run()
    if not_run:
        lines += ["", f"CHECKS NOT RUN ({len(not_run)})"]
        lines += [f"  {o.check}: {visible(o.said())}" for o in not_run]
    if in_part := report.ran_in_part():
        lines += ["", f"CHECKS RAN IN PART ({len(in_part)})"]
        lines += [f"  {o.check}: skipped: {visible(o.reason)}" for o in in_part]
    lines += host_lines(report)
    return "\n".join(lines) + "\n"


def as_json(report: DoctorReport) -> str:
    return json_visible(report.to_json(), indent=2) + "\n"


RUN = "doctor"  # the test case of findings no check owns (none today: each is added while its check runs)


def junit(report: DoctorReport) -> str:
    """One test case per check of the table, in its order: a `<failure>` (the worst severity, every
    error and warning in its text) when it found any, `<skipped message="…">` when it did not run,
    its notes in `<system-out>`. The counts are those of the test cases."""
    outcomes = {o.check: o for o in report.coverage}
    names = list(outcomes) or list(dict.fromkeys(report.ran))
    mine: dict[str, list[DoctorFinding]] = {}
    for f in map(_seen, report.findings):
        case = next((c for c in (f.owner, f.check.split("/")[0]) if c in names), RUN)
        mine.setdefault(case, []).append(f)
    if RUN in mine:
        names.append(RUN)
    suite = ET.Element("testsuite", name=f"mcp-lens doctor: {_name(report)}")
    props = ET.SubElement(suite, "properties")
    for key, value in (
        ("score", report.score),
        ("coverage", report.coverage_line()),
        ("era", report.era),
        ("protocolVersion", report.version),
    ):
        ET.SubElement(props, "property", name=key, value=visible(value))
    failed = skipped = 0
    for check in names:
        case = ET.SubElement(suite, "testcase", classname="mcp-lens.doctor", name=check)
        outcome = outcomes.get(check)
        if outcome is not None and outcome.status != RAN:
            ET.SubElement(case, "skipped", message=visible(outcome.said()))
            skipped += 1
        found = mine.get(check, [])
        bad = [f for f in found if f.severity != "info"]
        if bad:
            worst = min(bad, key=lambda f: SEVERITIES.index(f.severity) if f.severity in SEVERITIES else 9)
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            failure = ET.SubElement(
                case, "failure", type=worst.severity, message=f"[{bad[0].check}] {bad[0].message}"[:500] + more
            )
            failure.text = "\n\n".join(_detail(f) for f in bad)
            failed += 1
        notes = [_detail(f) for f in found if f.severity == "info"]
        if notes:
            ET.SubElement(case, "system-out").text = "\n\n".join(notes)
    counts = {"tests": str(len(names)), "failures": str(failed), "errors": "0", "skipped": str(skipped)}
    suite.attrib.update({**counts, "time": f"{report.seconds:.3f}"})
    hosts = host_suites(report)  # a suite per --host, a case per tool
    totals = {k: str(sum(int(x.get(k, "0")) for x in (suite, *hosts))) for k in ("tests", "failures", "skipped")}
    suites = ET.Element("testsuites", totals)
    suites.append(suite)
    suites.extend(hosts)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _detail(f: DoctorFinding) -> str:
    return f"[{f.check}] {f.path}: {f.message}\nexpected: {f.expected}\nsee: {f.section}"


RENDERERS: dict[str, Callable[[DoctorReport], str]] = {"text": text, "json": as_json, "junit": junit}


# -- the checks themselves (``mcp-lens doctor --list-checks``, the README's table) ------------------------
CHECK_COLUMNS = ("check", "what it checks", "runs", "needs", "spec section")
# the README's generated table sits between these (`scripts/doctor-checks-readme` writes it)
CHECKS_START = "<!-- doctor-checks: generated by scripts/doctor-checks-readme from inspector/doctor/table.py -->"
CHECKS_END = "<!-- /doctor-checks -->"


def check_rows() -> list[tuple[str, str, str, str, str]]:
    """Every check of `table.CHECKS`, in the order it runs: id (with the further ids it reports), what it
    checks, its stage, the capability it needs, the section it enforces."""
    from inspector.doctor.table import CHECKS

    return [
        (
            " / ".join(check.ids),
            check.what,
            check.stage.value,
            check.needs or "",
            check.section,
        )
        for check in CHECKS
    ]


def checks_text() -> str:
    lines = []
    for ids, what, stage, needs, section in check_rows():
        lines.append(f"{ids} ({stage}{f', needs {needs}' if needs else ''})")
        lines.append(f"    {what}")
        lines.append(f"    see: {section}")
    return "\n".join(lines) + "\n"


def checks_json() -> str:
    rows = [dict(zip(("check", "what", "stage", "needs", "section"), row, strict=True)) for row in check_rows()]
    return json_visible(rows, indent=2) + "\n"


def checks_markdown() -> str:
    """The README's table (`scripts/doctor-checks-readme` pastes it; a test keeps it true)."""

    def cell(text: str) -> str:  # literal in a Markdown table: no HTML tag, emphasis or column break
        for char, said in (
            ("\\", "\\\\"),
            ("&", "&amp;"),
            ("|", "\\|"),
            ("_", "\\_"),
            ("*", "\\*"),
            ("<", "&lt;"),
            (">", "&gt;"),
        ):
            text = text.replace(char, said)
        return text

    lines = ["| " + " | ".join(CHECK_COLUMNS) + " |", "|" + " --- |" * len(CHECK_COLUMNS)]
    for ids, what, stage, needs, section in check_rows():
        code = " / ".join(f"`{i}`" for i in ids.split(" / "))
        lines.append(f"| {code} | {cell(what)} | {stage} | {f'`{needs}`' if needs else ''} | {cell(section)} |")
    return "\n".join(lines) + "\n"


CHECK_LISTS: dict[str, Callable[[], str]] = {"text": checks_text, "json": checks_json, "markdown": checks_markdown}
