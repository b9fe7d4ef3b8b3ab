"""Host views: each host rule on lists made to cross it, and the demo's and server-everything's lists per host."""

from __future__ import annotations

from typing import Any

import factories
import pytest

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.host_rules import HOSTS, find_host
from inspector.budget.hosts import host_diff, host_view, truncate_utf16
from inspector.budget.tokenizers import get_tokenizer


@pytest.fixture(scope="module")
def counter() -> BudgetCounter:
    return BudgetCounter(get_tokenizer("o200k_base"))


def tool(name: str, description: str = "Does a thing.") -> dict[str, Any]:
    return factories.tool(name, description, {"type": "object", "properties": {}})


def kinds(view: Any) -> list[str]:
    return [f.kind for f in view.findings]


def test_every_rule_has_a_source_a_date_and_a_status() -> None:
    for host in HOSTS.values():
        assert host.rules, host.name
        for rule in host.rules:
            assert (
                rule.source
                and rule.checked in ("2026-11-25", "2026-11-27")
                and rule.status in ("confirmed", "unconfirmed")
            )
            assert rule.confirmed or rule.note, f"{host.name} {rule.key}: an unconfirmed rule says why"
    assert HOSTS["cursor"].rule("tool-cap").status == "unconfirmed"  # the commonly cited 40 is not documented
    assert find_host("Claude Code") is HOSTS["claude-code"] and find_host("vs code") is HOSTS["vscode"]


def test_claude_code_prefixes_names_and_flags_the_ones_over_64(counter: BudgetCounter) -> None:
    long_name = "x" * 50  # 5 + 6 + 2 + 50 = 63 with server "server"; 64 with "server1"; 65 with "server12"
    view = host_view([tool("echo"), tool(long_name)], "claude-code", "server12", counter=counter, tool_search="off")
    assert [t.host_name for t in view.tools] == ["mcp__server12__echo", f"mcp__server12__{long_name}"]
    (finding,) = [f for f in view.findings if f.kind == "name-too-long"]
    assert finding.tool == long_name and "65 characters" in finding.message and finding.status == "confirmed"
    ok = host_view([tool(long_name)], "claude-code", "server1", counter=counter, tool_search="off")
    assert "name-too-long" not in kinds(ok)
    spaced = host_view([tool("echo")], "claude-code", "my server", counter=counter)
    assert spaced.tools[0].host_name == "mcp__my_server__echo"


def test_claude_code_cuts_a_3000_character_description_and_says_what_is_lost(counter: BudgetCounter) -> None:
    text = "Keep this. " * 186 + "TAIL-" * 190  # 2,046 + 950 characters
    view = host_view([tool("long", text)], "claude-code", "s", counter=counter, tool_search="off")
    (finding,) = [f for f in view.findings if f.kind == "description-truncated"]
    assert len(view.sent_tools[0]["description"]) == 2048
    assert finding.lost_text == text[2048:] and finding.lost_tokens == counter.count(text[2048:]) > 0
    assert view.tools[0].truncated and view.delta < 0  # the host sends less than the raw list
    assert truncate_utf16("a" + "😀" * 3, 4) == "a😀"  # never half a surrogate pair


def test_tool_caps_on_150_tools(counter: BudgetCounter) -> None:
    tools = [tool(f"t{i}") for i in range(150)]
    vscode = host_view(tools, "vscode", "s", counter=counter)
    (cap,) = [f for f in vscode.findings if f.kind == "over-tool-cap"]
    assert "150 tools" in cap.message and "128" in cap.message and cap.status == "confirmed"
    assert sum(t.sent for t in vscode.tools) == 128 and vscode.tools[-1].cost.total == 0
    cursor = host_view(tools, "cursor", "s", counter=counter)
    (cap,) = [f for f in cursor.findings if f.kind == "over-tool-cap"]
    assert cap.status == "unconfirmed" and "unconfirmed" in cap.message and sum(t.sent for t in cursor.tools) == 40
    assert "over-tool-cap" not in kinds(host_view(tools[:40], "cursor", "s", counter=counter))


def test_deferral_threshold_for_a_list_past_10_percent_of_the_window(counter: BudgetCounter) -> None:
    tools = [tool(f"tool_{i}", "word " * 400) for i in range(60)]  # ~24k tokens: past 10% of 200K
    auto = host_view(tools, "claude-code", "s", counter=counter, window=200_000, tool_search="auto")
    threshold = [f for f in auto.findings if f.kind == "deferral"]
    assert threshold[0].severity == "warning" and "over the 10% threshold" in threshold[0].message
    loaded = [t for t in auto.tools if not t.deferred]
    assert 0 < len(loaded) < 60 and sum(t.cost.total for t in loaded) + auto.report.overhead <= 20_000
    deferred = [t for t in auto.tools if t.deferred]
    assert all(t.cost.total == counter.count(t.host_name) for t in deferred)
    on = host_view(tools, "claude-code", "s", counter=counter)  # the documented default: all deferred
    assert on.tool_search == "on" and all(t.deferred for t in on.tools) and on.total < 1_000
    small = host_view(tools[:3], "claude-code", "s", counter=counter, tool_search="auto")
    assert "within the 10% threshold" in small.findings[0].message and not any(t.deferred for t in small.tools)


def test_raw_api_name_patterns(counter: BudgetCounter) -> None:
    openai = host_view([tool("a.b"), tool("ok")], "openai", "s", counter=counter)
    assert [f.tool for f in openai.findings if f.kind == "name-pattern"] == ["a.b"]
    anthropic = host_view([tool("y" * 100)], "anthropic", "s", counter=counter)
    assert "name-pattern" not in kinds(anthropic)
    desktop = host_view([tool("y" * 65)], "claude-desktop", "s", counter=counter)
    assert kinds(desktop)[0] == "name-pattern"


def test_real_servers_per_host(counter: BudgetCounter, demo_tools: list, everything_tools: list) -> None:
    for tools, server in ((demo_tools, "demo"), (everything_tools, "everything")):
        raw = counter.report(tools, "mcp").total
        for name in HOSTS:
            view = host_view(tools, name, server, counter=counter, tool_search="off")
            assert view.raw_total == raw and len(view.tools) == len(tools)
            assert view.total == view.report.total + view.report.overhead > 0
            assert view.findings[-1].kind == "host-delta" and view.to_json()["delta"] == view.delta
        claude = host_view(tools, "claude-code", server, counter=counter)
        assert all(t.host_name.startswith(f"mcp__{server}__") for t in claude.tools)
        assert claude.total < raw  # deferred by default: names only


def test_host_diff_compares_the_host_views(counter: BudgetCounter) -> None:
    old = [tool("echo"), tool("gone", "x " * 1500)]
    diff = host_diff(old, old[:1], "claude-code", "s", counter=counter, tool_search="off")
    assert [c.name for c in diff.removed] == ["mcp__s__gone"] and diff.breaking
    before = host_view(old, "claude-code", "s", counter=counter, tool_search="off")
    assert diff.old_total == before.total and diff.new_total < diff.old_total


def test_truncating_a_lone_surrogate_never_fails() -> None:
    """A server's "\\ud800" parses to a lone surrogate: Claude Code's cut used to raise UnicodeEncodeError
    (mcp-lens tokens --host claude-code exited with a Traceback; the Budget tab could not count)."""
    assert truncate_utf16("x\ud800" + "a" * 10, 5) == "x\ud800aaa"
    assert truncate_utf16("ab\ud800", 2) == "ab"
    assert truncate_utf16("a\udc00b", 2) == "a\udc00"
