"""Snapshots on disk and the diff of tool lists, including the demo server's live list_changed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import factories
import pytest
from budget_support import demo_before_after_toggle

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.snapshot import (
    FORMAT,
    Snapshot,
    SnapshotError,
    compare_tool,
    diff_tools,
    load_snapshot,
    save_snapshot,
)
from inspector.budget.tokenizers import get_tokenizer

COUNTER = BudgetCounter(get_tokenizer("o200k_base"))


def test_round_trip(tmp_path: Path, demo_tools: list[dict[str, Any]]) -> None:
    path = tmp_path / "demo.snapshot.json"
    snapshot = Snapshot.now("mcp-lens-demo", demo_tools, "python -m inspector.demo", protocolVersion="2025-11-25")
    save_snapshot(path, snapshot)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == FORMAT and data["version"] == 1
    loaded = load_snapshot(path)
    assert loaded == snapshot
    assert loaded.taken_at.endswith("Z")
    assert not list(tmp_path.glob("*.tmp"))


def test_plain_tools_list_files_are_accepted(tmp_path: Path) -> None:
    tools = [factories.tool("a", None)]
    (tmp_path / "result.json").write_text(json.dumps({"tools": tools}))
    (tmp_path / "array.json").write_text(json.dumps(tools))
    assert load_snapshot(tmp_path / "result.json").tools == tools
    assert load_snapshot(tmp_path / "array.json").source == "file"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read snapshot"),
        ("{not json", "is not JSON"),
        ('"a string"', "expected a JSON object"),
        ('{"hello": 1}', "not an MCP Lens snapshot"),
        (f'{{"format": "{FORMAT}", "version": 99, "tools": []}}', "newer than this MCP Lens reads"),
        (f'{{"format": "{FORMAT}", "version": "1", "tools": []}}', "bad snapshot version"),
        (f'{{"format": "{FORMAT}", "version": 1, "tools": {{}}}}', '"tools" must be a list'),
        (f'{{"format": "{FORMAT}", "version": 1, "tools": [1]}}', r"tools\[0\] is not an object"),
    ],
)
def test_bad_files_give_clear_errors(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "snap.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(SnapshotError, match=message):
        load_snapshot(path)


def test_unwritable_target_is_a_snapshot_error(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    with pytest.raises(SnapshotError, match="cannot write snapshot"):
        save_snapshot(tmp_path / "a-file" / "s.json", Snapshot.now("s", [], "x"))


def tool(**schema_properties: Any) -> dict[str, Any]:
    return factories.tool("t", "d", {"type": "object", "properties": schema_properties, "required": ["a"]})


def test_breaking_changes_are_named() -> None:
    old = tool(
        a={"type": "string"}, b={"type": "integer"}, c={"type": "string", "enum": ["x", "y"]}, d={"type": "number"}
    )
    new = copy.deepcopy(old)
    props = new["inputSchema"]["properties"]
    props["a"]["type"] = "integer"  # type changed
    del props["b"]  # property removed
    props["c"]["enum"] = ["x"]  # enum value removed
    props["d"]["type"] = ["number", "null"]  # widened: not breaking
    props["e"] = {"type": "string"}
    new["inputSchema"]["required"] = ["a", "e"]  # new required property
    changes, breaking = compare_tool(old, new)
    text = "\n".join(breaking)
    assert "properties.a: type changed" in text
    assert "properties.b: property removed" in text
    assert 'properties.c: enum value removed: "y"' in text
    assert "properties.e: new required property" in text
    assert not any("properties.d" in b for b in breaking)
    assert any("properties.d: type widened" in c for c in changes)


def test_non_breaking_changes() -> None:
    old = tool(a={"type": "string", "enum": ["x"]})
    new = copy.deepcopy(old)
    new["description"] = "a better description"
    new["inputSchema"]["properties"]["a"]["enum"] = ["x", "y"]
    new["inputSchema"]["properties"]["z"] = {"type": "string"}
    changes, breaking = compare_tool(old, new)
    assert breaking == []
    assert "description changed" in changes
    assert any("optional property added" in c for c in changes)
    assert any("enum value added" in c or "enum values added" in c for c in changes)


def test_diff_of_lists_counts_tokens() -> None:
    a = factories.tool("a", "alpha")
    b = factories.tool("b", "beta")
    c = factories.tool("c", "gamma " * 20)
    diff = diff_tools([a, b], [a, {**b, "description": "beta, now longer"}, c], COUNTER)
    assert [x.name for x in diff.added] == ["c"] and diff.added[0].new_tokens > 20
    assert [x.name for x in diff.changed] == ["b"] and diff.changed[0].delta > 0
    assert diff.removed == [] and not diff.breaking
    assert diff.growth() == pytest.approx((diff.new_total - diff.old_total) / diff.old_total)
    gone = diff_tools([a, b], [a], COUNTER)
    assert gone.breaking and gone.removed[0].name == "b" and gone.growth() < 0
    same = diff_tools([a, b], copy.deepcopy([a, b]), COUNTER)
    assert same.unchanged and same.growth() == 0.0


def test_demo_list_changed_shows_roll_dice_and_its_tokens(tmp_path: Path) -> None:
    before, after = demo_before_after_toggle()
    path = tmp_path / "before.json"
    save_snapshot(path, Snapshot.now("mcp-lens-demo", before, "demo"))
    diff = diff_tools(load_snapshot(path).tools, after, COUNTER, "openai")
    assert [change.name for change in diff.added] == ["roll_dice"]
    assert diff.removed == [] and not diff.breaking
    roll = next(t for t in after if t["name"] == "roll_dice")
    alone = COUNTER.report([roll], "openai").tools[0].total
    assert diff.added[0].new_tokens == alone > 20
    assert diff.new_total - diff.old_total == pytest.approx(alone, abs=3)  # plus a comma between tools
    assert diff.to_json()["added"][0]["delta"] == alone
    back = diff_tools(after, before, COUNTER)
    assert back.breaking and back.removed[0].name == "roll_dice"


def test_a_changed_tool_names_every_field_that_changed() -> None:
    """OT7 #18: a tool whose `execution` (or `icons`, or any member) changed was listed "changed" with no change
    named; the same members in another order are said as such."""
    old = factories.tool("t", "alpha")
    new = {**copy.deepcopy(old), "execution": {"taskSupport": "optional"}, "icons": [{"src": "data:,"}]}
    changes, breaking = compare_tool(old, new)
    assert breaking == [] and "execution added" in changes and "icons added" in changes
    changes, _ = compare_tool(new, {**new, "execution": {"taskSupport": "required"}})
    assert changes == ["execution changed"]
    reordered = dict(reversed(list(old.items())))
    diff = diff_tools([old], [reordered], COUNTER)
    assert [change.changes for change in diff.changed] == [["the same members in another order"]], diff.to_json()
