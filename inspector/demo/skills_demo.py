"""Skills (`io.modelcontextprotocol/skills`, SEP-2640) served by an SDK `MCPServer` extension: `skills/list`,
`skills/get`, `resources/directory/read` (`directoryRead: true`) and each file as a `skill://` resource.

The demo offers two skills (`DEMO_SKILLS`: one with several files). `SkillsExtension` also serves the
faulty skills of `tests/servers/skills_server.py`: a `ServedSkill` may list bytes other than those it serves
(`listed`), or a frontmatter of its own (`entry_frontmatter`), so a client's verification has something to catch.
`skills/list` and `skills/get` answer only a client that declared the extension (-32021 otherwise). The SDK
serves extensions in the 2026-07-28 era only: a handshake-era client sees no skills here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp.server.extension import Extension, MethodBinding, ResourceBinding
from mcp.server.mcpserver.resources import FunctionResource
from mcp.server.mcpserver.server import require_client_extension
from mcp.shared.exceptions import MCPError
from mcp_types import PaginatedRequestParams, RequestParams

IDENTIFIER = "io.modelcontextprotocol/skills"
INVALID_PARAMS = -32602
PAGE_SIZE = 50
TTL_MS = 300_000


class GetSkillParams(RequestParams):
    uri: str


class DirectoryParams(PaginatedRequestParams):
    uri: str


def _digest(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _mime(path: str) -> str:
    return {"md": "text/markdown", "py": "text/x-python", "json": "application/json"}.get(
        path.rsplit(".", 1)[-1], "text/plain"
    )


@dataclass
class ServedSkill:
    """One skill: its path (`acme/refunds`: the last segment is its name), frontmatter and files by path
    relative to the skill's root (`SKILL.md` among them). `listed` overrides a file's bytes in the entry
    (its digest and size), `entry_frontmatter` the entry's frontmatter: what a tampered skill lies about."""

    path: str
    frontmatter: dict[str, Any]
    files: dict[str, str | Callable[[], str]]
    listed: dict[str, bytes] = field(default_factory=dict)
    entry_frontmatter: dict[str, Any] | None = None
    dynamic: bool = False  # generated content: the entry says "dynamic" instead of listing digests

    @property
    def uri(self) -> str:
        return f"skill://{self.path}/SKILL.md"

    def file_uri(self, path: str) -> str:
        return f"skill://{self.path}/{path}"

    def content(self, path: str) -> str:
        value = self.files[path]
        return value() if callable(value) else value

    def entry(self) -> dict[str, Any]:
        front = self.entry_frontmatter if self.entry_frontmatter is not None else self.frontmatter
        if self.dynamic:
            return {"uri": self.uri, "frontmatter": front, "resources": "dynamic"}
        resources = []
        for path in self.files:
            raw = self.listed.get(path)
            if raw is None:
                raw = self.content(path).encode("utf-8")
            resources.append({"uri": self.file_uri(path), "digest": _digest(raw), "size": len(raw)})
        return {"uri": self.uri, "frontmatter": front, "resources": resources}

    def directories(self) -> dict[str, list[dict[str, Any]]]:
        """Every directory of the skill (its root and each folder) → its direct children as resources."""
        out: dict[str, list[dict[str, Any]]] = {f"skill://{self.path}": []}
        for path in self.files:
            parts = path.split("/")
            for depth in range(len(parts)):
                parent = "/".join([self.path, *parts[:depth]])
                child = "/".join(parts[: depth + 1])
                children = out.setdefault(f"skill://{parent}", [])
                uri = self.file_uri(child)
                if any(item["uri"] == uri for item in children):
                    continue
                if depth == len(parts) - 1:
                    children.append({"uri": uri, "name": parts[depth], "mimeType": _mime(path)})
                else:
                    children.append({"uri": uri, "name": parts[depth], "mimeType": "inode/directory"})
        return out


class SkillsExtension(Extension):
    identifier = IDENTIFIER

    def __init__(self, skills: Sequence[ServedSkill], *, directory_read: bool = True) -> None:
        self.skills = list(skills)
        self.directory_read = directory_read
        self._entries = {skill.uri: skill.entry() for skill in self.skills}  # digests computed once

    def settings(self) -> dict[str, Any]:
        return {"directoryRead": True} if self.directory_read else {}

    def resources(self) -> Sequence[ResourceBinding]:
        bindings = []
        for skill in self.skills:
            for path in skill.files:
                description = skill.frontmatter.get("description") if path == "SKILL.md" else None
                name = skill.frontmatter.get("name") if path == "SKILL.md" else path
                resource = FunctionResource(
                    uri=skill.file_uri(path),
                    name=str(name),
                    description=description if isinstance(description, str) else None,
                    mime_type=_mime(path),
                    fn=lambda skill=skill, path=path: skill.content(path),
                )
                bindings.append(ResourceBinding(resource))
        return bindings

    def methods(self) -> Sequence[MethodBinding]:
        bindings = [
            MethodBinding("skills/list", PaginatedRequestParams, self._list),
            MethodBinding("skills/get", GetSkillParams, self._get),
        ]
        if self.directory_read:
            bindings.append(MethodBinding("resources/directory/read", DirectoryParams, self._directory))
        return bindings

    async def _list(self, ctx: Any, params: PaginatedRequestParams) -> dict[str, Any]:
        require_client_extension(ctx, IDENTIFIER)  # -32021 to a client that did not declare Skills
        entries = list(self._entries.values())
        start = _cursor(params.cursor, len(entries))
        page: dict[str, Any] = {"skills": entries[start : start + PAGE_SIZE], **_cacheable()}
        if start + PAGE_SIZE < len(entries):
            page["nextCursor"] = str(start + PAGE_SIZE)
        return page

    async def _get(self, ctx: Any, params: GetSkillParams) -> dict[str, Any]:
        require_client_extension(ctx, IDENTIFIER)
        entry = self._entries.get(params.uri)
        if entry is None:
            raise MCPError(INVALID_PARAMS, f"No skill is served at {params.uri}")
        return {"skill": entry, **_cacheable()}

    async def _directory(self, ctx: Any, params: DirectoryParams) -> dict[str, Any]:
        for skill in self.skills:
            children = skill.directories().get(params.uri)
            if children is not None:
                return {"resources": children}
        raise MCPError(INVALID_PARAMS, f"{params.uri} is not a directory resource")


def _cacheable() -> dict[str, Any]:
    return {"ttlMs": TTL_MS, "cacheScope": "public"}


def _cursor(cursor: str | None, total: int) -> int:
    if cursor is None:
        return 0
    if not cursor.isdigit() or int(cursor) > total:
        raise MCPError(INVALID_PARAMS, f"unknown cursor {cursor[:40]!r}")
    return int(cursor)


def skill_md(frontmatter_text: str, body: str) -> str:
    return f"---\n{frontmatter_text}---\n\n{body}"


RELEASE_NOTES = ServedSkill(
    "release-notes",
    {"name": "release-notes", "description": "Write release notes from the demo's changelog, one line per change."},
    {
        "SKILL.md": skill_md(
            "name: release-notes\ndescription: Write release notes from the demo's changelog, one line per change.\n",
            "# Release notes\n\n"
            "1. Read `references/STYLE.md` for the house style.\n"
            "2. Pick a template from `templates/`.\n"
            "3. Write one line per change, newest first.\n",
        ),
        "references/STYLE.md": "# House style\n\n- Start each line with a verb.\n- No marketing words.\n",
        "templates/minor.md": "## {version}\n\n{changes}\n",
        "templates/major.md": "## {version} (breaking)\n\n### Breaking\n{breaking}\n\n### Other\n{changes}\n",
    },
)

DICE_ROLLING = ServedSkill(
    "games/dice-rolling",
    {
        "name": "dice-rolling",
        "description": "Roll dice with the demo's show_dice tool and explain the odds.",
        "license": "MIT",
        "metadata": {"version": "1.0"},
    },
    {
        "SKILL.md": skill_md(
            "name: dice-rolling\n"
            "description: Roll dice with the demo's show_dice tool and explain the odds.\n"
            "license: MIT\n"
            "metadata:\n"
            '  version: "1.0"\n',
            "# Dice rolling\n\nCall `show_dice` with `count` and `sides`, then say how likely the total was.\n",
        ),
    },
)

DEMO_SKILLS = (RELEASE_NOTES, DICE_ROLLING)


def build() -> SkillsExtension:
    """The demo's two skills."""
    return SkillsExtension(DEMO_SKILLS)
