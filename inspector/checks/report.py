"""A collection run as text, JSON or JUnit XML (one testsuite per collection, one testcase per step,
the failed check's reason as the failure message, the step's request and response in system-out)."""

from __future__ import annotations

import json
import re
from typing import Any
from xml.etree import ElementTree as ET

from inspector.checks.collection import steps_lost
from inspector.checks.runner import FAILED, PASSED, UNREACHABLE, RunResult, StepResult

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")  # XML 1.0 forbids the rest
_MARKS = {PASSED: "PASS", FAILED: "FAIL", UNREACHABLE: "ERROR"}


def summary(run: RunResult) -> str:
    total = len(run.steps)
    parts = [f"{run.count(PASSED)}/{total} passed"]
    if run.count(FAILED):
        parts.append(f"{run.count(FAILED)} failed")
    if run.count(UNREACHABLE):
        parts.append(f"{run.count(UNREACHABLE)} could not reach their server")
    if run.collection.damage:  # a damaged file: only its intact steps ran
        parts.append(f"the collection file is damaged: {steps_lost(run.collection)}")
    return f"{run.collection.name}: " + ", ".join(parts) + f" ({run.elapsed_ms:.0f} ms)"


def to_text(run: RunResult) -> str:
    lines = []
    for result in run.steps:
        took = f" ({result.elapsed_ms:.0f} ms)" if result.elapsed_ms is not None else ""
        lines.append(f"{_MARKS[result.status]}  {result.step.id} {result.step.name}{took}")
        if result.status != PASSED:
            lines.append(f"      {result.reason}")
    lines.append(summary(run))
    return "\n".join(lines) + "\n"


def _step_json(result: StepResult) -> dict[str, Any]:
    return {
        "id": result.step.id,
        "name": result.step.name,
        "server": result.step.server,
        "method": result.step.method,
        "status": result.status,
        "reason": result.reason,
        "elapsed_ms": None if result.elapsed_ms is None else round(result.elapsed_ms, 1),
        "checks": [{"kind": c.kind, "passed": c.passed, "reason": c.reason} for c in result.checks],
        "saved": result.saved,
        "wire": [{"seq": w.seq, "direction": w.direction, "kind": w.kind, "raw": w.raw} for w in result.wire],
    }


def to_json(run: RunResult) -> str:
    data = {
        "collection": run.collection.name,
        "passed": run.count(PASSED),
        "failed": run.count(FAILED),
        "unreachable": run.count(UNREACHABLE),
        "elapsed_ms": round(run.elapsed_ms, 1),
        "damaged": bool(run.collection.damage),
        "damage": run.collection.damage,
        "steps": [_step_json(r) for r in run.steps],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _xml(text: str) -> str:
    """Server-sent text with the characters XML 1.0 cannot carry shown as ``\\uXXXX``."""
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _wire_text(result: StepResult) -> str:
    return "\n".join(f"#{w.seq} {'→' if w.direction == 'out' else '←'} {w.raw}" for w in result.wire)


def to_junit(run: RunResult) -> str:
    suite = ET.Element(
        "testsuite",
        name=_xml(run.collection.name),
        tests=str(len(run.steps)),
        failures=str(run.count(FAILED)),
        errors=str(run.count(UNREACHABLE) + bool(run.collection.damage)),
        time=f"{run.elapsed_ms / 1000:.3f}",
    )
    for result in run.steps:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=_xml(run.collection.name),
            name=_xml(f"{result.step.id} {result.step.name}"),
            time=f"{(result.elapsed_ms or 0) / 1000:.3f}",
        )
        if result.status == FAILED:
            checks = "\n".join(f"{'ok  ' if c.passed else 'FAIL'} {c.kind}: {c.reason}" for c in result.checks)
            failure = ET.SubElement(case, "failure", message=_xml(result.reason), type="assertion")
            failure.text = _xml(checks or result.reason)
        elif result.status == UNREACHABLE:
            ET.SubElement(case, "error", message=_xml(result.reason), type="connection")
        if result.wire:
            ET.SubElement(case, "system-out").text = _xml(_wire_text(result))
    if run.collection.damage:  # the steps the damaged file lost, as one error CI shows
        name = _xml(run.collection.name)
        case = ET.SubElement(suite, "testcase", classname=name, name="collection file", time="0.000")
        message = _xml(f"the collection file is damaged: {steps_lost(run.collection)}")
        ET.SubElement(case, "error", message=message, type="damaged").text = _xml("\n".join(run.collection.damage))
        suite.set("tests", str(len(run.steps) + 1))
    suites = ET.Element("testsuites")
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


RENDERERS = {"text": to_text, "json": to_json, "junit": to_junit}
