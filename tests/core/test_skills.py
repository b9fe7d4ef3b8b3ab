"""Skills (SEP-2640) against real servers: the demo's two skills and tests/servers/skills_server.py's faults
(a tampered digest, a 17 MiB file, broken frontmatter), with the SDK `Connection` and the CLI's `LiteConnection`."""

from __future__ import annotations

import json
import sys

import pytest
from core_support import run_with, stdio_profile
from lens_support import DEMO, REPO

from inspector.core import skills
from inspector.core.errors import ProtocolError
from inspector.core.frontmatter import parse, split
from inspector.core.operations import Operations
from inspector.traffic.store import TrafficStore

FAULTS = [sys.executable, str(REPO / "tests/servers/skills_server.py")]
BOTH = pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])


def _sent(store: TrafficStore, method: str) -> list[dict]:
    return [json.loads(e.raw) for e in store if e.direction.value == "out" and e.method == method]


@BOTH
def test_the_demo_lists_its_skills_reading_no_file_and_loads_one_verified(lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> tuple:
        listing = await skills.list_skills(conn)
        reads_after_listing = len(_sent(store, "resources/read"))
        notes = listing.by_name("release-notes")[0]
        loaded = await skills.load_skill(conn, notes)
        style = await skills.read_file(conn, notes, "skill://release-notes/references/STYLE.md")
        folder = await skills.read_directory(conn, "skill://release-notes/templates")
        return listing, reads_after_listing, loaded, style, folder

    profile = stdio_profile(DEMO, era="modern", PYTHONPATH=str(REPO))
    listing, reads_after_listing, loaded, style, folder = run_with(profile, body, lite=lite, store=store)
    assert [s.name for s in listing.skills] == ["release-notes", "dice-rolling"]
    assert not listing.all_findings()
    assert listing.cache == (
        "a complete result (resultType complete); fresh for 5 min (ttlMs 300000); "
        "shareable between users (cacheScope public)"
    )
    assert reads_after_listing == 0  # no prefetch: listing reads nothing
    assert loaded.verified and loaded.fields == listing.skills[0].frontmatter
    assert loaded.body.startswith("\n# Release notes")
    assert style.verified and style.text is not None and style.text.startswith("# House style")
    assert [c["uri"].rsplit("/", 1)[1] for c in folder.children] == ["minor.md", "major.md"]
    # the extension declared on every 2026-07-28 request
    listed = _sent(store, "skills/list")[0]
    declared = listed["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]
    assert "io.modelcontextprotocol/skills" in declared
    assert [m["params"]["uri"] for m in _sent(store, "resources/read")] == [
        "skill://release-notes/SKILL.md",
        "skill://release-notes/references/STYLE.md",
    ]


def test_the_handshake_era_declares_the_extension_in_initialize() -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> None:
        assert skills.server_setting(conn.capabilities) is None  # the SDK serves extensions only in 2026-07-28
        with pytest.raises(skills.SkillsRefused, match=r"declares no io\.modelcontextprotocol/skills"):
            await skills.list_skills(conn)

    run_with(stdio_profile(DEMO, PYTHONPATH=str(REPO)), body, store=store)
    assert _sent(store, "initialize")[0]["params"]["capabilities"]["extensions"] == {
        "io.modelcontextprotocol/skills": {}
    }
    assert not _sent(store, "skills/list")  # nothing sent to a server that did not declare it


@BOTH
def test_each_planted_fault_is_caught_and_nothing_unverified_is_called_verified(lite: bool) -> None:
    async def body(conn: Operations) -> tuple:
        listing = await skills.list_skills(conn)
        by_name = {skill.name: skill for skill in listing.skills}
        good = await skills.load_skill(conn, by_name["good-skill"])
        tampered = await skills.load_skill(conn, by_name["tampered-digest"])
        broken = await skills.load_skill(conn, by_name["broken-frontmatter"])
        unlisted = await skills.read_file(conn, by_name["good-skill"], "skill://good-skill/secret.md")
        return by_name, good, tampered, broken, unlisted

    by_name, good, tampered, broken, unlisted = run_with(stdio_profile(FAULTS, era="modern"), body, lite=lite)
    assert good.verified and not by_name["good-skill"].findings
    assert not tampered.verified and tampered.skill_md.raw is not None  # kept as raw bytes, not used
    [mismatch] = tampered.skill_md.findings
    assert mismatch.message.startswith("digest mismatch: expected sha256:") and ", got sha256:" in mismatch.message
    assert tampered.skill_md.status() == "verification failed: not used"
    [limit] = by_name["oversized-file"].findings
    assert limit.message == "17,825,873 bytes in all" and "16 MiB" in limit.expected
    assert not broken.verified and broken.fields is None
    assert "not YAML" in broken.skill_md.findings[0].message and "line 3" in broken.skill_md.findings[0].message
    assert not unlisted.verified and unlisted.raw is None and "not listed" in unlisted.findings[0].message


def test_a_size_mismatch_and_a_frontmatter_difference_are_each_a_verification_failure() -> None:
    """The suite's verify-size and verify-frontmatter cases on the pure checks, with what was expected and what came."""
    from inspector.core.skill_verify import check_file, check_skill_md, digest_of

    raw = b"---\nname: a\ndescription: b\n---\n"
    [size, digest] = check_file(raw + b"extra", {"uri": "u", "size": len(raw), "digest": digest_of(raw)}, "u")
    assert size.message == f"size mismatch: the entry says {len(raw)} bytes, {len(raw) + 5} came"
    assert digest.message.startswith("digest mismatch")
    _, _, [differs] = check_skill_md(raw.decode(), {"name": "a", "description": "c"})
    assert differs.message == 'frontmatter \'description\' differs: the entry says "c", the file says "b"'


def test_a_server_that_declares_skills_but_does_not_answer_is_explained_in_words() -> None:
    async def body(conn: Operations) -> ProtocolError:
        with pytest.raises(ProtocolError) as caught:
            await skills.list_skills(conn)
        return caught.value

    error = run_with(stdio_profile([*FAULTS, "--no-methods"], era="modern"), body)
    assert error.code == -32601
    assert "must implement skills/list and skills/get" in (error.hint or "")
    assert "in each request's _meta" in (error.hint or "")
    words = skills.explain(-32021, "skills/list", "modern", {"requiredCapabilities": {"extensions": {}}})
    assert words is not None and "wants the client to declare io.modelcontextprotocol/skills" in words


def test_frontmatter_reads_the_subset_skills_use_and_names_what_it_does_not() -> None:
    text = '---\nname: x\ndescription: "a: b"\nmetadata:\n  version: "2"\ntags: [a, b]\n---\nbody\n'
    front = split(text)
    assert front.fields == {"name": "x", "description": "a: b", "metadata": {"version": "2"}, "tags": ["a", "b"]}
    assert front.body == "body\n"
    assert split("# no frontmatter").problem == "SKILL.md does not begin with a --- delimited YAML frontmatter block"
    assert "line 2" in (split("---\nname: &anchor x\n---\n").problem or "")
    assert "appears twice" in (split("---\nname: x\nname: y\n---\n").problem or "")


@BOTH
def test_unsafe_file_names_in_an_entry_are_red_findings_never_read_never_verified(lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> tuple:
        listing = await skills.list_skills(conn)
        [skill] = listing.by_name("path-traversal")
        loaded = await skills.load_skill(conn, skill)
        escaped = await skills.read_file(conn, skill, "skill://path-traversal/../../../etc/passwd")
        return skill, loaded, escaped

    profile = stdio_profile([*FAULTS, "--hostile-names"], era="modern")
    skill, loaded, escaped = run_with(profile, body, lite=lite, store=store)
    unsafe = [f for f in skill.findings if "a host must not write or read it" in f.message]
    assert [f.severity for f in unsafe] == ["error"] * 4, skill.findings
    said = " | ".join(f.message for f in unsafe)
    assert "'..' segment" in said and "absolute path" in said and "NUL" in said and "device name 'CON'" in said
    assert loaded.skill_md.verified and not loaded.verified  # SKILL.md's bytes match, the entry is unsafe
    assert loaded.status().endswith("not used") and "verified" not in loaded.status()
    assert not escaped.verified and escaped.raw is None and "not read" in escaped.findings[0].message
    assert [m["params"]["uri"] for m in _sent(store, "resources/read")] == ["skill://path-traversal/SKILL.md"]


def test_a_skill_listed_again_on_every_page_is_kept_once_and_said_once_with_a_count() -> None:
    async def body(conn: Operations) -> skills.SkillsListing:
        return await skills.list_skills(conn)

    listing = run_with(stdio_profile([*FAULTS, "--repeat-pages"], era="modern"), body, lite=True)
    assert listing.pages == 125
    assert [s.name for s in listing.skills][:2] == ["good-skill", "tampered-digest"] and len(listing.skills) == 6
    assert listing.duplicates == 6 * 124
    [repeated] = [f for f in listing.findings if "listed more than once" in f.message]
    assert repeated.message.startswith("6 skills listed more than once (750 entries for 6 URIs; the repeats dropped)")
    assert "skill://good-skill/SKILL.md ×125" in repeated.message and len(repeated.message) < 400
    assert not [f for f in listing.findings if "is served at" in f.message]  # one URI is not a name collision


def test_a_bad_cache_hint_is_a_finding_and_not_said_as_a_cache_rule() -> None:
    async def body(conn: Operations) -> skills.SkillsListing:
        return await skills.list_skills(conn)

    listing = run_with(stdio_profile([*FAULTS, "--bad-cache"], era="modern"), body, lite=True)
    said = {f.path: f.message for f in listing.findings}
    assert said["$.ttlMs"] == "ttlMs -5 is not a non-negative integer"
    assert said["$.cacheScope"] == 'cacheScope "<b>weird</b>" is neither public nor private'
    assert listing.cache == "a complete result (resultType complete)"  # the bad hints are not said as a rule


def test_a_line_separator_inside_a_frontmatter_value_is_text_not_a_line_break() -> None:
    """YAML breaks lines at LF and CR only: a U+2028 or U+0085 in a value is part of it (splitlines cut there)."""
    assert parse("name: a\u2028b\ndescription: c\x85d") == {"name": "a\u2028b", "description": "c\x85d"}
