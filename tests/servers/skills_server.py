"""A Skills server (SEP-2640) on the SDK's MCPServer with one good skill and three faulty ones, each for a
client's verification to catch:

- `tampered-digest`: SKILL.md served with other bytes of the same length than the entry's digest covers;
- `oversized-file`: a real 17 MiB file, so the skill's total size passes the spec's 16 MiB limit;
- `broken-frontmatter`: SKILL.md (digest and size right) whose frontmatter is not YAML and disagrees with the entry;

`hostile-text` (a description that looks like HTML, with a bidi override: verified, shown as plain text),
and `generated-report`, whose entry says "dynamic" (no digests): its files are found with resources/directory/read.

    python skills_server.py [--http PORT] [--no-methods|--hostile-names|--repeat-pages|--bad-cache|--exit-on-list]

`--no-methods` declares the extension but answers neither skills/list nor skills/get (method not found).
`--hostile-names` adds `path-traversal`, a skill whose entry lists (with digests and sizes) files named
`../../../etc/passwd`, `/abs/file` (`skill://path-traversal//abs/file`), `nul\\x00name.md` (a NUL) and `CON`.
`--repeat-pages` serves every skill on each of 125 pages of skills/list (each URI listed 125 times).
`--bad-cache` answers skills/list with `ttlMs` -5 and `cacheScope` "<b>weird</b>".
`--exit-on-list` declares the extension and exits with code 3 when asked skills/list.
"""

from __future__ import annotations

import argparse
import os
import sys
from hashlib import sha256
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp.server.mcpserver import MCPServer
from mcp_types import PaginatedRequestParams

from inspector.demo.skills_demo import ServedSkill, SkillsExtension, skill_md

GOOD_BODY = skill_md("name: good-skill\ndescription: A skill that verifies.\n", "# Good\n\nSee `notes.md`.\n")
TAMPERED_LISTED = skill_md("name: tampered-digest\ndescription: Listed bytes.\n", "# Honest body.\n")
TAMPERED_SERVED = skill_md("name: tampered-digest\ndescription: Listed bytes.\n", "# Hostile body\n")
BIG = 17 * 1024 * 1024
HOSTILE = '<b>bold</b> <img src="file:///etc/passwd"> a\u202eb'  # rich-text look and a bidi override
HOSTILE_YAML = HOSTILE.replace('"', '\\"').replace("\u202e", "\\u202e")

SKILLS = [
    ServedSkill(
        "good-skill",
        {"name": "good-skill", "description": "A skill that verifies."},
        {"SKILL.md": GOOD_BODY, "notes.md": "Plain notes.\n"},
    ),
    ServedSkill(
        "tampered-digest",
        {"name": "tampered-digest", "description": "Listed bytes."},
        {"SKILL.md": TAMPERED_SERVED},
        listed={"SKILL.md": TAMPERED_LISTED.encode()},
    ),
    ServedSkill(
        "oversized-file",
        {"name": "oversized-file", "description": "One file past the 16 MiB limit."},
        {
            "SKILL.md": skill_md("name: oversized-file\ndescription: One file past the 16 MiB limit.\n", "# Big\n"),
            "data/big.txt": lambda: "x" * BIG,
        },
    ),
    ServedSkill(
        "broken-frontmatter",
        {"name": "broken-frontmatter", "description": "Frontmatter that is not YAML."},
        {"SKILL.md": "---\nname: broken-frontmatter\ndescription: [not closed\n---\n\n# Broken\n"},
    ),
    ServedSkill(
        "hostile-text",
        {"name": "hostile-text", "description": HOSTILE},
        {
            "SKILL.md": skill_md(
                f'name: hostile-text\ndescription: "{HOSTILE_YAML}"\n', '<img src="file:///etc/passwd">\n'
            )
        },
    ),
    ServedSkill(
        "generated-report",
        {"name": "generated-report", "description": "Made fresh on every read."},
        {
            "SKILL.md": skill_md("name: generated-report\ndescription: Made fresh on every read.\n", "# Report\n"),
            "data/today.md": "Today's figures.\n",
        },
        dynamic=True,
    ),
]


class NoMethods(SkillsExtension):
    def methods(self):  # type: ignore[override]
        return ()


TRAVERSAL = ServedSkill(
    "path-traversal",
    {"name": "path-traversal", "description": "Lists files outside its directory."},
    {"SKILL.md": skill_md("name: path-traversal\ndescription: Lists files outside its directory.\n", "# Paths\n")},
)
HOSTILE_NAMES = ("../../../etc/passwd", "/abs/file", "nul\x00name.md", "CON")


class HostileNames(SkillsExtension):
    """Lists unsafe file names in `path-traversal`'s entry (they are not served)."""

    def __init__(self, skills: list[ServedSkill]) -> None:
        super().__init__([*skills, TRAVERSAL])
        listed = self._entries[TRAVERSAL.uri]["resources"]
        for name in HOSTILE_NAMES:
            raw = b"root:x:0:0\n"
            listed.append({"uri": TRAVERSAL.file_uri(name), "digest": "sha256:" + sha256(raw).hexdigest(), "size": 11})


REPEATS = 125


class RepeatPages(SkillsExtension):
    """Every page of skills/list carries every skill again, for REPEATS pages."""

    async def _list(self, ctx: Any, params: PaginatedRequestParams) -> dict[str, Any]:
        page = int(params.cursor or 0)
        more = {"nextCursor": str(page + 1)} if page + 1 < REPEATS else {}
        return {"skills": list(self._entries.values()), **more}


class BadCache(SkillsExtension):
    """skills/list with a negative ttlMs and a cacheScope that looks like HTML."""

    async def _list(self, ctx: Any, params: PaginatedRequestParams) -> dict[str, Any]:
        return {"skills": list(self._entries.values()), "ttlMs": -5, "cacheScope": "<b>weird</b>"}


class ExitOnList(SkillsExtension):
    """Crashes (exit code 3) on skills/list."""

    async def _list(self, ctx: Any, params: PaginatedRequestParams) -> dict[str, Any]:
        os._exit(3)


def build(
    no_methods: bool = False,
    hostile_names: bool = False,
    repeat_pages: bool = False,
    bad_cache: bool = False,
    exit_on_list: bool = False,
) -> MCPServer:
    kind = NoMethods if no_methods else HostileNames if hostile_names else SkillsExtension
    kind = RepeatPages if repeat_pages else BadCache if bad_cache else ExitOnList if exit_on_list else kind
    extension = kind(SKILLS)
    return MCPServer("skills-faults", extensions=[extension])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int)
    parser.add_argument("--no-methods", action="store_true")
    parser.add_argument("--hostile-names", action="store_true")
    parser.add_argument("--repeat-pages", action="store_true")
    parser.add_argument("--bad-cache", action="store_true")
    parser.add_argument("--exit-on-list", action="store_true")
    args = parser.parse_args()
    server = build(args.no_methods, args.hostile_names, args.repeat_pages, args.bad_cache, args.exit_on_list)
    if args.http:
        server.run(transport="streamable-http", port=args.http)
    else:
        server.run()


if __name__ == "__main__":
    main()
