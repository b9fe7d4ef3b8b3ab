"""What ``mcp-lens tokens`` spends on a big list beyond counting it (issue 23, point 2).

Each run is a real ``python -m inspector tokens`` against a real stdio server, in a fresh interpreter that
writes the names in `sys.modules` at exit (after the report was printed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lens_support import REPO

BIG = str(REPO / "tests/servers/big.py")
FAULTS = str(REPO / "tests/servers/doctor_faults.py")
RUN = """
import atexit, json, runpy, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["mcp-lens", *sys.argv[2:]]
runpy.run_module("inspector", run_name="__main__")
"""


def _tokens(
    tmp_path: Path, *server: str, command: str = sys.executable
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    out = tmp_path / "modules.json"
    argv = [sys.executable, "-c", RUN, str(out), "tokens", "--format", "json", "--", command, *server]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done, set(json.loads(out.read_text()))


def test_a_list_whose_schemas_are_plainly_valid_never_loads_jsonschema(tmp_path: Path) -> None:
    """jsonschema (and the date libraries its format checks import) cost ~0.4 s of CPU; on a list every
    schema of which passes `schema_check`'s fast path, nothing needs it."""
    done, modules = _tokens(tmp_path, BIG, "tools", "200")
    (report,) = json.loads(done.stdout)["reports"]
    assert len(report["tools"]) == 200 and report["total"] > 0
    assert '{"finding"' not in done.stderr
    loaded = sorted(m for m in modules if m.split(".")[0] in ("jsonschema", "arrow", "isoduration"))
    assert loaded == []


def test_the_typescript_sdks_draft_07_schemas_need_no_jsonschema_either(tmp_path: Path, everything: str) -> None:
    """server-everything (the reference server, on the TypeScript SDK) declares draft-07 in every schema."""
    done, modules = _tokens(tmp_path, everything, "stdio", command="node")
    (report,) = json.loads(done.stdout)["reports"]
    assert len(report["tools"]) >= 10
    assert '{"finding"' not in done.stderr
    assert "jsonschema" not in modules


def test_a_schema_the_fast_path_doubts_still_gets_the_full_check(tmp_path: Path) -> None:
    done, modules = _tokens(tmp_path, FAULTS, "invalid-schema")
    findings = [json.loads(line)["finding"] for line in done.stderr.splitlines() if line.startswith('{"finding"')]
    assert [(f["path"], f["message"][:19]) for f in findings] == [
        ("$.tools[1].inputSchema.properties.count.type", "invalid JSON Schema")
    ]
    assert "jsonschema" in modules
    assert [t["name"] for t in json.loads(done.stdout)["reports"][0]["tools"]] == ["echo", "broken_schema"]
