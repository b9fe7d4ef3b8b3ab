"""Skills (`io.modelcontextprotocol/skills`, SEP-2640), the host side: list, get, load, read, verify.

MCP Lens declares the extension in both eras (`client_handlers.EXTENSIONS`: `initialize`'s capabilities,
each 2026-07-28 request's `_meta`). It sends `skills/list` and `skills/get` only to a server that
declares the extension, `resources/directory/read` only where it says `directoryRead: true`, and
nothing before the user asks: listing reads no file, loading a skill reads its SKILL.md alone, and a
supporting file is read when it is opened. Every file is read through `resources/read` and checked
against the entry (`skill_verify`: size, SHA-256 digest, frontmatter); what came is kept as raw,
untrusted bytes whether it matched or not, and only a match byte for byte is called verified.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

from inspector.core.client_handlers import SKILLS_EXTENSION
from inspector.core.errors import LensError, ProtocolError
from inspector.core.findings import Finding
from inspector.core.input_required import request_answering
from inspector.core.paging import MAX_PAGES, Requester, check_page, type_name
from inspector.core.resources import check_read_result
from inspector.core.skill_verify import (
    DYNAMIC,
    cache_words,
    check_cache,
    check_entry,
    check_file,
    check_skill_md,
    file_name_problem,
)
from inspector.words import counted

DIRECTORY_MIME = "inode/directory"


def server_setting(capabilities: Any) -> dict[str, Any] | None:
    """The server's setting object for the extension (``{}`` or ``{"directoryRead": true}``), or None."""
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    value = extensions.get(SKILLS_EXTENSION) if isinstance(extensions, dict) else None
    return value if isinstance(value, dict) else None


def refusal(capabilities: Any) -> str | None:
    """Why MCP Lens does not send `skills/list` or `skills/get` to this server; None when it may."""
    if server_setting(capabilities) is None:
        return f"not sent: the server declares no {SKILLS_EXTENSION} extension"
    return None


def directory_refusal(capabilities: Any) -> str | None:
    setting = server_setting(capabilities)
    if setting is None or setting.get("directoryRead") is not True:
        return "not sent: the server does not declare directoryRead: true for the skills extension"
    return None


class SkillsRefused(LensError):
    """A skills request MCP Lens does not send to this server (see `refusal`)."""

    exit_code = 4
    kind = "not-declared"


@dataclass
class Skill:
    """One entry of `skills/list` or `skills/get`, as sent, with what is wrong with it."""

    entry: Any
    path: str = "$.skills[0]"
    findings: list[Finding] = field(default_factory=list)

    @property
    def uri(self) -> str:
        value = self.entry.get("uri") if isinstance(self.entry, dict) else None
        return value if isinstance(value, str) else ""

    @property
    def frontmatter(self) -> dict[str, Any]:
        value = self.entry.get("frontmatter") if isinstance(self.entry, dict) else None
        return value if isinstance(value, dict) else {}

    @property
    def name(self) -> str:
        value = self.frontmatter.get("name")
        return value if isinstance(value, str) else ""

    @property
    def description(self) -> str:
        value = self.frontmatter.get("description")
        return value if isinstance(value, str) else ""

    @property
    def dynamic(self) -> bool:
        return isinstance(self.entry, dict) and self.entry.get("resources") == DYNAMIC

    @property
    def files(self) -> list[dict[str, Any]]:
        """The listed files that are objects with a string uri (`[]` when dynamic or broken)."""
        value = self.entry.get("resources") if isinstance(self.entry, dict) else None
        if not isinstance(value, list):
            return []
        return [item for item in value if isinstance(item, dict) and isinstance(item.get("uri"), str)]

    @property
    def total_size(self) -> int | None:
        sizes = [item.get("size") for item in self.files]
        if self.dynamic or not sizes or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes):
            return None
        return sum(sizes)  # type: ignore[arg-type]

    @property
    def loadable(self) -> bool:
        """Whether a host may load it at all: resources an array or "dynamic", no broken entry fields."""
        return not any(f.severity == "error" for f in self.findings)

    def listed(self, uri: str) -> dict[str, Any] | None:
        return next((item for item in self.files if item["uri"] == uri), None)


@dataclass
class SkillsListing:
    skills: list[Skill]
    pages: int
    findings: list[Finding] = field(default_factory=list)  # the pages' own (entries' are on each Skill)
    cache: str = ""  # the first page's resultType, ttlMs, cacheScope in words
    repeats: dict[str, int] = field(default_factory=dict)  # a URI listed more than once → how often

    @property
    def duplicates(self) -> int:
        """Entries dropped because their URI was listed before."""
        return sum(self.repeats.values()) - len(self.repeats)

    def entries_as_sent(self) -> list[Any]:
        """Every entry as often as the server listed it (a repeat as its first listing)."""
        return [skill.entry for skill in self.skills for _ in range(self.repeats.get(skill.uri, 1))]

    def by_name(self, name: str) -> list[Skill]:
        return [skill for skill in self.skills if skill.name == name or skill.uri == name]

    def all_findings(self) -> list[Finding]:
        return [*self.findings, *(f for skill in self.skills for f in skill.findings)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"skills": [skill.entry for skill in self.skills]}
        if self.cache:
            out["cache"] = self.cache
        if findings := self.all_findings():
            out["findings"] = [f.to_json() for f in findings]
        return out


@dataclass
class FileRead:
    """One skill file as read: its raw bytes (untrusted, kept whatever they are) and its verification."""

    uri: str
    raw: bytes | None = None
    mime: str = ""
    findings: list[Finding] = field(default_factory=list)
    cache: str = ""
    dynamic: bool = False  # the entry has no digests: nothing can be verified

    @property
    def verified(self) -> bool:
        """True only when the bytes were checked against a listed size and digest and matched."""
        return self.raw is not None and not self.dynamic and not any(f.severity == "error" for f in self.findings)

    @property
    def text(self) -> str | None:
        """The bytes as UTF-8 text, or None when they are not UTF-8."""
        if self.raw is None:
            return None
        try:
            return self.raw.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def status(self) -> str:
        if self.raw is None:
            return "not read"
        if self.verified:
            return "verified: size and SHA-256 digest match the entry"
        if self.dynamic:
            return 'unverified: the entry says "dynamic" (no digests)'
        return "verification failed: not used"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"uri": self.uri, "verified": self.verified, "status": self.status()}
        if self.raw is not None:
            out["size"] = len(self.raw)
            text = self.text
            out["text" if text is not None else "base64"] = (
                text if text is not None else base64.b64encode(self.raw).decode()
            )
        if self.mime:
            out["mimeType"] = self.mime
        if self.cache:
            out["cache"] = self.cache
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        return out


@dataclass
class LoadedSkill:
    """A skill loaded: its SKILL.md read and verified, the frontmatter it carries, its Markdown body."""

    skill: Skill
    skill_md: FileRead
    fields: dict[str, Any] | None = None  # the SKILL.md's own frontmatter, when it could be read
    body: str = ""

    @property
    def verified(self) -> bool:
        """SKILL.md matches its entry and the entry itself has no error (an unsafe file name, a limit passed)."""
        return self.skill_md.verified and self.skill.loadable

    def status(self) -> str:
        if self.skill_md.verified and not self.skill.loadable:
            return "SKILL.md matches its entry, but the entry has errors (see findings): not used"
        return "SKILL.md " + self.skill_md.status()

    def to_json(self) -> dict[str, Any]:
        return {"skill": self.skill.entry, "verified": self.verified, "SKILL.md": self.skill_md.to_json()}


async def _ask(conn: Requester, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A skills request; a refusal the extension explains is said in words (`explain`)."""
    try:
        return await request_answering(conn, method, params)
    except ProtocolError as exc:
        era = getattr(conn, "era", None) or getattr(getattr(conn, "negotiation", None), "era", None) or "legacy"
        words = explain(exc.code, method, str(era), exc.data)
        if words:
            exc.hint = words
        raise


def explain(code: int | None, method: str, era: str, data: Any = None) -> str | None:
    """What a server's error to a skills request means: -32021 (2026-07-28) and -32601 are the ways a
    server says it wants the client to declare the extension first."""
    how = (
        "in each request's _meta (clientCapabilities.extensions)"
        if era == "modern"
        else "in initialize's capabilities.extensions"
    )
    if code == -32021:
        needed = ""
        if isinstance(data, dict) and isinstance(data.get("requiredCapabilities"), dict):
            needed = f" (it asked for {', '.join(sorted(map(str, data['requiredCapabilities'])))})"
        return (
            f"The server wants the client to declare {SKILLS_EXTENSION} before it answers {method}{needed}. "
            f"MCP Lens declared it {how}; the server did not see or accept that declaration."
        )
    if code == -32601:
        return (
            f"The server does not answer {method} (method not found) although it declares {SKILLS_EXTENSION}: "
            f"a server that declares the extension must implement skills/list and skills/get. Some answer them "
            f"only to a client that declared the extension; MCP Lens declared it {how}."
        )
    return None


def _require(conn: Requester) -> None:
    if why := refusal(getattr(conn, "capabilities", {})):
        raise SkillsRefused(why, hint="The server must list io.modelcontextprotocol/skills in capabilities.extensions.")


async def list_skills(conn: Requester) -> SkillsListing:
    """Every page of `skills/list`, each entry checked; reads no file."""
    _require(conn)
    skills: list[Skill] = []
    findings: list[Finding] = []
    cursor: str | None = None
    seen: set[str] = set()
    times: dict[str, int] = {}  # each SKILL.md URI → how often it was listed
    pages, cache = 0, ""
    while True:
        page = await _ask(conn, "skills/list", {"cursor": cursor} if cursor is not None else {})
        base = f"$[page {pages}]" if pages else "$"
        if pages == 0:
            cache = cache_words(page)
        pages += 1
        findings.extend(check_page(page, "skills", base))
        findings.extend(check_cache(page, base))
        for item in page.get("skills") if isinstance(page, dict) and isinstance(page.get("skills"), list) else []:
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and uri:
                times[uri] = times.get(uri, 0) + 1
                if times[uri] > 1:
                    continue  # said once below, with its count
            path = f"$.skills[{len(skills)}]"
            skills.append(Skill(item, path, check_entry(item, path)))
        next_cursor = page.get("nextCursor") if isinstance(page, dict) else None
        cursor = next_cursor if isinstance(next_cursor, str) and next_cursor else None
        if cursor is None:
            break
        if cursor in seen or pages >= MAX_PAGES:
            findings.append(
                Finding(
                    f"pagination does not end (cursor {cursor!r:.60} repeats)", f"{base}.nextCursor", "a new cursor"
                )
            )
            break
        seen.add(cursor)
    repeated = {uri: n for uri, n in times.items() if n > 1}
    if repeated:
        findings.append(_repeats(repeated))
    findings.extend(_name_collisions(skills))
    return SkillsListing(skills, pages, findings, cache, repeated)


def _repeats(repeated: dict[str, int], shown: int = 3) -> Finding:
    """One finding for every URI listed more than once, the first few named with their counts."""
    named = ", ".join(f"{uri[:80]} ×{n}" for uri, n in list(repeated.items())[:shown])
    more = f", and {len(repeated) - shown} more" if len(repeated) > shown else ""
    return Finding(
        f"{counted(len(repeated), 'skill')} listed more than once ({sum(repeated.values()):,} entries for "
        f"{len(repeated)} URIs; the repeats dropped): {named}{more}",
        "$.skills",
        "each skill once across all pages",
        "warning",
    )


def _name_collisions(skills: list[Skill]) -> list[Finding]:
    by_name: dict[str, list[Skill]] = {}
    for skill in skills:
        if skill.name:
            by_name.setdefault(skill.name, []).append(skill)
    return [
        Finding(
            f"the name {name!r:.60} is served at {len(same)} URIs: "
            + ", ".join(s.uri[:80] for s in same[:3])
            + (f", and {len(same) - 3} more" if len(same) > 3 else ""),
            same[1].path,
            "unique names (hosts must tell them apart)",
            "warning",
        )
        for name, same in by_name.items()
        if len(same) > 1
    ]


async def get_skill(conn: Requester, uri: str) -> tuple[Skill, str]:
    """`skills/get` for one SKILL.md URI: the entry (checked) and the result's cache words."""
    _require(conn)
    result = await _ask(conn, "skills/get", {"uri": uri})
    entry = result.get("skill") if isinstance(result, dict) else None
    skill = Skill(entry, "$.skill", [*check_entry(entry, "$.skill"), *check_cache(result)])
    if skill.uri and skill.uri != uri:
        skill.findings.append(
            Finding(f"skill.uri {skill.uri!r:.100} is not the URI asked for", "$.skill.uri", repr(uri)[:100])
        )
    if isinstance(result, dict) and "nextCursor" in result:
        skill.findings.append(
            Finding("skills/get carries nextCursor", "$.nextCursor", "no cursor: a single entry is not a list")
        )
    return skill, cache_words(result)


def raw_bytes(result: Any, uri: str) -> tuple[bytes | None, str, list[Finding]]:
    """The raw bytes of `uri` in a `resources/read` result (text as UTF-8, blob decoded), its mimeType."""
    findings = check_read_result(result)
    contents = result.get("contents") if isinstance(result, dict) else None
    items = [item for item in contents if isinstance(item, dict)] if isinstance(contents, list) else []
    item = next((i for i in items if i.get("uri") == uri), items[0] if items else None)
    if item is None:
        return (
            None,
            "",
            [*findings, Finding("the read returned no content", "$.contents", f"one item for {uri!r:.100}")],
        )
    mime = item.get("mimeType") if isinstance(item.get("mimeType"), str) else ""
    if isinstance(item.get("text"), str):
        return item["text"].encode("utf-8", "surrogatepass"), mime, findings
    if isinstance(item.get("blob"), str):
        try:
            return base64.b64decode(item["blob"], validate=True), mime, findings
        except (binascii.Error, ValueError):
            return None, mime, [*findings, Finding("blob is not base64", "$.contents[0].blob", "base64 bytes")]
    return (
        None,
        mime,
        [*findings, Finding(f"content is {type_name(item.get('text'))}", "$.contents[0]", "text or blob")],
    )


async def read_file(conn: Requester, skill: Skill, uri: str) -> FileRead:
    """One of the skill's files through `resources/read`, checked against its listed size and digest.
    A file the entry does not list is not read (a verification failure), unless the skill is dynamic."""
    listed = skill.listed(uri)
    if listed is None and not skill.dynamic:
        return FileRead(uri, findings=check_file(b"", None, uri))
    if problem := file_name_problem(uri, skill_root(skill) + "/"):
        where = "a relative path under the skill's directory"
        return FileRead(uri, findings=[Finding(f"{uri!r:.100} has {problem}: not read", "$.uri", where)])
    result = await _ask(conn, "resources/read", {"uri": uri})
    raw, mime, findings = raw_bytes(result, uri)
    read = FileRead(uri, raw, mime, findings, cache_words(result), dynamic=skill.dynamic)
    if raw is not None and not skill.dynamic:
        read.findings.extend(check_file(raw, listed, uri))
    return read


async def load_skill(conn: Requester, skill: Skill) -> LoadedSkill:
    """Load a skill as a host does: read its SKILL.md, verify size and digest, then its frontmatter
    against the entry's. Nothing else is read."""
    if not skill.uri:
        raise LensError("this skill entry has no uri, so there is no SKILL.md to read")
    skill_md = await read_file(conn, skill, skill.uri)
    loaded = LoadedSkill(skill, skill_md)
    if skill_md.raw is not None:
        fields, body, findings = check_skill_md(skill_md.text, skill.entry.get("frontmatter"))
        loaded.fields, loaded.body = fields, body
        skill_md.findings.extend(findings)
    return loaded


@dataclass
class Directory:
    uri: str
    children: list[dict[str, Any]]
    findings: list[Finding] = field(default_factory=list)


async def read_directory(conn: Requester, uri: str) -> Directory:
    """`resources/directory/read`, every page; only where the server declares `directoryRead: true`."""
    if why := directory_refusal(getattr(conn, "capabilities", {})):
        raise SkillsRefused(why)
    children: list[dict[str, Any]] = []
    findings: list[Finding] = []
    cursor: str | None = None
    for page_number in range(MAX_PAGES):
        params: dict[str, Any] = {"uri": uri, **({"cursor": cursor} if cursor else {})}
        page = await _ask(conn, "resources/directory/read", params)
        findings.extend(check_page(page, "resources", f"$[page {page_number}]" if page_number else "$"))
        items = page.get("resources") if isinstance(page, dict) else None
        children.extend(item for item in items or [] if isinstance(item, dict) and isinstance(item.get("uri"), str))
        cursor = page.get("nextCursor") if isinstance(page, dict) and isinstance(page.get("nextCursor"), str) else None
        if not cursor:
            break
    return Directory(uri, children, findings)


def skill_root(skill: Skill) -> str:
    """The skill's root directory URI: its SKILL.md URI without `/SKILL.md`."""
    return skill.uri[: -len("/SKILL.md")] if skill.uri.endswith("/SKILL.md") else skill.uri
