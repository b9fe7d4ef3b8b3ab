"""The end of a `scripts/wine-test` run: per suite, tests passed, failed, errors and skipped (from the JUnit
files its pytest runs wrote), the skips by reason, the known limits of Wine it deselected, every failure.

    python scripts/wine/summary.py RUN_DIR [LIMIT...]

RUN_DIR holds `suites.tsv` (suite, pytest's exit status, seconds) and `SUITE.xml`; a LIMIT is "test id<TAB>reason".
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

KINDS = ("passed", "failed", "errors", "skipped")


def outcome(case: ET.Element) -> tuple[str, str]:
    """A test case's kind (one of KINDS) and its message (a skip's reason, a failure's first line)."""
    for child in case:
        if child.tag in ("failure", "error"):
            return ("failed" if child.tag == "failure" else "errors"), child.get("message", "").split("\n")[0]
        if child.tag == "skipped":
            return "skipped", child.get("message", "").removeprefix("Skipped: ")
    return "passed", ""


def main(run: Path, limits: list[str]) -> None:
    reasons: Counter[str] = Counter()
    failures: list[str] = []
    print("\nwine-test: summary (Windows CPython 3.13 under Wine)")
    print(f"  {'suite':<11}" + "".join(f"{kind:>8}" for kind in KINDS) + f"{'seconds':>9}")
    for line in (run / "suites.tsv").read_text().splitlines():
        suite, status, seconds = line.split("\t")
        xml = run / f"{suite}.xml"
        if not xml.exists():
            print(f"  {suite:<11}no report (pytest exited {status})")
            continue
        counts: Counter[str] = Counter()
        for case in ET.parse(xml).iter("testcase"):
            kind, message = outcome(case)
            counts[kind] += 1
            if kind == "skipped":
                reasons[message] += 1
            elif kind != "passed":
                name = f"{case.get('classname', '')}::{case.get('name', '')}"
                failures.append(f"{suite}: {name} ({kind}: {message[:160]})")
        print(f"  {suite:<11}" + "".join(f"{counts[kind]:>8}" for kind in KINDS) + f"{seconds:>9}")
    if reasons:
        print("wine-test: skipped, by reason:")
        for reason, count in reasons.most_common():
            print(f"  {count:>5}  {reason}")
    if limits:
        print("wine-test: known limits of Wine, deselected:")
        for limit in limits:
            test, _, why = limit.partition("\t")
            print(f"  {test}\n        {why}")
    if failures:
        print("wine-test: failed or errors:")
        for failure in failures:
            print(f"  {failure}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
