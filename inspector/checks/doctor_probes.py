"""The doctor's live checks: lists paged to their end, and requests whose answers the spec prescribes.

Every request has the doctor's timeout; a server that dies or hangs is a finding, and once it has
died the remaining probes are skipped (said as such). Tools are called only as `doctor.py` says.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from inspector.checks import doctor_checks
from inspector.checks.doctor import (
    SECTION_LIFECYCLE,
    SECTION_LIST_CHANGED,
    SECTION_PAGINATION,
    SECTION_PING,
    SECTION_PROMPTS,
    SECTION_RESOURCES,
    SECTION_STRUCTURED,
    SECTION_TEMPLATES,
    SECTION_TOOL_ERRORS,
    SECTION_TOOLS,
    ConnectionFactory,
    DoctorOptions,
    DoctorReport,
)
from inspector.core.errors import ConnectFailed, LensError, ProtocolError, RequestTimeout

UNKNOWN_TOOL = "mcp-lens-doctor-no-such-tool"
INVALID_PARAMS = -32602
PINGS = 3
SLOW_PING_MS = 1000.0
PLACEHOLDER = "example"  # the value given to a prompt's or a template's required arguments


class Crashed(Exception):
    """The server is gone (or stopped answering); later probes are skipped."""

    def __init__(self, why: str = "the server is gone") -> None:
        super().__init__(why)
        self.why = why


@dataclass
class ProbeState:
    conn: Any
    report: DoctorReport
    options: DoctorOptions
    seen: list[str]  # notification methods received so far
    tools: list[Any] = field(default_factory=list)
    resources: list[Any] = field(default_factory=list)
    templates: list[Any] = field(default_factory=list)
    prompts: list[Any] = field(default_factory=list)

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        handle = self.conn.new_handle(method, self.options.timeout)
        try:
            return await self.conn.request(method, params, handle=handle)
        except ConnectFailed as exc:
            self.report.add(
                "error",
                "crash",
                "$",
                f"the server went away during {method}: {exc.message}",
                "a server that stays up and answers every request",
                SECTION_LIFECYCLE,
            )
            raise Crashed from None

    async def page(self, method: str, key: str) -> tuple[list[Any], list[Any]]:
        """All items of a paginated list (at most `max_pages` pages) and the core's page findings."""
        from inspector.core.paging import check_page

        items: list[Any] = []
        findings: list[Any] = []
        cursor: str | None = None
        seen: set[str] = set()
        for pages in range(1, self.options.max_pages + 1):
            result = await self.request(method, {"cursor": cursor} if cursor is not None else None)
            base = f"$[page {pages - 1}]" if pages > 1 else "$"
            findings.extend(check_page(result, key, base))
            if isinstance(result.get(key), list):
                items.extend(result[key])
            nxt = result.get("nextCursor")
            cursor = nxt if isinstance(nxt, str) else None
            if cursor is None:
                return items, findings
            if cursor in seen:
                self._endless(method, f"the cursor {cursor[:40]!r} came back after {pages} pages")
                return items, findings
            seen.add(cursor)
        self._endless(method, f"still a nextCursor after {self.options.max_pages} pages")
        return items, findings

    def _endless(self, method: str, why: str) -> None:
        self.report.add(
            "error",
            "pagination",
            "$.nextCursor",
            f"{method}: pagination never ends ({why})",
            "a last page without nextCursor; clients page until it is absent",
            SECTION_PAGINATION,
        )

    async def run_listings(self, tokenizer: Any) -> None:
        """tools, resources, templates and prompts, each listed when its capability is declared."""
        from inspector.core.findings import check_tools
        from inspector.core.operations import ToolListing, header_findings
        from inspector.core.paging import check_named

        caps = self.conn.capabilities
        self.report.ran.append("pagination")
        try:
            if "tools" in caps:
                self.report.ran.append("tools-list")
                self.tools, findings = await self._listed("tools/list", "tools", SECTION_TOOLS)
                self.conn.tools = ToolListing(tools=self.tools, pages=1)  # call_tool checks results against these
                findings = findings + check_tools(self.tools)
                if self.conn.era == "modern":
                    findings += header_findings(self.tools)
                doctor_checks.add_core(self.report, "tools-list", findings, SECTION_TOOLS)
                doctor_checks.check_tool_schemas(self.report, self.tools)
                name = self.options.host_server_name or str(self.conn.server_info.get("name") or "server")
                doctor_checks.check_tool_names(self.report, self.tools, name)
                doctor_checks.check_budget(self.report, self.tools, tokenizer)
            if "resources" in caps:
                self.report.ran.append("resources-list")
                self.resources, findings = await self._listed("resources/list", "resources", SECTION_RESOURCES)
                findings += check_named(
                    self.resources, "$.resources", required=("uri", "name"), unique="uri", what="resource"
                )
                doctor_checks.add_core(self.report, "resources-list", findings, SECTION_RESOURCES)
                self.templates, findings = await self._listed(
                    "resources/templates/list", "resourceTemplates", SECTION_TEMPLATES
                )
                findings += check_named(
                    self.templates,
                    "$.resourceTemplates",
                    required=("uriTemplate", "name"),
                    unique="uriTemplate",
                    what="template",
                )
                doctor_checks.add_core(self.report, "templates-list", findings, SECTION_TEMPLATES)
            if "prompts" in caps:
                self.report.ran.append("prompts-list")
                self.prompts, findings = await self._listed("prompts/list", "prompts", SECTION_PROMPTS)
                findings += check_named(self.prompts, "$.prompts", required=("name",), unique="name", what="prompt")
                doctor_checks.add_core(self.report, "prompts-list", findings, SECTION_PROMPTS)
        except Crashed:
            pass

    async def _listed(self, method: str, key: str, section: str) -> tuple[list[Any], list[Any]]:
        try:
            return await self.page(method, key)
        except (ProtocolError, RequestTimeout) as exc:
            self.report.add(
                "error",
                method,
                "$",
                f"{method} failed: {exc.message}",
                f"a {key} list (the capability is declared)",
                section,
            )
            return [], []

    def callable_tools(self) -> list[tuple[int, dict[str, Any]]]:
        """Tools the doctor may call: marked readOnlyHint, or named by the user; only those `allowed`, if given."""
        out = []
        allowed = self.options.allowed
        for index, tool in enumerate(self.tools):
            if not isinstance(tool, dict) or (allowed is not None and tool.get("name") not in allowed):
                continue
            hints = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
            if hints.get("readOnlyHint") is True or tool.get("name") in self.options.call:
                out.append((index, tool))
        return out


async def run_probes(state: ProbeState) -> None:
    """The live checks, in order; a crash ends them."""
    check_list_changed(state)
    try:
        await check_ping(state)
        if "tools" in state.conn.capabilities:
            await check_unknown_tool(state)
            for index, tool in state.callable_tools():
                await check_invalid_arguments(state, index, tool)
                await check_structured(state, index, tool)
        await check_resources(state)
        check_templates(state)
        await check_prompts(state)
    except Crashed as stop:
        state.report.add(
            "info",
            "skipped",
            "$",
            f"the remaining checks were skipped: {stop.why}",
            "a live server",
            SECTION_LIFECYCLE,
        )


def check_list_changed(state: ProbeState) -> None:
    state.report.ran.append("list-changed")
    caps = state.conn.capabilities
    for kind in ("tools", "resources", "prompts"):
        method = f"notifications/{kind}/list_changed"
        declared = isinstance(caps.get(kind), dict) and caps[kind].get("listChanged") is True
        if method in state.seen and not declared:
            state.report.add(
                "warning",
                "list-changed",
                f"$.capabilities.{kind}.listChanged",
                f"the server sent {method} but did not declare {kind}.listChanged",
                f"capabilities.{kind}.listChanged: true before sending {method}",
                SECTION_LIST_CHANGED,
            )


async def check_ping(state: ProbeState) -> None:
    if state.conn.era == "modern":
        return  # 2026-07-28 removed ping
    state.report.ran.append("ping")
    times = []
    for _ in range(PINGS):
        started = time.perf_counter()
        try:
            await state.request("ping")
        except (ProtocolError, RequestTimeout) as exc:
            state.report.add(
                "error", "ping", "$", f"ping failed: {exc.message}", "an empty result, promptly", SECTION_PING
            )
            return
        times.append((time.perf_counter() - started) * 1000)
    median = statistics.median(times)
    slow = median > SLOW_PING_MS
    state.report.add(
        "warning" if slow else "info",
        "ping",
        "$",
        f"ping: median {median:.1f} ms over {PINGS}",
        f"an empty result, promptly{f' (under {SLOW_PING_MS:g} ms)' if slow else ''}",
        SECTION_PING,
    )


async def _call(state: ProbeState, name: str, arguments: dict[str, Any]) -> tuple[str, Any]:
    """("result", CallOutcome) | ("error", ProtocolError) | ("timeout", RequestTimeout) | ("refused", LensError:
    our client would not send it); `Crashed` when the server went away (the caller names the finding)."""
    try:
        return "result", await state.conn.call_tool(name, arguments, timeout=state.options.timeout)
    except ConnectFailed:
        raise Crashed from None
    except ProtocolError as exc:
        return "error", exc
    except RequestTimeout as exc:
        return "timeout", exc
    except LensError as exc:  # e.g. invalid header parameters in 2026-07-28, input the doctor cannot give
        return "refused", exc


async def still_answering(state: ProbeState, what: str) -> None:
    """After a hang: does the server answer anything else? If not, `Crashed` ends the probes."""
    try:
        await state.conn.request("tools/list", None, handle=state.conn.new_handle("tools/list", state.options.timeout))
    except RequestTimeout:
        state.report.add(
            "error",
            "unresponsive",
            "$",
            f"the server stopped answering after {what} hung (tools/list unanswered too)",
            "requests handled concurrently, or a hung one failing without blocking the rest",
            SECTION_LIFECYCLE,
        )
        raise Crashed("the server stopped answering") from None
    except ConnectFailed:
        raise Crashed() from None
    except LensError:
        pass  # it answered, if with an error


def _is_error(outcome: Any) -> bool:
    return isinstance(outcome.result, dict) and outcome.result.get("isError") is True


async def check_unknown_tool(state: ProbeState) -> None:
    state.report.ran.append("unknown-tool")
    add = state.report.add
    try:
        kind, value = await _call(state, UNKNOWN_TOOL, {})
    except Crashed:
        add(
            "error",
            "unknown-tool",
            "$",
            f"calling an unknown tool ({UNKNOWN_TOOL!r}) crashed the server",
            f"a JSON-RPC error {INVALID_PARAMS} (unknown tool)",
            SECTION_TOOL_ERRORS,
        )
        raise
    expected = f"a JSON-RPC error {INVALID_PARAMS} (unknown tool is a protocol error)"
    if kind == "timeout":
        add(
            "error",
            "unknown-tool",
            "$",
            f"calling an unknown tool hangs: no answer within {state.options.timeout:g} s",
            expected,
            SECTION_TOOL_ERRORS,
        )
        await still_answering(state, "calling an unknown tool")
    elif kind == "error" and value.code != INVALID_PARAMS:
        add(
            "warning",
            "unknown-tool",
            "$.error.code",
            f"an unknown tool gives JSON-RPC error {value.code}",
            expected,
            SECTION_TOOL_ERRORS,
        )
    elif kind == "result":
        is_error = _is_error(value)
        add(
            "warning" if is_error else "error",
            "unknown-tool",
            "$.result",
            "an unknown tool gives a tool result with isError: true"
            if is_error
            else "an unknown tool gives a successful result",
            expected,
            SECTION_TOOL_ERRORS,
        )


def invalid_arguments(schema: Any) -> dict[str, Any] | None:
    """Arguments `schema` rejects: a required property left out, else a property of the wrong type."""
    if not isinstance(schema, dict):
        return None
    required = schema.get("required")
    if isinstance(required, list) and required:
        return {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    wrong = {
        "string": 12345,
        "number": "not a number",
        "integer": "not a number",
        "boolean": "yes",
        "array": 1,
        "object": 1,
    }
    for name, sub in properties.items():
        if isinstance(sub, dict) and sub.get("type") in wrong:
            return {name: wrong[sub["type"]]}
    return None


async def check_invalid_arguments(state: ProbeState, index: int, tool: dict[str, Any]) -> None:
    arguments = invalid_arguments(tool.get("inputSchema"))
    if arguments is None:
        return
    if "invalid-arguments" not in state.report.ran:
        state.report.ran.append("invalid-arguments")
    name = str(tool.get("name"))
    path = f"$.tools[{index}]"
    expected = "a tool result with isError: true saying what is wrong (or a JSON-RPC error -32602)"
    try:
        kind, value = await _call(state, name, arguments)
    except Crashed:
        state.report.add(
            "error",
            "invalid-arguments",
            path,
            f"tool {name!r}: invalid arguments crashed the server",
            expected,
            SECTION_TOOL_ERRORS,
        )
        raise
    if kind == "timeout":
        state.report.add(
            "error",
            "invalid-arguments",
            path,
            f"tool {name!r}: invalid arguments hang the call",
            expected,
            SECTION_TOOL_ERRORS,
        )
        await still_answering(state, f"calling {name!r} with invalid arguments")
    elif kind == "error" and value.code != INVALID_PARAMS:
        state.report.add(
            "warning",
            "invalid-arguments",
            path,
            f"tool {name!r}: invalid arguments give JSON-RPC error {value.code}",
            expected,
            SECTION_TOOL_ERRORS,
        )
    elif kind == "result" and not _is_error(value):
        state.report.add(
            "warning",
            "invalid-arguments",
            path,
            f"tool {name!r} accepted arguments its inputSchema rejects: {arguments}",
            expected,
            SECTION_TOOL_ERRORS,
        )
    elif kind == "error":  # -32602: allowed before 2025-11-25
        state.report.add(
            "info",
            "invalid-arguments",
            path,
            f"tool {name!r}: invalid arguments give JSON-RPC error {INVALID_PARAMS}; the model never sees it",
            "since 2025-11-25 (SEP-1303) a tool result with isError: true, so the model can correct itself",
            SECTION_TOOL_ERRORS,
        )


async def check_structured(state: ProbeState, index: int, tool: dict[str, Any]) -> None:
    """A tool with an outputSchema (or named by the user), called with the form's default arguments:
    its structuredContent must match the outputSchema; the time is noted."""
    from inspector.schema import build, validate

    name = str(tool.get("name"))
    if "outputSchema" not in tool and name not in state.options.call:
        return
    schema = tool.get("inputSchema")
    model = build(schema)
    if model.fallback_reason:
        return
    arguments = model.new_state().to_arguments()
    if not isinstance(arguments, dict) or validate(schema, arguments):
        return  # no defaults for its required arguments: nothing the doctor can honestly send
    if "structured-content" not in state.report.ran:
        state.report.ran.append("structured-content")
    path = f"$.tools[{index}]"
    try:
        kind, value = await _call(state, name, arguments)
    except Crashed:
        state.report.add(
            "error", "structured-content", path, f"tool {name!r} crashed the server", "a result", SECTION_STRUCTURED
        )
        raise
    if kind == "refused":
        state.report.add(
            "info",
            "structured-content",
            path,
            f"tool {name!r} not called: {value.message}",
            "a callable tool",
            SECTION_STRUCTURED,
        )
    elif kind == "timeout":
        state.report.add(
            "warning",
            "structured-content",
            path,
            f"tool {name!r} with its default arguments: {value.message}",
            "a result within the doctor's timeout",
            SECTION_STRUCTURED,
        )
        await still_answering(state, f"calling {name!r}")
    elif kind != "result":  # an error for our default arguments, or a capability we did not declare: no fault
        state.report.add(
            "info",
            "structured-content",
            path,
            f"tool {name!r} with its default arguments: {value.message}",
            "a result",
            SECTION_STRUCTURED,
        )
    else:
        where = f"tools/call {name}: "
        for f in value.findings:
            state.report.add(
                f.severity, "structured-content", where + f.path, f.message, f.expected, SECTION_STRUCTURED
            )
        state.report.add(
            "info",
            "call-timing",
            path,
            f"tool {name!r} answered in {value.elapsed_ms:.0f} ms",
            "a prompt answer",
            SECTION_TOOLS,
        )


async def check_resources(state: ProbeState) -> None:
    if not state.resources:
        return
    state.report.ran.append("resources-read")
    for index, item in enumerate(state.resources[: state.options.max_reads]):
        uri = item.get("uri") if isinstance(item, dict) else None
        if not isinstance(uri, str):
            continue
        path = f"$.resources[{index}]"
        try:
            result = await state.request("resources/read", {"uri": uri})
        except (ProtocolError, RequestTimeout) as exc:
            state.report.add(
                "error",
                "resources-read",
                path,
                f"listed resource {uri[:80]!r} cannot be read: {exc.message}",
                "contents for every listed uri",
                SECTION_RESOURCES,
            )
            continue
        if not isinstance(result.get("contents"), list):
            state.report.add(
                "error",
                "resources-read",
                f"{path} read",
                "the read result has no contents array",
                "contents: [...]",
                SECTION_RESOURCES,
            )


def check_templates(state: ProbeState) -> None:
    if not state.templates:
        return
    from inspector.core import uri_template

    state.report.ran.append("templates-expand")
    for index, item in enumerate(state.templates):
        template = item.get("uriTemplate") if isinstance(item, dict) else None
        if not isinstance(template, str):
            continue
        try:
            values = {name: PLACEHOLDER for name in uri_template.variable_names(template)}
            uri_template.expand(template, values)
        except Exception as exc:
            state.report.add(
                "error",
                "templates-expand",
                f"$.resourceTemplates[{index}].uriTemplate",
                f"the template {template[:80]!r} does not expand: {exc}",
                "an RFC 6570 URI template",
                SECTION_TEMPLATES,
            )


async def check_prompts(state: ProbeState) -> None:
    if not state.prompts:
        return
    state.report.ran.append("prompts-get")
    for index, item in enumerate(state.prompts[: state.options.max_reads]):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str):
            continue
        args = item.get("arguments") if isinstance(item.get("arguments"), list) else []
        required = [
            a.get("name") for a in args if isinstance(a, dict) and a.get("required") and isinstance(a.get("name"), str)
        ]
        path = f"$.prompts[{index}]"
        try:
            result = await state.request("prompts/get", {"name": name, "arguments": {a: PLACEHOLDER for a in required}})
        except (ProtocolError, RequestTimeout) as exc:
            if required:  # a placeholder may be refused for good reasons
                state.report.add(
                    "info",
                    "prompts-get",
                    path,
                    f"prompt {name!r} with {PLACEHOLDER!r} for its required arguments: {exc.message}",
                    "messages for valid arguments (the doctor cannot know valid values)",
                    SECTION_PROMPTS,
                )
            else:
                state.report.add(
                    "error",
                    "prompts-get",
                    path,
                    f"prompt {name!r} cannot be got: {exc.message}",
                    "messages",
                    SECTION_PROMPTS,
                )
            continue
        if not isinstance(result.get("messages"), list):
            state.report.add(
                "error",
                "prompts-get",
                f"{path} get",
                "the result has no messages array",
                "messages: [...]",
                SECTION_PROMPTS,
            )


def legacy_versions(conn: Any) -> list[str]:
    """Handshake versions a modern server's discover result also claims."""
    from inspector.core.era import HANDSHAKE_PROTOCOL_VERSIONS

    discover = conn.discover_result if isinstance(conn.discover_result, dict) else {}
    supported = discover.get("supportedVersions")
    return [v for v in supported if v in HANDSHAKE_PROTOCOL_VERSIONS] if isinstance(supported, list) else []


async def check_other_era(report: DoctorReport, open_connection: ConnectionFactory, claimed: list[str]) -> None:
    """A modern server that also claims a legacy version must connect with `initialize` too."""
    if not claimed:
        return
    report.ran.append("connects-legacy")
    try:
        async with open_connection("legacy") as conn:
            version = conn.protocol_version
    except LensError as exc:
        report.add(
            "error",
            "connects-legacy",
            "$.supportedVersions",
            f"server/discover claims {', '.join(claimed)}, but initialize fails: {exc.message}",
            "an initialize handshake in every version the server claims",
            SECTION_LIFECYCLE,
        )
        return
    report.add(
        "info",
        "connects-legacy",
        "$",
        f"also connects in the legacy era ({version})",
        "each claimed era works",
        SECTION_LIFECYCLE,
    )
