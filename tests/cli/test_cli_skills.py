"""``mcp-lens --cli --method skills/list`` and ``skills/get --skill NAME`` (exit 15 when a skill fails verification),
and a collection asserting on skills, against the demo and tests/servers/skills_server.py as real processes."""

from __future__ import annotations

import json
import sys

from lens_support import REPO, run_lens

from inspector.checks.collection import Collection
from inspector.cli import exit_codes

DEMO = [sys.executable, "-m", "inspector.demo"]
FAULTS = [sys.executable, str(REPO / "tests/servers/skills_server.py")]
MODERN = ("--protocol-era", "modern")


def test_skills_list_prints_every_entry_and_the_cache_hint_in_words() -> None:
    done = run_lens("--cli", "--demo", *MODERN, "--method", "skills/list", "--format", "text")
    assert done.returncode == exit_codes.OK, done.stderr
    assert done.stdout.splitlines()[0] == "release-notes  skill://release-notes/SKILL.md  (4 files, 422 bytes)"
    assert "dice-rolling  skill://games/dice-rolling/SKILL.md  (1 file, 238 bytes)" in done.stdout
    assert "cache: a complete result (resultType complete); fresh for 5 min (ttlMs 300000)" in done.stdout


def test_skills_get_verifies_a_skill_and_exits_15_on_a_tampered_one() -> None:
    good = run_lens("--cli", *MODERN, "--method", "skills/get", "--skill", "good-skill", "--", *FAULTS)
    assert good.returncode == exit_codes.OK, good.stderr
    out = json.loads(good.stdout)
    assert out["verified"] is True and out["SKILL.md"]["text"].startswith("---\nname: good-skill")
    bad = run_lens("--cli", *MODERN, "--method", "skills/get", "--skill", "tampered-digest", "--", *FAULTS)
    assert bad.returncode == exit_codes.SKILL_UNVERIFIED == 15, bad.stderr
    out = json.loads(bad.stdout)
    assert out["verified"] is False and out["SKILL.md"]["status"] == "verification failed: not used"
    [finding] = out["SKILL.md"]["findings"]
    assert finding["message"].startswith("digest mismatch: expected sha256:")
    assert '"finding"' in bad.stderr  # the findings on stderr as JSON lines, as every method writes them
    broken = run_lens("--cli", *MODERN, "--method", "skills/get", "--skill", "broken-frontmatter", "--", *FAULTS)
    assert broken.returncode == exit_codes.SKILL_UNVERIFIED, broken.stderr


def test_skills_get_needs_a_skill_and_a_server_that_declares_the_extension() -> None:
    usage = run_lens("--cli", "--demo", "--method", "skills/get")
    assert usage.returncode == exit_codes.USAGE and "--method skills/get needs --skill" in usage.stderr
    legacy = run_lens("--cli", "--demo", "--protocol-era", "legacy", "--method", "skills/list")
    assert legacy.returncode != exit_codes.OK
    assert "declares no io.modelcontextprotocol/skills extension" in legacy.stderr


def test_a_collection_asserts_on_a_skills_listing_and_an_entry(tmp_path) -> None:
    c = Collection("skills")
    c.add_step(
        "skills/list",
        {},
        name="list",
        expect=[{"kind": "equals", "path": "$.result.skills[1].frontmatter.name", "value": "dice-rolling"}],
    )
    c.add_step(
        "skills/get",
        {"uri": "skill://games/dice-rolling/SKILL.md"},
        name="get",
        expect=[{"kind": "equals", "path": "$.result.skill.frontmatter.license", "value": "MIT"}],
    )
    path = tmp_path / "skills.json"
    c.save(path)
    done = run_lens("run", str(path), "--protocol-era", "modern", "--", *DEMO)
    assert done.returncode == exit_codes.OK, done.stdout + done.stderr
    assert "skills: 2/2 passed" in done.stderr + done.stdout


def test_skills_get_exits_15_for_a_skill_listing_unsafe_file_names() -> None:
    done = run_lens(
        "--cli", *MODERN, "--method", "skills/get", "--skill", "path-traversal", "--", *FAULTS, "--hostile-names"
    )
    assert done.returncode == exit_codes.SKILL_UNVERIFIED, done.stderr
    out = json.loads(done.stdout)
    assert out["verified"] is False
    said = " | ".join(f["message"] for f in out["findings"])
    assert "'..' segment" in said and "absolute path" in said and "NUL" in said and "'CON'" in said


def test_a_finding_says_the_expected_value_once() -> None:
    bad = run_lens(
        "--cli", *MODERN, "--method", "skills/get", "--skill", "tampered-digest", "--format", "text", "--", *FAULTS
    )
    assert bad.returncode == exit_codes.SKILL_UNVERIFIED, bad.stderr
    [line] = [line for line in bad.stdout.splitlines() if "digest mismatch" in line]
    expected = line.split("expected ", 1)[1].split(",", 1)[0]
    assert expected.startswith("sha256:") and line.count(expected) == 1, line
    assert "(expected" not in line
