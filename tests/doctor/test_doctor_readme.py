"""The README's "What the doctor checks" table is the check table (issue 25, point 1): generated from
`inspector/doctor/table.py` by `scripts/doctor-checks-readme`, as `mcp-lens doctor --list-checks
--format markdown` prints it; this test fails while the two differ. The listing is run as a user runs it."""

from __future__ import annotations

import json

from lens_support import REPO, run_lens

from inspector.doctor.render import CHECKS_END, CHECKS_START, checks_markdown
from inspector.doctor.table import CHECKS


def test_the_readme_table_is_the_check_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.count(CHECKS_START) == 1 and readme.count(CHECKS_END) == 1
    block = readme.split(CHECKS_START)[1].split(CHECKS_END)[0]
    assert block == "\n" + checks_markdown(), "run scripts/doctor-checks-readme: the README's table is stale"


def test_every_check_names_what_it_checks_and_the_section_it_enforces() -> None:
    assert all(check.what and check.section for check in CHECKS), [c.id for c in CHECKS if not c.section]


def test_list_checks_prints_the_table_in_its_order_without_a_server() -> None:
    done = run_lens("doctor", "--list-checks", "--format", "json")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert [row["check"].split(" / ")[0] for row in listed] == [check.id for check in CHECKS]
    assert all(row["section"] and row["what"] for row in listed)
    markdown = run_lens("doctor", "--list-checks", "--format", "markdown")
    assert markdown.stdout == checks_markdown()
    text = run_lens("doctor", "--list-checks").stdout
    assert [line.split(" (")[0] for line in text.splitlines() if not line.startswith(" ")] == [
        " / ".join(check.ids) for check in CHECKS
    ]
    refused = run_lens("doctor", "--format", "markdown", "--demo")
    assert refused.returncode == 2 and "--list-checks" in refused.stdout + refused.stderr
