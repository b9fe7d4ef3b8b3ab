"""The budget counts a 2020-12 inputSchema as the server wrote it: every keyword, key order kept, an
unknown `x-` keyword included (issue 13 point 7). Listed through the lite CLI path and the full one."""

from __future__ import annotations

import json
from typing import Any

from budget_support import list_tools

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.shapes import dumps
from inspector.budget.tokenizers import get_tokenizer
from tests.schema.schema_server import tools_text
from tests.schema.schema_support import SCHEMA_SERVER, key_order

WIRE = json.loads(tools_text("https://canary.invalid/profile-schema.json"))["tools"]


def test_listed_tools_are_the_wire_tools_in_order() -> None:
    listed = list_tools(SCHEMA_SERVER)
    assert key_order(listed) == key_order(WIRE)


def test_budget_counts_each_schema_as_sent() -> None:
    listed: list[dict[str, Any]] = list_tools(SCHEMA_SERVER)
    tokenizer = get_tokenizer("o200k_base")
    report = BudgetCounter(tokenizer).report(listed, "mcp")
    assert report.total == tokenizer.count(dumps({"tools": WIRE}))
    for cost, tool in zip(report.tools, WIRE, strict=True):
        assert cost.total == tokenizer.count(dumps(tool)), cost.name
        assert cost.parts["input_schema"] >= tokenizer.count(dumps(tool["inputSchema"])) - 2
    focal = dumps(listed[0])
    for keyword in ('"$schema":', '"$defs":', '"$anchor":', '"allOf":', '"if":', '"additionalProperties":false'):
        assert keyword in focal
    assert '"x-vendor":{"keep":[1.5,10,null]}' in dumps(listed[3])
