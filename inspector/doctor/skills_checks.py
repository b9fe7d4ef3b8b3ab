"""The doctor's checks of a server's skills (`io.modelcontextprotocol/skills`, SEP-2640), on `core/skills`:

- `skills-list`: the declaration (the extension's setting an object, `resources` declared beside it, a
  boolean `directoryRead`), every page of `skills/list` and each entry's shape (uri, frontmatter with
  name and description, naming rules, digests, sizes), the per-skill limits (512 files, 16 MiB) and
  `skills/get` of a listed skill (the same entry) and of an unknown URI (-32602);
- `skills-verify`: each listed skill's SKILL.md read (at most `max_reads`) and checked against its entry
  (size, SHA-256 digest, frontmatter field by field), as a host does before it loads the skill.
"""

from __future__ import annotations

from typing import Any

from inspector.core import skills
from inspector.core.client_handlers import SKILLS_EXTENSION
from inspector.core.errors import LensError, ProtocolError, RequestTimeout
from inspector.doctor.state import ProbeState

SECTION_SKILLS = "Skills extension (io.modelcontextprotocol/skills, SEP-2640, ext-skills specification/stable)"
UNKNOWN_SKILL = "skill://mcp-lens-doctor-no-such-skill/SKILL.md"
INVALID_PARAMS = -32602


def _declared(state: ProbeState, check: str) -> bool:
    if skills.server_setting(state.conn.capabilities) is None:
        state.report.not_applicable(check, f"the server does not declare {SKILLS_EXTENSION}")
        return False
    return True


def _add(state: ProbeState, check: str, finding: Any, where: str = "") -> None:
    path = finding.path if not where else f"{where} {finding.path}"
    state.report.add(finding.severity, check, path, finding.message, finding.expected, SECTION_SKILLS)


async def check_skills_list(state: ProbeState) -> None:
    if not _declared(state, "skills-list"):
        return
    report = state.report
    report.ran.append("skills-list")
    capabilities = state.conn.capabilities
    setting = skills.server_setting(capabilities) or {}
    if not isinstance(capabilities.get("resources"), dict):
        report.add(
            "error",
            "skills-list",
            "$.capabilities.resources",
            "the server declares the Skills extension but not the resources capability",
            "resources declared beside io.modelcontextprotocol/skills (skill files are resources)",
            SECTION_SKILLS,
        )
    if "directoryRead" in setting and not isinstance(setting["directoryRead"], bool):
        report.add(
            "error",
            "skills-list",
            f"$.capabilities.extensions[{SKILLS_EXTENSION!r}].directoryRead",
            f"directoryRead is {setting['directoryRead']!r:.40}",
            "a boolean",
            SECTION_SKILLS,
        )
    try:
        listing = await skills.list_skills(_Timed(state))
    except (ProtocolError, RequestTimeout, LensError) as exc:
        report.add(
            "error",
            "skills-list",
            "$",
            f"skills/list failed: {exc.message}" + (f" {exc.hint}" if exc.hint else ""),
            "a server that declares the extension answers skills/list",
            SECTION_SKILLS,
        )
        return
    for finding in listing.all_findings():
        _add(state, "skills-list", finding)
    state.skills = listing.skills  # type: ignore[attr-defined]  # for skills-verify
    await _check_get(state, listing)


async def _check_get(state: ProbeState, listing: skills.SkillsListing) -> None:
    report = state.report
    first = next((skill for skill in listing.skills if skill.uri), None)
    if first is not None:
        try:
            got, _cache = await skills.get_skill(_Timed(state), first.uri)
        except (ProtocolError, RequestTimeout) as exc:
            report.add(
                "error",
                "skills-list",
                "$.skills/get",
                f"skills/get failed for a listed skill ({first.uri[:80]}): {exc.message}",
                "the listed skill's entry",
                SECTION_SKILLS,
            )
        else:
            for finding in got.findings:
                _add(state, "skills-list", finding, "skills/get")
            if got.entry != first.entry:
                report.add(
                    "warning",
                    "skills-list",
                    "$.skills/get.skill",
                    f"skills/get gave another entry for {first.uri[:80]} than skills/list",
                    "the same entry from both (unless the skill changed in between)",
                    SECTION_SKILLS,
                )
    try:
        await skills.get_skill(_Timed(state), UNKNOWN_SKILL)
    except ProtocolError as exc:
        if exc.code != INVALID_PARAMS:
            report.add(
                "warning",
                "skills-list",
                "$.skills/get.error.code",
                f"skills/get of an unknown skill gave error {exc.code}: {exc.message}",
                f"JSON-RPC error {INVALID_PARAMS} (Invalid params)",
                SECTION_SKILLS,
            )
    except RequestTimeout as exc:
        report.add(
            "warning",
            "skills-list",
            "$.skills/get",
            f"skills/get of an unknown skill: {exc.message}",
            f"JSON-RPC error {INVALID_PARAMS} (Invalid params), promptly",
            SECTION_SKILLS,
        )
    else:
        report.add(
            "error",
            "skills-list",
            "$.skills/get",
            f"skills/get of an unknown skill ({UNKNOWN_SKILL}) gave a result",
            f"JSON-RPC error {INVALID_PARAMS} (Invalid params)",
            SECTION_SKILLS,
        )


async def check_skills_verify(state: ProbeState) -> None:
    if not _declared(state, "skills-verify"):
        return
    listed: list[skills.Skill] = getattr(state, "skills", None) or []
    if not listed:
        state.report.not_applicable("skills-verify", "skills/list gave no skill to verify")
        return
    state.report.ran.append("skills-verify")
    for index, skill in enumerate(listed[: state.options.max_reads]):
        if not skill.uri or skill.dynamic:
            if skill.dynamic:
                state.report.skip("skills-verify", 'its resources are "dynamic": nothing to verify', skill.name)
            continue
        try:
            loaded = await skills.load_skill(_Timed(state), skill)
        except (ProtocolError, RequestTimeout) as exc:
            state.report.add(
                "error",
                "skills-verify",
                f"$.skills[{index}]",
                f"{skill.uri[:80]} cannot be read: {exc.message}",
                "every skill's SKILL.md readable through resources/read",
                SECTION_SKILLS,
            )
            continue
        for finding in loaded.skill_md.findings:
            _add(state, "skills-verify", finding, f"$.skills[{index}] SKILL.md")


class _Timed:
    """The doctor's requester for `core/skills`: each request with the doctor's timeout, a crash `Crashed`."""

    def __init__(self, state: ProbeState) -> None:
        self.state = state
        self.capabilities = state.conn.capabilities
        self.era = state.conn.era

    async def request(self, method: str, params: dict[str, Any] | None = None, **_kwargs: Any) -> dict[str, Any]:
        return await self.state.request(method, params)
