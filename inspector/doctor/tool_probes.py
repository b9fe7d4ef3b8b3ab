"""The doctor's tool calls: an unknown tool and invalid arguments must get the error the spec asks for
(not a crash or a hang), and `structuredContent` must fit `outputSchema`; tools are called only as
`engine.py` says (read-only ones, or those the user named)."""

from __future__ import annotations

from typing import Any

from inspector.core.errors import ConnectFailed, LensError, ProtocolError, RequestTimeout
from inspector.doctor.sections import SECTION_STRUCTURED, SECTION_TOOL_ERRORS, SECTION_TOOLS
from inspector.doctor.state import Crashed, ProbeState, stray

UNKNOWN_TOOL = "mcp-lens-doctor-no-such-tool"
INVALID_PARAMS = -32602
MISSING_CAPABILITY = -32021  # 2026-07-28: the request did not declare a client capability the server needs


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
    await state.still_answering(what)


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
            f"calling an unknown tool hangs: no answer within {state.options.timeout:g} s" + stray(value),
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
        state.report.not_applicable(
            "invalid-arguments", "no required or typed property to get wrong", str(tool.get("name"))
        )
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
            f"tool {name!r}: invalid arguments hang the call" + stray(value),
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
        state.report.not_applicable("structured-content", "no outputSchema", name)
        return
    schema = tool.get("inputSchema")
    model = build(schema)
    if model.fallback_reason:
        state.report.skip("structured-content", "its inputSchema makes no form to fill", name)
        return
    arguments = model.new_state().to_arguments()
    if not isinstance(arguments, dict) or validate(schema, arguments):  # nothing the doctor can honestly send
        state.report.skip("structured-content", "no defaults for its required arguments", name)
        return
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
    elif kind == "error" and value.code == MISSING_CAPABILITY:  # the doctor's own choice, not the server's fault
        state.report.skip(
            "structured-content",
            "it asks for a client capability the doctor does not declare (-32021): the doctor answers no "
            "elicitation or sampling",
            name,
        )
    elif kind != "result":  # an error for our default arguments: no fault
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
            "structured-content",
            path,
            f"tool {name!r} answered in {value.elapsed_ms:.0f} ms",
            "a prompt answer",
            SECTION_TOOLS,
        )
