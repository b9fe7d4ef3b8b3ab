"""A regression run written out: text, JSON, JUnit (one test case per request). Server text goes out as
it is; the CLI writes through its terminal guard (`cli/render.guarded_terminal`)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

from inspector.replay.against import Run
from inspector.replay.compare import ABSENT, DIFFERENT, Verdict
from inspector.replay.volatile import normalise

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
SHOWN = 200


def _show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def asked(verdict: Verdict) -> str:
    """The request's method and params without their volatile fields and `_meta`, in one line."""
    params = normalise({"params": verdict.params}, verdict.method).get("params")
    if isinstance(params, dict):
        params = {key: value for key, value in params.items() if key != "_meta"}
    return verdict.method if params in (None, {}) else f"{verdict.method} {_show(params)}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def counts(run: Run) -> dict[str, int]:
    out: dict[str, int] = {}
    for verdict in run.verdicts:
        out[verdict.verdict] = out.get(verdict.verdict, 0) + 1
    return out


def summary(run: Run) -> str:
    said = ", ".join(f"{count} {word}" for word, count in counts(run).items()) or "no request"
    line = f"{len(run.verdicts)} requests replayed: {said}"
    return line + (f"; stopped: {run.ended}" if run.ended else "")


def change_lines(verdict: Verdict) -> list[str]:
    return [f"    {c.path}: {_show(c.recorded)} → {_show(c.new)}" for c in verdict.changes]


def to_text(run: Run) -> str:
    lines = []
    for v in run.verdicts:
        times = f"(recorded {_ms(v.recorded_latency_ms)}, now {_ms(v.latency_ms)})"
        lines.append(f"{v.number:>4} {asked(v)}: {v.verdict} {times}")
        if v.note:
            lines.append(f"    {v.note}")
        lines += change_lines(v)
    lines.append(summary(run))
    return "\n".join(lines) + "\n"


def to_json(run: Run) -> str:
    data = {
        "passed": run.passed,
        "counts": counts(run),
        "ended": run.ended,
        "requests": [v.to_json() for v in run.verdicts],
    }
    return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def to_junit(run: Run, name: str = "mcp-lens replay") -> str:
    failures = sum(1 for v in run.verdicts if v.verdict == DIFFERENT)
    errors = sum(1 for v in run.verdicts if not v.passed and v.verdict != DIFFERENT) + (1 if run.ended else 0)
    suite = ET.Element(
        "testsuite", name=_xml(name), tests=str(len(run.verdicts)), failures=str(failures), errors=str(errors)
    )
    for v in run.verdicts:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_xml(name),
            name=_xml(f"{v.number} {asked(v)}"),
            time=f"{(v.latency_ms or 0) / 1000:.3f}",
        )
        if v.verdict == DIFFERENT:
            failure = ET.SubElement(case, "failure", message=_xml(f"{len(v.changes)} changed"), type="different")
            failure.text = _xml("\n".join(change_lines(v)))
        elif not v.passed:
            ET.SubElement(case, "error", message=_xml(v.note or v.verdict), type=v.verdict)
    if run.ended:
        case = ET.SubElement(suite, "testcase", classname=_xml(name), name="the rest of the record")
        ET.SubElement(case, "error", message=_xml(run.ended), type="ended")
    suites = ET.Element("testsuites")
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


RENDERERS = {"text": to_text, "json": to_json, "junit": to_junit}
