"""Host acceptance: every tool of a written corpus judged by every host, each verdict traced to a rule with a
source; a 200-tool list against the tool caps; the demo's and server-everything's lists."""

from __future__ import annotations

from typing import Any

import pytest
from acceptance_corpus import CORPUS, EXPECTED, HOSTS, SERVER, two_hundred_tools

from inspector.budget.acceptance import ACCEPTED, CHANGED, REFUSED, RULE_CHECKS, acceptance, schema_nodes
from inspector.budget.host_rules import HOSTS as HOST_TABLE


def test_the_corpus_names_every_host_of_the_table() -> None:
    assert set(HOSTS) == set(HOST_TABLE)
    assert set(EXPECTED) == set(CORPUS)


@pytest.mark.parametrize("host", HOSTS)
def test_each_tool_of_the_corpus_gets_its_verdict_from_the_rule_behind_it(host: str) -> None:
    judged = acceptance(list(CORPUS.values()), host, SERVER)
    assert [v.tool for v in judged.verdicts] == list(CORPUS)
    wrong = {}
    for verdict in judged.verdicts:
        outcome, keys = EXPECTED[verdict.tool].get(host, (ACCEPTED, set()))
        got = {r.rule.key for r in verdict.reasons if r.outcome == verdict.outcome}
        if (verdict.outcome, got) != (outcome, keys):
            wrong[verdict.tool] = (verdict.outcome, got, verdict.summary())
        for reason in verdict.reasons:  # traceable: a rule of this host's table, with a source, a date, a status
            assert reason.rule in HOST_TABLE[host].rules and reason.rule.key in RULE_CHECKS
            assert reason.rule.source and reason.rule.checked and reason.rule.status in ("confirmed", "unconfirmed")
            assert reason.message
    assert not wrong, wrong


def test_verdicts_say_how_and_why_with_the_host_name() -> None:
    claude = acceptance(list(CORPUS.values()), "claude-code", SERVER)
    manual = claude.verdict("manual")
    assert manual is not None and manual.outcome == CHANGED and manual.host_name == "mcp__crm__manual"
    assert manual.summary() == "changed (named mcp__crm__manual): description cut at 2,048 characters (948 lost)"
    weather = claude.verdict("get_weather")
    assert weather is not None and weather.summary() == "accepted as is (named mcp__crm__get_weather)"
    strict = acceptance(list(CORPUS.values()), "openai-strict", SERVER).verdict("search")
    assert strict is not None and strict.outcome == REFUSED
    text = strict.summary()
    assert "inputSchema.properties.limit (not in required)" in text
    assert "'default' at inputSchema.properties.limit (not supported) (unconfirmed rule)" in text
    gemini = acceptance([CORPUS["find_orders"]], "gemini").verdicts[0].summary()
    for keyword in ("'$schema' at inputSchema ", "'$ref' at inputSchema.properties.filter", "'$defs'"):
        assert keyword in gemini, gemini


def test_a_200_tool_list_is_cut_at_each_hosts_cap() -> None:
    tools = two_hundred_tools()
    for host, cap in (("cursor", 40), ("vscode", 128), ("openai", 128), ("openai-strict", 128)):
        judged = acceptance(tools, host, SERVER)
        refused = judged.refused()
        assert [v.tool for v in refused] == [t["name"] for t in tools[cap:]], host
        assert {r.rule.key for v in refused for r in v.reasons} == {"tool-cap"}
        assert f"refused: tool {cap + 1} of 200: past the cap of {cap} tools, not sent" in refused[0].summary(), host
        assert judged.counts() == {"accepted": cap, "changed": 0, "refused": 200 - cap}
    for host in ("claude-code", "claude-desktop", "anthropic"):
        assert acceptance(tools, host, SERVER).counts()["accepted"] == 200, host
    assert acceptance(tools, "gemini", SERVER).counts()["refused"] == 200  # additionalProperties: false, each one


def test_a_hostile_schema_costs_a_bounded_walk() -> None:
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(20_000):
        node["properties"] = {"a": {"type": "object"}}
        node = node["properties"]["a"]
    assert sum(1 for _ in schema_nodes(deep)) == 5_000
    verdict = acceptance([{"name": "deep", "inputSchema": deep}], "openai-strict").verdicts[0]
    assert verdict.outcome == REFUSED and "and 4,997 more" in verdict.summary()
    odd = acceptance([{"name": 7, "inputSchema": "no"}, "not a tool", {"inputSchema": {"type": "object"}}], "gemini")
    assert [(v.tool, v.summary()) for v in odd.verdicts] == [
        ("7", "refused: the tool has no name (a string)"),
        ("None", "refused: the tool has no name (a string)"),
    ]


def test_real_servers_lists_per_host(demo_tools: list[dict[str, Any]], everything_tools: list[dict[str, Any]]) -> None:
    for host in HOSTS:
        demo = acceptance(demo_tools, host, "demo")
        assert len(demo.verdicts) == len(demo_tools)
    strict = acceptance(everything_tools, "openai-strict", "everything")
    assert strict.refused(), "server-everything's schemas are not closed: strict mode refuses some"
    assert all(v.outcome == ACCEPTED for v in acceptance(everything_tools, "cursor", "everything").verdicts)
