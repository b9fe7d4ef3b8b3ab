"""Each lint on a list built to trigger it, the real servers' lists, and near-duplicates at scale."""

from __future__ import annotations

import random
import time
from typing import Any

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.lints import LintMemo, LintOptions, lint_tools, near_duplicates, normalise
from inspector.budget.tokenizers import get_tokenizer

TOKENIZER = get_tokenizer("o200k_base")


def codes(lints: list[Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for lint in lints:
        out.setdefault(lint.code, []).append(lint.path)
    return out


def schema(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


def test_each_lint_fires_where_it_should() -> None:
    typed = {"type": "string", "description": "p"}
    ref = {"$ref": "#/$defs/x", "description": "r"}
    nested = {"type": "object", "properties": {"y": {}}}
    tools = [
        {"name": "good_tool", "description": "Reads a file.", "inputSchema": schema(path=typed)},
        {"name": "no description", "inputSchema": schema()},
        {"name": "wordy", "description": "word " * 400, "inputSchema": schema()},
        {"name": "untyped", "description": "Has an untyped parameter.", "inputSchema": schema(x={"description": "x"})},
        {"name": "nested", "description": "Nested.", "inputSchema": schema(o=nested)},
        {"name": "dup_a", "description": "Send an e-mail to the given address.", "inputSchema": schema()},
        {"name": "dup_b", "description": "send an E-MAIL to the given address!", "inputSchema": schema()},
        {"name": "x" * 65, "description": "Too long a name.", "inputSchema": schema()},
        {"name": "no_schema", "description": "Forgot the schema."},
        {"name": "good_tool", "description": "Same name again.", "inputSchema": schema()},
        {"name": "ref_ok", "description": "Typed by $ref.", "inputSchema": schema(r=ref)},
    ]
    found = codes(lint_tools(tools, TOKENIZER, LintOptions(max_description_tokens=100, max_tools=5)))
    assert found["missing-description"] == ["tools[1].description"]
    assert found["long-description"] == ["tools[2].description"]
    assert found["untyped-property"] == [
        "tools[3].inputSchema.properties.x",
        "tools[4].inputSchema.properties.o.properties.y",
    ]
    assert "tools[4].inputSchema.properties.o" in found["missing-param-description"]
    assert found["duplicate-description"] == ["tools[6].description"]
    assert sorted(found["invalid-name"]) == ["tools[1].name", "tools[7].name"]
    assert found["missing-input-schema"] == ["tools[8].inputSchema"]
    assert found["duplicate-name"] == ["tools[9].name"]
    assert found["too-many-tools"] == ["tools"]
    assert not any("tools[10]" in path for paths in found.values() for path in paths)  # $ref counts as a type


def test_errors_come_first_and_messages_are_plain() -> None:
    lints = lint_tools(
        [{"name": "bad name", "inputSchema": schema(a={})}, {"name": "n", "description": "d", "inputSchema": schema()}],
        TOKENIZER,
    )
    severities = [lint.severity for lint in lints]
    assert severities == sorted(severities, key=["error", "warning", "info"].index)
    assert lints[0].code == "invalid-name" and "^[a-zA-Z0-9_-]{1,64}$" in lints[0].message
    assert lints[0].to_json()["tool"] == "bad name"


def test_real_servers_lint_cleanly(demo_tools: list[dict[str, Any]], everything_tools: list[dict[str, Any]]) -> None:
    assert [lint for lint in lint_tools(demo_tools, TOKENIZER) if lint.severity == "error"] == []
    everything = codes(lint_tools(everything_tools, TOKENIZER))
    assert "invalid-name" not in everything and "missing-description" not in everything
    assert codes(lint_tools(everything_tools, TOKENIZER, LintOptions(max_tools=5)))["too-many-tools"] == ["tools"]
    # the demo's app-only tool (reroll_dice: MCP Apps visibility ["app"]) is said to be kept from the model
    app_only = [lint for lint in lint_tools(demo_tools, TOKENIZER) if lint.code == "app-only-tool"]
    assert [lint.tool for lint in app_only] == ["reroll_dice"] and app_only[0].severity == "info"


def test_near_duplicates_found_and_distinct_ones_not() -> None:
    base = "Search the customer database for orders placed in the last thirty days and return them as a list"
    tools = [
        {"name": "a", "description": base, "inputSchema": schema()},
        {"name": "b", "description": base.replace("thirty", "sixty"), "inputSchema": schema()},
        {"name": "c", "description": "Render a PNG chart of monthly revenue by region.", "inputSchema": schema()},
        {"name": "d", "description": "Search the customer database for invoices.", "inputSchema": schema()},
    ]
    found = [lint for lint in lint_tools(tools, TOKENIZER) if lint.code == "near-duplicate-description"]
    assert [(lint.tool, lint.path) for lint in found] == [("b", "tools[1].description")]
    assert "'a'" in found[0].message and "%" in found[0].message
    assert not [lint for lint in lint_tools(tools, TOKENIZER, LintOptions(near_duplicate=1.01)) if "near" in lint.code]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    letters = "bcdfghjklmnprstvz"
    vowels = "aeiou"
    return ["".join(rng.choice(letters) + rng.choice(vowels) for _ in range(rng.randint(2, 4))) for _ in range(size)]


def test_near_duplicates_scale_to_1000_tools() -> None:
    rng = random.Random(3)
    words = _vocabulary(rng, 3000)
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(15, 40))) for _ in range(1000)]
    planted = {(10, 900), (250, 251), (600, 42)}
    for i, j in planted:
        tail = texts[i].split()
        tail[len(tail) // 2] = "changed"
        texts[j] = " ".join(tail)
    items = [(i, normalise(t)) for i, t in enumerate(texts)]
    memo = LintMemo()
    started = time.perf_counter()
    pairs = near_duplicates(items, 0.9, memo)
    elapsed = time.perf_counter() - started
    assert {tuple(sorted((i, j))) for i, j, _ in pairs} == {tuple(sorted(p)) for p in planted}
    assert elapsed < 1.0
    items[77] = (77, items[77][1] + " plus")
    started = time.perf_counter()
    near_duplicates(items, 0.9, memo)
    assert time.perf_counter() - started < 0.2  # only the edited text is new


def test_counter_reuses_lint_work() -> None:
    tools = [{"name": f"t{i}", "description": f"tool {i} does thing {i}", "inputSchema": schema()} for i in range(300)]
    counter = BudgetCounter(TOKENIZER)
    first = counter.report(tools).lints
    tools[3] = {**tools[3], "description": ""}
    second = counter.report(tools).lints
    assert [lint.path for lint in second if lint.code == "missing-description"] == ["tools[3].description"]
    assert not [lint for lint in first if lint.code == "missing-description"]


def test_a_family_of_near_identical_descriptions_is_reported_as_a_chain() -> None:
    template = "Return the current {} reading from the building's sensor network, in SI units, for one room"
    kinds = ["temperature", "humidity", "pressure", "radiation", "brightness", "noise", "airflow", "voltage", "motion"]
    kinds += ["ozone", "dust", "smoke"]
    tools = [{"name": k, "description": template.format(k), "inputSchema": schema()} for k in kinds]
    tools.append(
        {"name": "other", "description": "Open the garage door after checking the camera.", "inputSchema": schema()}
    )
    near = [lint for lint in lint_tools(tools, TOKENIZER) if lint.code == "near-duplicate-description"]
    flagged = {lint.tool for lint in near}
    assert len(flagged) >= len(kinds) - 2 and "other" not in flagged
