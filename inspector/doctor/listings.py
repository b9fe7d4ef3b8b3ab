"""The doctor's list checks: each list paged to its end (`ProbeState.page` says when pagination never
ends) and checked as the rest of MCP Lens checks it (`core/findings.py`, `core/paging.py`), then the
static checks of the tools (`static_checks`). Each is one entry of `table.CHECKS`."""

from __future__ import annotations

from inspector.doctor import static_checks
from inspector.doctor.sections import SECTION_PROMPTS, SECTION_RESOURCES, SECTION_TEMPLATES, SECTION_TOOLS
from inspector.doctor.state import ProbeState


async def pagination(state: ProbeState) -> None:
    """Named once before the lists: every list below is paged to its end."""
    state.report.ran.append("pagination")


async def list_tools(state: ProbeState) -> None:
    from inspector.core.findings import check_tools
    from inspector.core.operations import ToolListing, header_findings

    state.report.ran.append("tools-list")
    state.tools, findings = await state.listed("tools/list", "tools", SECTION_TOOLS)
    state.conn.tools = ToolListing(tools=state.tools, pages=1)  # call_tool checks results against these
    findings = findings + check_tools(state.tools)
    if state.conn.era == "modern":
        findings += header_findings(state.tools)
    static_checks.add_core(state.report, "tools-list", findings, SECTION_TOOLS)


async def tool_schemas(state: ProbeState) -> None:
    static_checks.check_tool_schemas(state.report, state.tools)


async def tool_names(state: ProbeState) -> None:
    name = state.options.host_server_name or str(state.conn.server_info.get("name") or "server")
    static_checks.check_tool_names(state.report, state.tools, name)


async def budget(state: ProbeState) -> None:
    if state.tokenizer is None:
        state.report.skip("budget", state.options.no_tokenizer)
    static_checks.check_budget(state.report, state.tools, state.tokenizer)


async def list_resources(state: ProbeState) -> None:
    """resources/list, then resources/templates/list (its findings under ``templates-list``)."""
    from inspector.core.paging import check_named

    state.report.ran.append("resources-list")
    state.resources, findings = await state.listed("resources/list", "resources", SECTION_RESOURCES)
    findings += check_named(state.resources, "$.resources", required=("uri", "name"), unique="uri", what="resource")
    static_checks.add_core(state.report, "resources-list", findings, SECTION_RESOURCES)
    state.templates, findings = await state.listed("resources/templates/list", "resourceTemplates", SECTION_TEMPLATES)
    findings += check_named(
        state.templates, "$.resourceTemplates", required=("uriTemplate", "name"), unique="uriTemplate", what="template"
    )
    static_checks.add_core(state.report, "templates-list", findings, SECTION_TEMPLATES)


async def list_prompts(state: ProbeState) -> None:
    from inspector.core.paging import check_named

    state.report.ran.append("prompts-list")
    state.prompts, findings = await state.listed("prompts/list", "prompts", SECTION_PROMPTS)
    findings += check_named(state.prompts, "$.prompts", required=("name",), unique="name", what="prompt")
    static_checks.add_core(state.report, "prompts-list", findings, SECTION_PROMPTS)
