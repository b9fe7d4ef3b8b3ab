"""The doctor's checks, one table: each check's id, what it checks, when it runs and what it needs.

`engine.run_doctor` runs the stages in `Stage` order and, within a stage, the checks in table order;
every finding carries the id of a check of this table: a list that cannot be read, a server that crashed,
stopped answering (the request that hung named) or lost its connection are findings of the check
running then (``connects`` before any). A check whose `applies` says it is not for the connection (HTTP
only, one era only) is "not applicable", even when the server stopped before its turn. Each stage passes
its checks the same arguments:

- `Stage.CONNECTED` ``(report, conn)``, as soon as the connection is open;
- `Stage.LISTS` ``(state)``: the lists, each when its capability is declared; a crash ends the stage
  and the probes after it (they are not reached);
- `Stage.PROBES`, `Stage.TOOL_CALLS` ``(state, index, tool)`` for each tool the doctor may call (the
  two checks in turn for one tool, then the next), `Stage.READS`: a crash skips the rest, said once;
- `Stage.WIRE` ``(report, store)``: what the server wrote besides its answers, even after a crash;
- `Stage.OTHER_ERA` ``(report, open_connection, claimed)``: after the connection closed.

To add a check: write its function (it appends its id to ``report.ran`` and adds its findings; when it
does not run it says why: ``report.not_applicable(id, why)`` or ``report.skip(id, why)``, per tool with
``item=``), add it here in its place with the section it enforces, and plant its fault in
`tests/servers/doctor_faults.py`. The engine says the rest: a capability in ``needs`` not declared (not
applicable), no tool the doctor may call, a crash or a lost connection before it (skipped); every run's
``report.coverage`` lists each check of this table, ran or not and why, and every output says it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from inspector.doctor import (
    applies,
    host_acceptance,
    http_checks,
    input_checks,
    listings,
    modern_checks,
    probes,
    resource_checks,
    skills_checks,
    static_checks,
    stream_checks,
    tool_probes,
)
from inspector.doctor import sections as s


class Stage(Enum):
    CONNECTED = "connected"
    LISTS = "lists"
    PROBES = "probes"
    TOOL_CALLS = "tool calls"
    READS = "reads"
    WIRE = "wire"
    OTHER_ERA = "other era"


@dataclass(frozen=True)
class Check:
    id: str
    stage: Stage
    run: Callable[..., Any]
    what: str
    needs: str | None = None  # a capability the server must declare for the check to run
    also: tuple[str, ...] = ()  # further ids it reports (in ``report.ran``) as it runs
    section: str = ""  # the spec section (or host rule, or MCP Lens's own) it enforces: `sections`
    applies: Callable[[Any], str | None] | None = None  # from the connection: why it does not apply, or None

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.id, *self.also)


CHECKS: tuple[Check, ...] = (
    Check(
        "connects",
        Stage.CONNECTED,
        static_checks.check_connects,
        "the era and protocol version negotiated",
        section=s.SECTION_LIFECYCLE,
    ),
    Check(
        "handshake",
        Stage.CONNECTED,
        static_checks.check_handshake,
        "initialize / server/discover's shape",
        section=s.SECTION_LIFECYCLE,
    ),
    Check(
        "pagination",
        Stage.LISTS,
        listings.pagination,
        "every list below ends (no endless or repeated cursor)",
        section=s.SECTION_PAGINATION,
    ),
    Check(
        "tools-list",
        Stage.LISTS,
        listings.list_tools,
        "tools/list: each tool as the spec says",
        "tools",
        section=s.SECTION_TOOLS,
    ),
    Check(
        "tool-form",
        Stage.LISTS,
        listings.tool_schemas,
        "each valid inputSchema makes a form; defaults and examples fit their schema",
        "tools",
        also=("schema-examples",),
        section=f"{s.SECTION_LENS_FORM}; {s.SECTION_SCHEMA}",
    ),
    Check(
        "tool-name",
        Stage.LISTS,
        listings.tool_names,
        "the spec's naming rule, Claude's length",
        "tools",
        section=f"{s.SECTION_TOOL_NAMES}; {s.SECTION_CLAUDE}",
    ),
    Check(
        "budget",
        Stage.LISTS,
        listings.budget,
        "the Budget tab's lints (with a tokenizer)",
        "tools",
        section=s.SECTION_LENS_BUDGET,
    ),
    Check(
        "host-acceptance",
        Stage.LISTS,
        host_acceptance.check_hosts,
        "each tool as each host chosen with --host takes it: accepted, changed (how) or refused (why); "
        "its own section, apart from the score",
        "tools",
        section=s.SECTION_HOSTS,
    ),
    Check(
        "resources-list",
        Stage.LISTS,
        listings.list_resources,
        "resources/list and resources/templates/list",
        "resources",
        also=("templates-list",),
        section=f"{s.SECTION_RESOURCES}; {s.SECTION_TEMPLATES}",
    ),
    Check("prompts-list", Stage.LISTS, listings.list_prompts, "prompts/list", "prompts", section=s.SECTION_PROMPTS),
    Check(
        "skills-list",
        Stage.LISTS,
        skills_checks.check_skills_list,
        "Skills: the declaration, every skills/list page and entry (names, digests, sizes, limits), skills/get",
        section=skills_checks.SECTION_SKILLS,
    ),
    Check(
        "list-changed",
        Stage.PROBES,
        probes.check_list_changed,
        "list_changed sent only when declared",
        section=s.SECTION_LIST_CHANGED,
    ),
    Check(
        "ping",
        Stage.PROBES,
        probes.check_ping,
        "ping answers, promptly (legacy era)",
        section=s.SECTION_PING,
        applies=applies.legacy,
    ),
    Check(
        "unknown-tool",
        Stage.PROBES,
        tool_probes.check_unknown_tool,
        "an unknown tool is an error",
        "tools",
        section=s.SECTION_TOOL_ERRORS,
    ),
    Check(
        "resource-not-found",
        Stage.PROBES,
        resource_checks.check_resource_not_found,
        "an unknown resource is an error (-32002; -32602 with data.uri in 2026-07-28)",
        "resources",
        section=f"{s.SECTION_RESOURCE_ERRORS}; {s.SECTION_NOT_FOUND_MODERN}",
    ),
    Check(
        "dns-rebinding",
        Stage.PROBES,
        http_checks.check_dns_rebinding,
        "a loopback HTTP server refuses a foreign Host / Origin (4xx)",
        section=s.SECTION_DNS_REBINDING,
        applies=applies.loopback_http,
    ),
    Check(
        "session-lifecycle",
        Stage.PROBES,
        http_checks.check_session_lifecycle,
        "HTTP sessions: an unknown or ended Mcp-Session-Id gets 404, DELETE ends one (legacy era; "
        "on 2026-07-28, when the server answers the doctor's initialize too)",
        section=s.SECTION_SESSIONS,
        applies=applies.http,
    ),
    Check(
        "sse-streams",
        Stage.PROBES,
        stream_checks.check_sse_streams,
        "HTTP: several requests at once, each its own POST, all answered 2xx with readable streams (both eras; "
        "on 2026-07-28 with no era chosen, also in a session when the server answers the doctor's initialize)",
        section=s.SECTION_STREAMS,
        applies=applies.http,
    ),
    Check(
        "mcp-headers",
        Stage.PROBES,
        http_checks.check_mcp_headers,
        "Mcp-Method / Mcp-Name checked against the body: 400 and -32020 (2026-07-28, HTTP)",
        section=s.SECTION_MCP_HEADERS,
        applies=applies.modern_http,
    ),
    Check(
        "stateless",
        Stage.PROBES,
        modern_checks.check_stateless,
        "each request's _meta and version checked: -32602, -32022, -32020, -32601 (2026-07-28, HTTP)",
        section=s.SECTION_STATELESS,
        applies=applies.modern_http,
    ),
    Check(
        "input-required",
        Stage.PROBES,
        input_checks.check_input_required,
        "no input_required on a list; a changed requestState refused (2026-07-28)",
        section=s.SECTION_INPUT_REQUIRED,
        applies=applies.modern,
    ),
    Check(
        "caching",
        Stage.PROBES,
        modern_checks.check_caching,
        "ttlMs and cacheScope on every cacheable result (2026-07-28)",
        section=s.SECTION_CACHING,
        applies=applies.modern,
    ),
    Check(
        "invalid-arguments",
        Stage.TOOL_CALLS,
        tool_probes.check_invalid_arguments,
        "invalid arguments give isError (or -32602), not a crash or a hang",
        "tools",
        section=s.SECTION_TOOL_ERRORS,
    ),
    Check(
        "structured-content",
        Stage.TOOL_CALLS,
        tool_probes.check_structured,
        "structuredContent fits the outputSchema",
        "tools",
        section=s.SECTION_STRUCTURED,
    ),
    Check(
        "resources-read",
        Stage.READS,
        probes.check_resources,
        "each listed resource can be read",
        "resources",
        section=s.SECTION_RESOURCES,
    ),
    Check(
        "templates-expand",
        Stage.READS,
        probes.check_templates,
        "each URI template expands",
        "resources",
        section=s.SECTION_TEMPLATES,
    ),
    Check(
        "prompts-get",
        Stage.READS,
        probes.check_prompts,
        "each listed prompt can be got",
        "prompts",
        section=s.SECTION_PROMPTS,
    ),
    Check(
        "skills-verify",
        Stage.READS,
        skills_checks.check_skills_verify,
        "Skills: each listed skill's SKILL.md matches its entry (size, SHA-256 digest, frontmatter)",
        section=skills_checks.SECTION_SKILLS,
    ),
    Check(
        "stdout",
        Stage.WIRE,
        static_checks.check_stdout,
        "only JSON-RPC on stdout",
        also=("stderr",),
        section=s.SECTION_STDIO,
    ),
    Check(
        "connects-legacy",
        Stage.OTHER_ERA,
        probes.check_other_era,
        "a modern server's claimed legacy versions connect with initialize (one that claims none is asked too, "
        "and what it does is said)",
        section=s.SECTION_LIFECYCLE,
    ),
)


def stage(which: Stage, capabilities: Any = None) -> list[Check]:
    """The checks of `which`, in order; with `capabilities`, only those whose capability is declared."""
    return [c for c in CHECKS if c.stage is which and (capabilities is None or not c.needs or c.needs in capabilities)]
