"""``mcp-lens tokens --host``: the host's view (text, JSON, CSV), ``--host list``, the gates on the host's figure.

In process, from a ``--tools-file`` (no server): the host views themselves are tested on real servers'
lists in test_hosts.py.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from factories import tool

from inspector.budget.host_rules import HOSTS
from inspector.cli import exit_codes
from inspector.cli.tokens import main


def _tools_file(tmp_path: Path, name: str, tools: list[dict]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return str(path)


TOOLS = [
    tool("echo", "Echo the text back.", {"type": "object", "properties": {}}),
    tool("y" * 60, "Keep. " * 400, {"type": "object", "properties": {}}),
]


def test_host_list_and_an_unknown_host(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--host", "list", "--format", "json"]) == exit_codes.OK
    table = json.loads(capsys.readouterr().out)
    assert [h["name"] for h in table] == list(HOSTS)
    cursor = next(h for h in table if h["name"] == "cursor")
    assert cursor["rules"][0]["status"] == "unconfirmed" and cursor["rules"][0]["checked"] == "2026-11-25"
    assert main(["--host", "list"]) == exit_codes.OK and "source: https://code.claude.com" in capsys.readouterr().out
    assert main(["--tools-file", "x.json", "--host", "netscape"]) == exit_codes.USAGE
    assert "unknown host" in capsys.readouterr().err


def test_claude_code_view_json_csv_and_gates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    current = _tools_file(tmp_path, "now.json", TOOLS)
    base = ["--tools-file", current, "--host", "claude-code", "--tool-search", "off", "--window", "200K"]
    assert main([*base, "--format", "json"]) == exit_codes.OK
    view = json.loads(capsys.readouterr().out)
    assert view["tools"][0]["host_name"].startswith("mcp__") and view["tools"][0]["host_name"].endswith("__echo")
    found = {f["kind"]: f for f in view["findings"]}
    assert found["name-too-long"]["status"] == "confirmed" and found["name-too-long"]["tool"] == "y" * 60
    assert found["description-truncated"]["lost_chars"] == 2400 - 2048 and found["description-truncated"]["lost_tokens"]
    assert view["delta"] == view["total"] - view["raw_total"]

    assert main([*base, "--format", "csv"]) == exit_codes.OK
    rows = list(csv.reader(capsys.readouterr().out.splitlines()))
    assert rows[0] == ["host", "tool", "host_name", "state", "tokens"] and rows[2][3] == "loaded, truncated"
    assert rows[-1][3:] == ["total", str(view["total"])]
    # --max-tokens gates the host's figure, not the raw list's
    total = view["total"]
    assert main([*base, "--max-tokens", str(total)]) == exit_codes.OK
    capsys.readouterr()
    assert main([*base, "--max-tokens", str(total - 1)]) == exit_codes.OVER_BUDGET
    assert "Claude Code view" in capsys.readouterr().err
    # --baseline diffs the host's views: the echo tool removed is breaking
    before = _tools_file(tmp_path, "before.json", [*TOOLS, {**TOOLS[0], "name": "gone"}])
    assert main([*base, "--baseline", before]) == exit_codes.DIFF
    out = capsys.readouterr().out
    assert "(Claude Code view)" in out and "BREAKING" in out


def test_an_openai_count_of_claudes_shape_is_never_called_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The words of the Budget tab (`describe_figure`): o200k under the Anthropic shape or a Claude host is an
    estimate, in every format (it said "exact" in the JSON and the text heading)."""
    current = _tools_file(tmp_path, "now.json", TOOLS)
    for extra in (["--shape", "anthropic"], ["--host", "claude-desktop"]):
        assert main(["--tools-file", current, "--encoding", "o200k_base", *extra, "--format", "json"]) == exit_codes.OK
        out = json.loads(capsys.readouterr().out)
        report = out["reports"][0] if "reports" in out else out
        assert report["exact"] is False and report["figure"] == "estimate", extra
        for fmt in ("text", "markdown"):
            assert main(["--tools-file", current, "--encoding", "o200k_base", *extra, "--format", fmt]) == exit_codes.OK
            heading = next(
                line for line in capsys.readouterr().out.splitlines() if "o200k" in line or "estimate" in line
            )
            assert "exact" not in heading and "estimate" in heading, (extra, fmt, heading)
    assert main(["--tools-file", current, "--encoding", "o200k_base", "--format", "json"]) == exit_codes.OK
    assert json.loads(capsys.readouterr().out)["reports"][0]["exact"] is True  # the MCP shape: exact
