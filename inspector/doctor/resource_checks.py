"""The doctor's check of how a server answers a read of a resource it does not have.

2025-11-25 names -32002 (Resource not found); 2026-07-28 standardises on -32602 (Invalid params) with
the URI in `data.uri` (SEP-2164), which older servers may use already. Never a result with empty
`contents`: a client cannot tell that from an empty resource."""

from __future__ import annotations

from inspector.core.errors import ProtocolError, RequestTimeout
from inspector.doctor.sections import SECTION_NOT_FOUND_MODERN, SECTION_RESOURCE_ERRORS
from inspector.doctor.state import ProbeState, failed
from inspector.traffic.entry import DOCTOR_PROBE

UNKNOWN_URI = "mcp-lens-doctor://no-such-resource"
NOT_FOUND_LEGACY = -32002
INVALID_PARAMS = -32602


async def check_resource_not_found(state: ProbeState) -> None:
    state.report.ran.append("resource-not-found")
    modern = state.conn.era == "modern"
    section = SECTION_NOT_FOUND_MODERN if modern else SECTION_RESOURCE_ERRORS
    expected = (
        f"JSON-RPC error {INVALID_PARAMS} with data.uri (SEP-2164)"
        if modern
        else f"JSON-RPC error {NOT_FOUND_LEGACY} (Resource not found; {INVALID_PARAMS} as SEP-2164 has it is fine)"
    )
    store = getattr(state.conn, "store", None)
    try:
        if store is not None:
            with store.probing("resources/read", DOCTOR_PROBE):
                result = await state.request("resources/read", {"uri": UNKNOWN_URI})
        else:
            result = await state.request("resources/read", {"uri": UNKNOWN_URI})
    except RequestTimeout as exc:
        state.report.add("error", "resource-not-found", "$", failed("resources/read", exc.message), expected, section)
        return
    except ProtocolError as exc:
        code = exc.code
        if code == INVALID_PARAMS or (code == NOT_FOUND_LEGACY and not modern):
            data = exc.data if isinstance(exc.data, dict) else {}
            if modern and data.get("uri") != UNKNOWN_URI:
                state.report.add(
                    "warning",
                    "resource-not-found",
                    "$.error.data",
                    "the not-found error does not name the URI in data.uri",
                    f"data: {{uri: {UNKNOWN_URI!r}}}",
                    section,
                )
            return
        state.report.add(
            "warning",
            "resource-not-found",
            "$.error.code",
            f"reading an unknown resource gave error {code}: {exc.message}",
            expected,
            section,
        )
        return
    contents = result.get("contents")
    state.report.add(
        "error" if not contents else "warning",
        "resource-not-found",
        "$.result",
        f"reading an unknown resource ({UNKNOWN_URI}) gave a result"
        + (" with empty contents" if not contents else f" with {len(contents)} contents"),
        expected,
        section,
    )
