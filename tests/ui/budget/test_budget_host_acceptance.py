"""The Budget's host view says the host's verdicts: how many tools it accepts, changes and refuses first, then a
lint for each schema rule a tool breaks (the name and description rules are the host view's own findings)."""

from __future__ import annotations

from factories import tool

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.tokenizers import get_tokenizer
from inspector.ui.budget.host_picker import host_report

OPEN = {"type": "object", "properties": {"q": {"type": "string"}}}
CLOSED = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}


def test_the_host_view_lists_the_verdicts() -> None:
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    tools = [tool("open", "Open.", OPEN), tool("closed", "Closed.", CLOSED), tool("files.read", "Dotted.", CLOSED)]
    report = host_report(counter, tools, "openai-strict", "crm", 128_000)
    head = report.lints[0]
    assert (head.code, head.severity) == ("host-acceptance", "error")
    assert head.message == "OpenAI strict refuses 2 of 3 tools, changes 0, accepts 1 as is"
    mine = [lint for lint in report.lints if lint.code == "host-refused"]
    assert [(lint.tool, lint.severity) for lint in mine] == [("open", "error"), ("open", "error")]  # closed, required
    assert (
        "[confirmed] OpenAI strict refused 'open': additionalProperties is not false at inputSchema" in mine[0].message
    )
    about_name = [lint.code for lint in report.lints if lint.code.startswith("host-") and lint.tool == "files.read"]
    assert about_name == ["host-name-pattern"]  # said once, by the host view's own finding
    plain = host_report(counter, tools[1:2], "anthropic", "crm", 128_000)
    assert plain.lints[0].message == "Anthropic API accepts every tool as is (1)" and plain.lints[0].severity == "info"
