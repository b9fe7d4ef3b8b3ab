"""Each lint on a list built to trigger it, the real servers' lists, and near-duplicates at scale."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from factories import tool
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.budget import lints
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
        tool("good_tool", "Reads a file.", schema(path=typed)),
        tool("no description", None, schema()),
        tool("wordy", "word " * 400, schema()),
        tool("untyped", "Has an untyped parameter.", schema(x={"description": "x"})),
        tool("nested", "Nested.", schema(o=nested)),
        tool("dup_a", "Send an e-mail to the given address.", schema()),
        tool("dup_b", "send an E-MAIL to the given address!", schema()),
        tool("x" * 65, "Too long a name.", schema()),
        tool("no_schema", "Forgot the schema.", None),
        tool("good_tool", "Same name again.", schema()),
        tool("ref_ok", "Typed by $ref.", schema(r=ref)),
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
        [tool("bad name", None, schema(a={})), tool("n", "d", schema())],
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
        tool("a", base, schema()),
        tool("b", base.replace("thirty", "sixty"), schema()),
        tool("c", "Render a PNG chart of monthly revenue by region.", schema()),
        tool("d", "Search the customer database for invoices.", schema()),
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
    tools = [tool(f"t{i}", f"tool {i} does thing {i}", schema()) for i in range(300)]
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
    tools = [tool(k, template.format(k), schema()) for k in kinds]
    tools.append(tool("other", "Open the garage door after checking the camera.", schema()))
    near = [lint for lint in lint_tools(tools, TOKENIZER) if lint.code == "near-duplicate-description"]
    flagged = {lint.tool for lint in near}
    assert len(flagged) >= len(kinds) - 2 and "other" not in flagged


def test_long_descriptions_are_kept_as_digests_found_equal_but_never_compared_by_character() -> None:
    """Two near-identical descriptions of 100,000 characters went to `SequenceMatcher` (390 s for that pair;
    20,000 characters took 6 s), and every description up to 1 MB kept its normal form beside it (issue 21
    point 4). Past `LintMemo.HUGE` a description is its digest: equal ones are duplicates, no more."""
    long = " ".join(f"word{n % 997}" for n in range(20_000))
    tools = [
        {"name": "a", "description": long, "inputSchema": {"type": "object"}},
        {"name": "b", "description": long.replace("word5 ", "word6 ", 3), "inputSchema": {"type": "object"}},
        {"name": "c", "description": str(long), "inputSchema": {"type": "object"}},
    ]
    memo = LintMemo()
    lints = lint_tools(tools, TOKENIZER, memo=memo)
    assert [(lint.code, lint.tool) for lint in lints if "duplicate" in lint.code] == [("duplicate-description", "c")]
    assert all(len(normal) < 100 for normal in memo.normal.values())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aΣσς.'İ \n_-1", max_size=80), st.integers(min_value=1, max_value=12))
def test_the_normal_form_read_in_pieces_is_the_whole_texts(text: str, piece: int) -> None:
    """`normalise` lower-cases a piece at a time (no megabyte copy): the same words as lower-casing the whole,
    a final sigma included."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lints, "_NORMAL_PIECE", piece)
        assert normalise(text) == " ".join(re.findall(r"\w+", text.lower()))
