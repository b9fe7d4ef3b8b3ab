"""The doctor's host check: what each host chosen with ``--host`` does with each tool (`budget.acceptance`):
accepted, changed (how) or refused (why), each reason naming its rule and source. The verdicts go into
``report.hosts``, the host sections of every output (`host_render`), never into the findings: "will host X
accept it?" is its own question, not a defect of the server's protocol, so the score leaves it out; a refused
tool gives its own exit code (14, `cli/doctor.py`). One entry of `table.CHECKS`."""

from __future__ import annotations

from inspector.budget.acceptance import acceptance
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
    for name in options.hosts:
        report.hosts.append(acceptance(tools, name, server))
