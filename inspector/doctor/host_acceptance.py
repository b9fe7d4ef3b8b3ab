"""The doctor's host check: what each host chosen with ``--host`` does with each tool (`budget.acceptance`):
accepted, changed (how) or refused (why). A refused tool is an error finding naming the host, the rule and its
source (one bad tool fails the whole request in most hosts); a changed one a note. The verdicts themselves go
into ``report.hosts`` for the host sections of every output (`host_render`). One entry of `table.CHECKS`."""

from __future__ import annotations

from inspector.budget.acceptance import CHANGED, REFUSED, acceptance
from inspector.doctor.sections import SECTION_HOSTS
from inspector.doctor.state import ProbeState

CHECK = "host-acceptance"
NO_HOST = "no host chosen (mcp-lens doctor --host NAME)"


async def check_hosts(state: ProbeState) -> None:
    report, options = state.report, state.options
    if not options.hosts:
        report.not_applicable(CHECK, NO_HOST)
        return
    report.ran.append(CHECK)
    server = options.host_server_name or str(state.conn.server_info.get("name") or "server")
    tools = [t for t in state.tools if isinstance(t, dict)]
    where = {id(t): i for i, t in enumerate(state.tools)}
    for name in options.hosts:
        judged = acceptance(tools, name, server)
        report.hosts.append(judged)
        label = judged.host.label
        for tool, verdict in zip(tools, judged.verdicts, strict=True):
            if verdict.outcome not in (REFUSED, CHANGED):
                continue
            reasons = [r for r in verdict.reasons if r.outcome == verdict.outcome]
            report.add(
                "error" if verdict.outcome == REFUSED else "info",
                CHECK,
                f"$.tools[{where[id(tool)]}]",
                f"{label} {'refuses' if verdict.outcome == REFUSED else 'changes'} it: "
                + "; ".join(r.message + ("" if r.rule.confirmed else " (unconfirmed rule)") for r in reasons),
                "; ".join(dict.fromkeys(r.rule.summary for r in reasons)),
                f"{label} · " + "; ".join(dict.fromkeys(f"{r.rule.source} (checked {r.rule.checked})" for r in reasons))
                or SECTION_HOSTS,
            )
