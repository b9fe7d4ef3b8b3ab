"""The doctor's check of 2026-07-28's multi round-trip rules (SEP-2322): no `input_required` result on a
request that may not carry one (the lists), and a `requestState` the client changed refused with an
error. The second calls only tools the doctor may call (`ProbeState.callable_tools`), with the form's
default arguments, and answers an elicitation by declining: a retry with a valid state does nothing
the user did not ask for."""

from __future__ import annotations

from typing import Any

from inspector.core.errors import LensError, ProtocolError, RequestTimeout
from inspector.doctor.sections import SECTION_INPUT_REQUIRED
from inspector.doctor.state import ProbeState

INPUT_REQUIRED = "input_required"
NOT_ALLOWED = (("tools", "tools/list"), ("prompts", "prompts/list"))
TAMPERED = "-mcp-lens-doctor-tampered"
DECLINE = {"action": "decline"}


async def check_input_required(state: ProbeState) -> None:
    if state.conn.era != "modern":
        state.report.not_applicable("input-required", "a 2026-07-28 rule; the server speaks the legacy era")
        return
    state.report.ran.append("input-required")
    caps = state.conn.capabilities
    for kind, method in NOT_ALLOWED:
        if kind not in caps:
            continue
        try:
            result = await state.request(method)
        except (ProtocolError, RequestTimeout):
            continue  # the list's own check says so
        if result.get("resultType") == INPUT_REQUIRED:
            _add(state, "error", f"$[{method}]", f"{method} answered with an input_required result", "a list")
    for index, tool in state.callable_tools()[: state.options.max_reads]:
        await _tampered(state, index, tool)


async def _tampered(state: ProbeState, index: int, tool: dict[str, Any]) -> None:
    from inspector.schema import build, validate

    name = str(tool.get("name"))
    model = build(tool.get("inputSchema"))
    arguments = None if model.fallback_reason else model.new_state().to_arguments()
    if not isinstance(arguments, dict) or validate(tool.get("inputSchema"), arguments):
        return
    try:
        first = await state.request("tools/call", {"name": name, "arguments": arguments})
    except LensError:
        return  # an error, a timeout: the tool checks say what matters there
    asks = first.get("inputRequests")
    sealed = first.get("requestState")
    if first.get("resultType") != INPUT_REQUIRED or not isinstance(asks, dict) or not isinstance(sealed, str):
        return
    if not asks or any(not isinstance(a, dict) or a.get("method") != "elicitation/create" for a in asks.values()):
        state.report.skip("input-required", "it asks for input other than a form the doctor can decline", name)
        return
    retry = {
        "name": name,
        "arguments": arguments,
        "inputResponses": {key: DECLINE for key in asks},
        "requestState": sealed + TAMPERED,
    }
    path = f"$.tools[{index}]"
    try:
        again = await state.request("tools/call", retry)
    except ProtocolError:
        return  # refused: as it must be
    except RequestTimeout as exc:
        _add(state, "warning", path, f"tool {name!r} with a changed requestState: {exc.message}", "an error")
        return
    what = "asked again" if again.get("resultType") == INPUT_REQUIRED else "finished the call"
    _add(
        state,
        "error",
        path,
        f"tool {name!r} {what} with a requestState the doctor changed ({TAMPERED!r} appended)",
        "a JSON-RPC error: requestState that fails its integrity check is refused",
    )


def _add(state: ProbeState, severity: str, path: str, message: str, expected: str) -> None:
    state.report.add(severity, "input-required", path, message, expected, SECTION_INPUT_REQUIRED)
