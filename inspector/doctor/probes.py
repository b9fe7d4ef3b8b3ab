"""The doctor's live checks: requests whose answers the spec prescribes (ping, reads, gets), the
notifications the server sent, and the other era a modern server claims.

Every request has the doctor's timeout; a server that dies or hangs is a finding, and once it has
died the remaining probes are skipped (said as such). Tools are called only as `engine.py` says; the
tool calls are in `tool_probes`, the lists in `listings`, the shared state in `state`.
"""

from __future__ import annotations

import statistics
import time
from typing import TYPE_CHECKING

from inspector.core.errors import LensError, ProtocolError, RequestTimeout
from inspector.doctor.report import ConnectionFactory, DoctorReport
from inspector.doctor.sections import (
    SECTION_LIFECYCLE,
    SECTION_LIST_CHANGED,
    SECTION_PING,
    SECTION_PROMPTS,
    SECTION_RESOURCES,
    SECTION_TEMPLATES,
)
from inspector.doctor.state import ProbeState, failed

if TYPE_CHECKING:
    from inspector.core.operations import Operations

PINGS = 3
SLOW_PING_MS = 1000.0
PLACEHOLDER = "example"  # the value given to a prompt's or a template's required arguments


async def check_list_changed(state: ProbeState) -> None:
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
        state.report.not_applicable("ping", "2026-07-28 removed ping")
        return
    state.report.ran.append("ping")
    times = []
    for _ in range(PINGS):
        started = time.perf_counter()
        try:
            await state.request("ping")
        except (ProtocolError, RequestTimeout) as exc:
            state.report.add(
                "error", "ping", "$", failed("ping", exc.message), "an empty result, promptly", SECTION_PING
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


async def check_resources(state: ProbeState) -> None:
    if not state.resources:
        state.none_listed("resources-read", "resources", "resources")
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


async def check_templates(state: ProbeState) -> None:
    if not state.templates:
        state.none_listed("templates-expand", "resourceTemplates", "resource templates")
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
        state.none_listed("prompts-get", "prompts", "prompts")
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


def legacy_versions(conn: Operations) -> list[str]:
    """Handshake versions a modern server's discover result also claims."""
    from inspector.core.era import HANDSHAKE_PROTOCOL_VERSIONS

    discover = conn.discover_result if isinstance(conn.discover_result, dict) else {}
    supported = discover.get("supportedVersions")
    return [v for v in supported if v in HANDSHAKE_PROTOCOL_VERSIONS] if isinstance(supported, list) else []


async def check_other_era(report: DoctorReport, open_connection: ConnectionFactory, claimed: list[str]) -> None:
    """A modern server that also claims a legacy version must connect with `initialize` too; one that claims
    none is asked anyway (a legacy client would), and what it does is said: it connects, or it refuses."""
    try:
        async with open_connection("legacy") as conn:
            version = conn.protocol_version
    except LensError as exc:
        if not claimed:
            why = f"server/discover lists no legacy protocol version and initialize is refused ({exc.message})"
            report.not_applicable("connects-legacy", why)
            return
        report.ran.append("connects-legacy")
        report.add(
            "error",
            "connects-legacy",
            "$.supportedVersions",
            f"server/discover claims {', '.join(claimed)}, but initialize fails: {exc.message}",
            "an initialize handshake in every version the server claims",
            SECTION_LIFECYCLE,
        )
        return
    report.ran.append("connects-legacy")
    said = (
        f"also connects in the legacy era ({version})"
        if claimed
        else f"server/discover lists no legacy protocol version, yet initialize connects too ({version})"
    )
    report.add("info", "connects-legacy", "$", said, "each era the server speaks works", SECTION_LIFECYCLE)
