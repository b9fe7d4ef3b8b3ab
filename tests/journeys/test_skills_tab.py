"""The Skills tab (issue 26): shown for a server that declares Skills, hidden for one that does not; the demo's
skill read and verified, then one of its files; a tampered skill's finding in red with what was expected and
what came, its content shown as unverified and its other files never read."""

from __future__ import annotations

import re
import sys

from journey_support import Lens, shown_text
from lens_support import REPO
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QListWidget, QPlainTextEdit, QTabBar, QTableWidget

FAULTS = [sys.executable, str(REPO / "tests/servers/skills_server.py")]
WAIT = 30_000


def _tab_visible(lens: Lens, name: str) -> bool:
    for bar in lens.widgets(QTabBar):
        for index in range(bar.count()):
            if bar.tabText(index) == name:
                return bar.isTabVisible(index)
    return False


def _reads(lens: Lens) -> list[str]:
    return [m["params"]["uri"] for m in lens.sent("resources/read") if m["params"]["uri"].startswith("skill://")]


def test_the_demo_s_skill_is_read_and_verified_then_one_of_its_files(lens) -> None:
    lens.start()
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows for the demo")
    assert "extension io.modelcontextprotocol/skills" in shown_text(lens.find("Client capabilities"))
    lens.tab("Skills")
    lens.click_item("Skills", "release-notes", timeout=WAIT)
    assert "Write release notes" in lens.texts()
    assert lens.sent("skills/list") and not _reads(lens)  # listing and choosing read no file
    lens.click("Load skill")
    verification = lens.find("Skill verification")
    lens.wait(lambda: "verified" in shown_text(verification), timeout=WAIT, what="SKILL.md verified")
    assert shown_text(verification) == "SKILL.md verified: size and SHA-256 digest match the entry"
    content = lens.find("Skill content", QPlainTextEdit)
    assert isinstance(content, QPlainTextEdit) and "# Release notes" in content.toPlainText()
    assert content.toPlainText().startswith("---\nname: release-notes")  # the Markdown as text, not rendered
    lens.click_item("Frontmatter", "description")
    lens.click_item("Skill files", "references/STYLE.md", double=True)
    lens.wait(lambda: "# House style" in content.toPlainText(), timeout=WAIT, what="the file is shown")
    assert "skill://release-notes/references/STYLE.md: verified" in shown_text(lens.find("Skill content status"))
    assert _reads(lens) == ["skill://release-notes/SKILL.md", "skill://release-notes/references/STYLE.md"]
    lens.tab("Budget")  # what the listed skills cost a host, beside the tool list's figure and in its words
    totals = lens.find("Budget totals", QLabel)
    assert isinstance(totals, QLabel)
    lens.wait(lambda: "skills: 2 skills listed" in totals.text(), timeout=WAIT, what="the skills' cost")
    assert "tokens (names and descriptions as a host lists them; exact (" in totals.text()
    window = lens.find("Context window", QComboBox)  # another window: the skills figure stays
    before = window.currentText()
    window.setFocus()
    lens.key("Down", window)
    lens.wait(lambda: window.currentText() != before, what="another context window chosen")
    lens.wait(lambda: f"of a {window.currentText()} window" in totals.text(), timeout=WAIT, what="the share")
    assert "skills: 2 skills listed" in totals.text(), totals.text()
    # Per host view: the host's own rule for its skills listing, or "not known" where nobody knows it.
    box = lens.find("Host", QComboBox)
    lens.click(box)  # opens the list; Escape closes it, focus stays on the box
    lens.key("Escape")
    choose_by_keys(lens, box, "Claude Code")
    lens.wait(lambda: "as Claude Code lists them" in totals.text(), timeout=WAIT, what="Claude Code's skills")
    shown = totals.text()
    assert re.search(r"skills: 2 skills listed, \d+ tokens as Claude Code lists them \(.*; unconfirmed\)$", shown)
    choose_by_keys(lens, box, "Cursor")
    lens.wait(lambda: "not known how Cursor loads" in totals.text(), timeout=WAIT, what="Cursor's skills")
    assert totals.text().endswith("skills: 2 skills listed; not known how Cursor loads a server's skills")
    assert lens.quit() == 0


def test_a_tampered_skill_shows_its_finding_and_is_not_used(lens) -> None:
    lens.start(*FAULTS)
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows")
    lens.tab("Skills")
    lens.click_item("Skills", "tampered-digest", timeout=WAIT)
    lens.click("Load skill")
    verification = lens.find("Skill verification")
    lens.wait(lambda: "failed" in shown_text(verification), timeout=WAIT, what="the verification fails")
    assert shown_text(verification) == "SKILL.md verification failed: not used"
    findings = lens.find("Skill findings", QListWidget)
    assert isinstance(findings, QListWidget)
    [mismatch] = [findings.item(i) for i in range(findings.count())]
    assert mismatch.text().startswith("digest mismatch: expected sha256:") and ", got sha256:" in mismatch.text()
    assert mismatch.foreground().color().name() == "#c62828"  # red
    content = lens.find("Skill content", QPlainTextEdit)
    assert isinstance(content, QPlainTextEdit)
    assert content.toPlainText().startswith("UNVERIFIED CONTENT, shown as it came and not used:")
    assert "# Hostile body" in content.toPlainText()  # the raw bytes stay viewable
    assert _reads(lens) == ["skill://tampered-digest/SKILL.md"]
    lens.click_item("Skills", "oversized-file")  # the limit is caught from the entry alone, nothing read
    lens.wait(lambda: findings.count() == 1 and "16 MiB" in findings.item(0).text(), what="the size limit")
    assert _reads(lens) == ["skill://tampered-digest/SKILL.md"]
    lens.click_item("Skills", "broken-frontmatter")  # frontmatter that is not YAML: a red finding, no fields
    lens.click("Load skill")
    lens.wait(lambda: "failed" in shown_text(verification), timeout=WAIT, what="the frontmatter refused")
    assert shown_text(verification) == "SKILL.md verification failed: not used"
    said = [findings.item(i) for i in range(findings.count())]
    assert said and all(item.foreground().color().name() == "#c62828" for item in said)
    assert any("frontmatter" in item.text().lower() for item in said), [item.text() for item in said]
    assert content.toPlainText().startswith("UNVERIFIED CONTENT, shown as it came and not used:")
    assert lens.quit() == 0


def test_a_dynamic_skill_s_files_are_found_by_a_directory_read_and_never_called_verified(lens) -> None:
    lens.start(*FAULTS)
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows")
    lens.tab("Skills")
    lens.click_item("Skills", "generated-report", timeout=WAIT)
    findings = lens.find("Skill findings", QListWidget)
    assert isinstance(findings, QListWidget) and 'resources is "dynamic"' in findings.item(0).text()
    assert not lens.sent("resources/directory/read")  # nothing before asked
    lens.click("List files")
    lens.click_item("Skill files", "data/today.md", double=True, timeout=WAIT)
    content = lens.find("Skill content", QPlainTextEdit)
    assert isinstance(content, QPlainTextEdit)
    lens.wait(lambda: "Today's figures." in content.toPlainText(), timeout=WAIT, what="the file is shown")
    assert 'unverified: the entry says "dynamic" (no digests)' in shown_text(lens.find("Skill content status"))
    assert [m["params"]["uri"] for m in lens.sent("resources/directory/read")] == [
        "skill://generated-report",
        "skill://generated-report/data",
    ]
    assert lens.quit() == 0


def test_a_hostile_skill_is_plain_text_in_the_list_the_fields_and_the_content(lens) -> None:
    lens.start(*FAULTS)
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows")
    lens.tab("Skills")
    lens.click_item("Skills", "hostile-text", timeout=WAIT)
    table = lens.find("Skills", QTableWidget)
    assert isinstance(table, QTableWidget)
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "hostile-text")
    cell = table.item(row, 1)
    assert cell.text() == '<b>bold</b> <img src="file:///etc/passwd"> a\\u202eb'  # the override escaped
    assert "<b>bold" not in cell.toolTip() and "&lt;b&gt;bold" in cell.toolTip().replace("&lt;b>", "&lt;b&gt;")
    lens.click("Load skill")
    lens.wait(lambda: "verified" in shown_text(lens.find("Skill verification")), timeout=WAIT, what="loaded")
    fields = lens.find("Frontmatter", QTableWidget)
    assert isinstance(fields, QTableWidget) and fields.item(1, 1).text() == cell.text()
    content = lens.find("Skill content", QPlainTextEdit)
    assert isinstance(content, QPlainTextEdit) and '<img src="file:///etc/passwd">' in content.toPlainText()
    for label in lens.widgets(QLabel, top=lens.find("Skill verification").window()):
        assert label.textFormat() == Qt.TextFormat.PlainText or "file:///" not in label.text()
    assert lens.quit() == 0


def test_the_skills_tab_is_hidden_for_a_server_that_does_not_declare_skills(lens) -> None:
    lens.start("--protocol-era", "legacy", sys.executable, "-m", "inspector.demo")
    lens.wait(lambda: bool(lens.sent("initialize")), what="connected in the handshake era")
    assert not _tab_visible(lens, "Skills")
    assert not lens.sent("skills/list")
    assert lens.quit() == 0


def test_a_list_repeated_on_every_page_keeps_the_status_one_line_and_the_table_one_row_per_skill(lens) -> None:
    lens.start(*FAULTS, "--repeat-pages")
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows")
    lens.tab("Skills")
    table = lens.find("Skills", QTableWidget)
    assert isinstance(table, QTableWidget)
    lens.wait(lambda: table.rowCount() == 6, timeout=WAIT, what="six skills, each once")
    status = lens.find("Skills status", QLabel)
    lens.wait(lambda: "listed more than once" in status.toolTip(), timeout=WAIT, what="the whole status as a tooltip")
    assert status.height() < 2 * status.fontMetrics().height()  # one line: the table is not pushed down
    assert status.toolTip().startswith("6 skills listed. 1 finding: 6 skills listed more than once (750 entries")
    assert "<" not in status.toolTip() or "&lt;" in status.toolTip()
    lens.tab("Budget")  # each distinct skill counted once, the drop said
    totals = lens.find("Budget totals", QLabel)
    lens.wait(lambda: "skills: 6 skills listed (744 duplicates dropped)" in totals.text(), timeout=WAIT, what="cost")
    assert lens.quit() == 0


def test_a_server_that_exits_on_skills_list_is_said_to_have_stopped(lens) -> None:
    lens.start(*FAULTS, "--exit-on-list")
    lens.wait(lambda: _tab_visible(lens, "Skills"), what="the Skills tab shows")
    lens.tab("Skills")  # the list is asked for when the tab shows; the server exits on it
    status = lens.find("Skills status", QLabel)
    lens.wait(lambda: "exited with code 3" in status.toolTip(), timeout=WAIT, what="the exit said")
    assert "declares no" not in status.toolTip()
    assert lens.sent("skills/list")
    lens.wait_status(lambda text: "disconnected" in text, timeout=WAIT)  # the window says the server is gone
    lens.click("List skills")  # asked again once the server is gone: still its exit, not a missing declaration
    lens.wait(lambda: "exited with code 3" in status.toolTip(), timeout=WAIT, what="the exit said again")
    assert "declares no" not in status.toolTip(), status.toolTip()
    assert lens.quit() == 0


def test_a_digest_mismatch_reads_whole_in_the_findings_at_1024_by_700(lens) -> None:
    lens.start(*FAULTS)
    lens.window.resize(1024, 700)
    lens.wait(lambda: (lens.window.width(), lens.window.height()) == (1024, 700), what="the window at 1024×700")
    lens.tab("Skills")
    lens.click_item("Skills", "tampered-digest", timeout=WAIT)
    lens.click("Load skill")
    findings = lens.find("Skill findings", QListWidget)
    assert isinstance(findings, QListWidget)
    lens.wait(lambda: findings.count() == 1, timeout=WAIT, what="the mismatch")
    lens.qtbot.wait(200)
    item = findings.item(0)
    room = findings.viewport().width()
    words = item.text().split()
    cut = [w for w in words if findings.fontMetrics().horizontalAdvance(w) > room]
    assert not cut, f"{room} px: {cut}"  # a word wider than the list is clipped, not wrapped
    assert re.search(r"sha256:[0-9a-f]{6}…[0-9a-f]{4}", item.text())
    assert re.search(r"sha256:[0-9a-f]{64}", item.toolTip())  # the whole digests in the tooltip


def test_the_skills_list_reads_whole_at_1024_by_700_and_1280_by_860(lens) -> None:
    """Issue 26: the list's columns were cut to a few characters at 1024×700 ("goo…", "sha…"). Now the name,
    the size and the digest (cut to its two ends, whole in its tooltip) show whole, the description gets the
    rest, and the window keeps its size."""
    lens.start(*FAULTS)
    lens.tab("Skills")
    table = lens.find("Skills", QTableWidget)
    assert isinstance(table, QTableWidget)
    lens.wait(lambda: table.rowCount() == 6, timeout=WAIT, what="the six skills listed")
    for width, height in ((1024, 700), (1280, 860)):
        lens.window.resize(width, height)
        lens.wait(lambda w=width, h=height: (lens.window.width(), lens.window.height()) == (w, h), what="resized")
        lens.qtbot.wait(200)
        assert table.visibleRegion().boundingRect().size() == table.size(), "the list is cut"
        metrics = table.fontMetrics()
        for row in range(table.rowCount()):
            for column in (0, 2, 3):
                text = table.item(row, column).text()
                assert table.columnWidth(column) >= metrics.horizontalAdvance(text) + 6, (width, row, column, text)
        digest = table.item(0, 3)
        assert re.fullmatch(r"sha256:[0-9a-f]{6}…[0-9a-f]{4}", digest.text()), digest.text()
        assert re.search(r"sha256:[0-9a-f]{64}", digest.toolTip())
        assert table.columnWidth(1) >= 240, f"{width}×{height}: the description gets {table.columnWidth(1)} px"
        assert (lens.window.width(), lens.window.height()) == (width, height)
    assert lens.quit() == 0


def choose_by_keys(lens, box: QComboBox, wanted: str) -> None:
    """`wanted` chosen in `box` with the arrow keys, as a person does on a loaded machine (typing its name is a
    keyboard search that starts again after 400 ms between keys: under load "Cursor" became "C", then "u")."""
    box.setFocus()
    key = "Down" if box.findText(wanted) > box.currentIndex() else "Up"
    for _ in range(box.count()):
        if box.currentText() == wanted:
            break
        lens.key(key, box)
    lens.wait(lambda: box.currentText() == wanted, what=f"{wanted} chosen")
