"""A regression run written out: text, JSON, JUnit (one test case per request). Server text goes out as
it is; the CLI writes through its terminal guard (`cli/render.guarded_terminal`)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any, TextIO

from inspector.replay.against import Run
from inspector.replay.compare import ABSENT, DIFFERENT, EQUAL, IDENTICAL, Verdict
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
    return dict(run.counts)


def summary(run: Run) -> str:
    said = ", ".join(f"{count} {word}" for word, count in counts(run).items()) or "no request"
    line = f"{sum(run.counts.values())} requests replayed: {said}"
    return line + (f"; stopped: {run.ended}" if run.ended else "")


def change_lines(verdict: Verdict) -> list[str]:
    return [f"    {c.path}: {_show(c.recorded)} → {_show(c.new)}" for c in verdict.changes]


def text_lines(v: Verdict) -> list[str]:
    times = f"(recorded {_ms(v.recorded_latency_ms)}, now {_ms(v.latency_ms)})"
    lines = [f"{v.number:>4} {asked(v)}: {v.verdict} {times}"]
    if v.note:
        lines.append(f"    {v.note}")
    return lines + change_lines(v)


def to_text(run: Run) -> str:
    lines = [line for v in run.verdicts for line in text_lines(v)]
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


def junit_case(v: Verdict, name: str = "mcp-lens replay") -> ET.Element:
    case = ET.Element(
        "testcase", classname=_xml(name), name=_xml(f"{v.number} {asked(v)}"), time=f"{(v.latency_ms or 0) / 1000:.3f}"
    )
    if v.verdict == DIFFERENT:
        failure = ET.SubElement(case, "failure", message=_xml(f"{len(v.changes)} changed"), type="different")
        failure.text = _xml("\n".join(change_lines(v)))
    elif not v.passed:
        ET.SubElement(case, "error", message=_xml(v.note or v.verdict), type=v.verdict)
    return case


def to_junit(run: Run, name: str = "mcp-lens replay") -> str:
    suite = _suite(run, name)
    for v in run.verdicts:
        suite.append(junit_case(v, name))
    if run.ended:
        case = ET.SubElement(suite, "testcase", classname=_xml(name), name="the rest of the record")
        ET.SubElement(case, "error", message=_xml(run.ended), type="ended")
    suites = ET.Element("testsuites")
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _suite(run: Run, name: str) -> ET.Element:
    failures = run.counts.get(DIFFERENT, 0)
    errors = sum(n for word, n in run.counts.items() if word not in (IDENTICAL, EQUAL, DIFFERENT))
    errors += 1 if run.ended else 0
    tests = str(sum(run.counts.values()))
    return ET.Element("testsuite", name=_xml(name), tests=tests, failures=str(failures), errors=str(errors))


RENDERERS = {"text": to_text, "json": to_json, "junit": to_junit}


class Streamed:
    """A run's report written as its verdicts are judged (`Run.on_verdict = streamed.verdict`), then
    `finish()`: the CLI's way, so a long record's run holds no verdict. JUnit's counts head the file: its
    test cases are kept as text until then."""

    def __init__(self, fmt: str, out: TextIO, name: str = "mcp-lens replay") -> None:
        self.fmt, self.out, self.name = fmt, out, name
        self.cases: list[str] = []
        self.first = True

    def verdict(self, v: Verdict) -> None:
        if self.fmt == "text":
            self.out.write("\n".join(text_lines(v)) + "\n")
        elif self.fmt == "json":
            self.out.write(('{\n  "requests": [\n    ' if self.first else ",\n    ") + _json_item(v))
        else:
            case = junit_case(v, self.name)
            ET.indent(case, space="  ", level=2)
            self.cases.append("    " + ET.tostring(case, encoding="unicode").rstrip() + "\n")
        self.first = False
        self.out.flush()

    def finish(self, run: Run) -> None:
        if self.fmt == "text":
            self.out.write(summary(run) + "\n")
        elif self.fmt == "json":
            self.out.write('{\n  "requests": [' if self.first else "\n  ]")
            tail = {"passed": run.passed, "counts": counts(run), "ended": run.ended}
            if self.first:
                self.out.write("]")
            self.out.write(",\n" + json.dumps(tail, indent=2, ensure_ascii=False)[2:] + "\n")
        else:
            suite = ET.tostring(_suite(run, self.name), encoding="unicode")
            head = suite.removesuffix(" />") + ">\n"
            self.out.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n  ' + head)
            self.out.writelines(self.cases)
            if run.ended:
                ended = ET.Element("testcase", classname=_xml(self.name), name="the rest of the record")
                ET.SubElement(ended, "error", message=_xml(run.ended), type="ended")
                self.out.write("    " + ET.tostring(ended, encoding="unicode") + "\n")
            self.out.write("  </testsuite>\n</testsuites>\n")
        self.out.flush()


def _json_item(v: Verdict) -> str:
    return json.dumps(v.to_json(), indent=2, ensure_ascii=False, default=str).replace("\n", "\n    ")
