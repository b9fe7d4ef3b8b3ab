"""`mcp-lens diff` of the same server recorded in the two protocol eras (the demo, as a user records it):
each request lines up with its match whatever the era's own envelope (`_meta` protocol version, an answer's
`resultType` and caching hints), and a tool listed as changed says what changed (OT7 #18)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lens_support import run_lens


def record(path: Path, era: str) -> str:
    words = ("--cli", "--demo", "--protocol-era", era, "--record", str(path), "--method", "tools/list")
    done = run_lens(*words, timeout=120)
    assert done.returncode == 0, done.stderr
    return str(path)


def test_the_same_server_in_the_two_eras_lines_up_by_request(tmp_path: Path) -> None:
    modern, legacy = record(tmp_path / "modern.jsonl", "modern"), record(tmp_path / "legacy.jsonl", "legacy")
    done = run_lens("diff", modern, legacy, "--format", "json", timeout=120)
    assert done.returncode == 17, done.stderr  # they do differ: the handshake, one tool's execution
    diff = json.loads(done.stdout)
    listed = [p for p in diff["requests"] if p["method"] == "tools/list"]
    assert [(p["number"] > 0, p["verdict"]) for p in listed] == [(True, "different")], listed
    paths = [c["path"] for c in listed[0]["changes"]]
    assert len(paths) == 1 and re.fullmatch(r"\$\.result\.tools\[\d+\]\.execution", paths[0]), paths
    assert diff["tools"]["changed"], diff["tools"]
    assert all(tool["changes"] or tool["breaking"] for tool in diff["tools"]["changed"]), diff["tools"]
    text = run_lens("diff", modern, legacy, timeout=120).stdout.splitlines()
    assert text[:2] == [f"A: {modern} (2026-07-28)", f"B: {legacy} (2025-11-25)"], text
    assert [line.split(" (A ")[0].split()[1:] for line in text if " tools/list: " in line] == [
        ["tools/list:", "different"]
    ], text
    assert "  ~ research_topic: execution added" in text, text
