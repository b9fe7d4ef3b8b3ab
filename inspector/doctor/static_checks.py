"""The doctor's static checks: what the server said at connect time and in its lists.

Each function adds `DoctorFinding`s to a `DoctorReport` and never raises. They reuse the checks the
rest of MCP Lens runs: `core/findings.py` (listing conformance), `schema` (the form model),
`budget/lints.py` (the Budget tab's lints).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from inspector.budget.host_rules import HOSTS, NAME_MAX
from inspector.budget.hosts import host_prefix, host_tool_name
from inspector.core.findings import Finding
from inspector.doctor.report import DoctorReport
from inspector.doctor.sections import (
    SECTION_CLAUDE,
    SECTION_LENS_BUDGET,
    SECTION_LENS_FORM,
    SECTION_LIFECYCLE,
    SECTION_SCHEMA,
    SECTION_STDIO,
    SECTION_TOOL_NAMES,
)
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.core.operations import Operations

# The spec's rule (2025-11-25, from SEP-986): 1–128 characters of A-Z a-z 0-9 _ - . (a SHOULD).
SPEC_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,128}$")
# Claude Code's tool naming and name limit, from the one table of host rules (with their sources).
CLAUDE_MAX = int(HOSTS["claude-code"].rule(NAME_MAX).value)  # type: ignore[union-attr]
SAMPLE = 80  # characters of a server-sent line quoted in a finding


def add_core(report: DoctorReport, check: str, findings: list[Finding], section: str) -> None:
    """Listing findings of `core/findings.py`, as doctor findings of `check`."""
    for f in findings:
        report.add(f.severity, check, f.path, f.message, f.expected, section)


def check_connects(report: DoctorReport, conn: Operations) -> None:
    """``connects``: the era and version negotiated."""
    report.ran.append("connects")
    negotiation = getattr(conn, "negotiation", None)
    report.era = conn.era
    report.version = conn.protocol_version
    report.server = conn.server_info
    how = negotiation.describe() if negotiation is not None else f"{conn.era} {conn.protocol_version}"
    report.add("info", "connects", "$", f"connected: {how}", "a negotiated protocol version", SECTION_LIFECYCLE)


def check_handshake(report: DoctorReport, conn: Operations) -> None:
    """``handshake``: the initialize / discover result's shape."""
    report.ran.append("handshake")
    init = conn.init if isinstance(conn.init, dict) else {}
    method = "server/discover" if conn.era == "modern" else "initialize"
    info = init.get("serverInfo")
    if not isinstance(info, dict):
        report.add(
            "error",
            "handshake",
            "$.serverInfo",
            f"{method} has no serverInfo object",
            "serverInfo {name, version}",
            SECTION_LIFECYCLE,
        )
    else:
        for key in ("name", "version"):
            if not isinstance(info.get(key), str) or not info.get(key):
                report.add(
                    "error",
                    "handshake",
                    f"$.serverInfo.{key}",
                    f"serverInfo.{key} is {_shown(info.get(key))}",
                    "a non-empty string",
                    SECTION_LIFECYCLE,
                )
    if not isinstance(init.get("capabilities"), dict):
        report.add(
            "error",
            "handshake",
            "$.capabilities",
            f"capabilities is {_shown(init.get('capabilities'))}",
            "an object",
            SECTION_LIFECYCLE,
        )
    if "instructions" in init and not isinstance(init["instructions"], str):
        report.add(
            "error", "handshake", "$.instructions", "instructions is not a string", "a string", SECTION_LIFECYCLE
        )


def check_stdout(report: DoctorReport, store: Any) -> None:
    """``stdout``: every line the server wrote to stdout parsed as JSON-RPC; ``stderr`` summarised."""
    if store is None:
        report.skip("stdout", "no record of the connection's traffic")
        return
    from inspector.traffic.entry import Direction, Kind

    if not any(e.transport == "stdio" for e in store):  # an HTTP server: its bodies are checked as they are parsed
        report.not_applicable("stdout", "not a stdio server: it has no stdout")
        return
    report.ran.append("stdout")
    noise = [e for e in store if e.kind is Kind.UNPARSABLE and e.direction is Direction.IN]
    if noise:
        first = noise[0].raw.decode("utf-8", "replace").strip()
        report.add(
            "error",
            "stdout",
            f"stdout line (traffic #{noise[0].seq})",
            f"{counted(len(noise), 'line')} on stdout "
            f"{'is not a JSON-RPC message' if len(noise) == 1 else 'are not JSON-RPC messages'}, "
            f"the first: {first[:SAMPLE]!r}",
            "only JSON-RPC messages on stdout (logs go to stderr); a client may drop the connection",
            SECTION_STDIO,
        )
    stderr = [e for e in store if e.kind is Kind.STDERR]
    if stderr:
        last = stderr[-1].raw.decode("utf-8", "replace").strip()
        report.ran.append("stderr")
        report.add(
            "info",
            "stderr",
            "stderr",
            f"{counted(len(stderr), 'line')} on stderr, the last: {last[:SAMPLE]!r}",
            "anything on stderr is allowed (hosts may show or drop it)",
            SECTION_STDIO,
        )


def check_tool_schemas(report: DoctorReport, tools: list[Any]) -> None:
    """``tool-form`` (our form builds from each valid inputSchema) and ``schema-examples`` (defaults and
    examples validate against their schema). Validity itself comes from `core/findings.check_tools`."""
    from inspector.core.findings import check_schema
    from inspector.schema import build

    report.ran.extend(["tool-form", "schema-examples"])
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key)
            path = f"$.tools[{index}].{key}"
            if not isinstance(schema, dict) or check_schema(schema, path, require_object=False):
                continue  # missing or invalid: reported by the listing's findings
            if key == "inputSchema":
                model = build(schema)
                if model.fallback_reason:
                    report.add(
                        "warning",
                        "tool-form",
                        path,
                        f"tool {tool.get('name')!r}: the form falls back to raw JSON: {model.fallback_reason}",
                        "a schema MCP Lens (and hosts that render forms) can turn into fields",
                        SECTION_LENS_FORM,
                    )
            _check_examples(report, schema, schema, path)


def _check_examples(report: DoctorReport, root: dict[str, Any], node: Any, path: str, depth: int = 0) -> None:
    if not isinstance(node, dict) or depth > 8:
        return
    if "$ref" not in json.dumps(node, default=str):  # a $ref resolves only against the root: skip those
        values = []
        if "default" in node:
            values.append(("default", node["default"]))
        if isinstance(node.get("examples"), list):
            values.extend((f"examples[{i}]", v) for i, v in enumerate(node["examples"]))
        for where, value in values:
            problem = _invalid(value, node)
            if problem:
                report.add(
                    "warning",
                    "schema-examples",
                    f"{path}.{where}",
                    f"the {where.split('[')[0]} does not validate against its own schema: {problem}",
                    "defaults and examples valid against the schema they annotate",
                    SECTION_SCHEMA,
                )
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, child in properties.items():
            _check_examples(report, root, child, f"{path}.properties.{name}", depth + 1)
    if isinstance(node.get("items"), dict):
        _check_examples(report, root, node["items"], f"{path}.items", depth + 1)


def _invalid(value: Any, schema: dict[str, Any]) -> str | None:
    from jsonschema.validators import validator_for

    try:
        error = next(iter(validator_for(schema)(schema).iter_errors(value)), None)
    except Exception as exc:  # a hostile schema can break the validator
        return f"could not be checked ({type(exc).__name__})"
    return None if error is None else error.message[:160]


def check_tool_names(report: DoctorReport, tools: list[Any], host_server_name: str) -> None:
    """``tool-name``: the spec's rule, and the length a Claude host leaves after its prefix."""
    report.ran.append("tool-name")
    claude = HOSTS["claude-code"]
    prefix = host_prefix(claude, host_server_name)
    for index, tool in enumerate(tools):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str) or not name:
            continue  # reported by the listing's findings
        path = f"$.tools[{index}].name"
        if not SPEC_TOOL_NAME.match(name):
            report.add(
                "warning",
                "tool-name",
                path,
                f"tool name {name[:SAMPLE]!r} breaks the spec's naming rule",
                "1–128 characters of A-Z, a-z, 0-9, _, - and . (SHOULD)",
                SECTION_TOOL_NAMES,
            )
        full = host_tool_name(claude, host_server_name, name)
        if len(full) > CLAUDE_MAX:
            report.add(
                "warning",
                "tool-name",
                path,
                f"{full!r} is {len(full)} characters: over Claude's {CLAUDE_MAX} once prefixed with {prefix!r} "
                "(how Claude Code shortens or drops such a name is unconfirmed)",
                f"len('mcp__<server>__<tool>') <= {CLAUDE_MAX}",
                SECTION_CLAUDE,
            )


def check_budget(report: DoctorReport, tools: list[Any], tokenizer: Any) -> None:
    """``budget``: the Budget tab's lints, as they are (descriptions exist, lengths, provider names, …)."""
    if tokenizer is None:
        return
    from inspector.budget.lints import lint_tools

    report.ran.append("budget")
    for lint in lint_tools([t for t in tools if isinstance(t, dict)], tokenizer):
        if lint.code in _SAID_BY_TOOLS_LIST:
            continue
        report.add(
            lint.severity,
            f"budget/{lint.code}",
            f"$.{lint.path}",
            lint.message,
            _LINT_EXPECTS.get(lint.code, "no lint"),
            SECTION_LENS_BUDGET,
        )


_SAID_BY_TOOLS_LIST = {"missing-input-schema", "duplicate-name"}  # the listing check names these already
_LINT_EXPECTS = {
    "missing-description": "every tool described (hosts show the description to the model)",
    "missing-param-description": "every parameter described",
    "long-description": "a description under the token limit",
    "duplicate-description": "distinct descriptions",
    "near-duplicate-description": "distinct descriptions",
    "invalid-name": "a name OpenAI and Anthropic accept: ^[a-zA-Z0-9_-]{1,64}$",
    "duplicate-name": "unique tool names",
    "untyped-property": "a type for every property",
    "missing-input-schema": "an inputSchema",
    "too-many-tools": "few enough tools for a host to load every turn",
}


def _shown(value: Any) -> str:
    if value is None:
        return "missing"
    return f"{type(value).__name__} {json.dumps(value, default=str)[:40]}"
