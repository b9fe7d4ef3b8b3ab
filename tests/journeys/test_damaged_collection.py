"""A collection with one step that is not UTF-8 (issue 21 point 3, the outside tester's file), opened in the
Collections tab of the app as launched: the intact step is shown and runs, the damage is said with its line
and bytes, and the damaged line's raw bytes stay viewable."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QPlainTextEdit
from test_traffic import choose_file

ONE_STEP_PER_LINE = (
    b'{"format": "mcp-lens-collection", "version": 1, "name": "lines", "steps": [\n'
    b'{"id": "s1", "server": "Demo server", "method": "tools/call", '
    b'"params": {"name": "echo", "arguments": {"message": "a\xff\xfeb"}}},\n'
    b'{"id": "s2", "server": "Demo server", "method": "tools/list", "params": {}, "expect": [{"kind": "success"}]}\n'
    b"]}\n"
)


def test_a_step_that_is_not_utf8_is_shown_as_damaged_with_its_bytes_and_the_rest_runs(lens, tmp_path: Path) -> None:
    path = tmp_path / "lines.json"
    path.write_bytes(ONE_STEP_PER_LINE)
    lens.start()
    lens.tab("Collections")
    lens.click("Open a collection")
    choose_file(lens, path)
    lens.wait_text("1 intact step shown")
    status = lens.find("Run status").text()
    assert "line 2" in status and "0xFF 0xFE" in status and "s1" in status, status
    assert lens.find("Collection steps").count() == 1
    damaged = lens.find("Damaged parts of the file", QPlainTextEdit)
    assert damaged.isVisible()
    text = damaged.toPlainText()
    assert "line 2" in text and '"message": "a\\xff\\xfeb"' in text, text
    lens.click("Run all steps")
    lens.wait_text("1 of 1 passed", timeout=60_000)
    assert "1 step lost" in lens.find("Run status").text()
    assert path.read_bytes() == ONE_STEP_PER_LINE


def test_a_utf16_collection_opens_with_its_steps_says_so_runs_and_keeps_its_bytes(lens, tmp_path: Path) -> None:
    """Outside tester of issue 21, finding 7: a collection re-saved as UTF-16 (with its mark) was refused
    whole. It opens with both steps, the run status says it is UTF-16, Run all passes, the file is unchanged."""
    path = tmp_path / "wide.json"
    wide = ONE_STEP_PER_LINE.replace(b"a\xff\xfeb", "café ✓".encode()).decode("utf-8").encode("utf-16")
    path.write_bytes(wide)
    lens.start()
    lens.tab("Collections")
    lens.click("Open a collection")
    choose_file(lens, path)
    lens.wait_text("read as UTF-16 LE")
    assert lens.find("Collection steps").count() == 2
    status = lens.find("Run status").text()
    assert "damaged" not in status and "intact step" not in status, status
    lens.click("Run all steps")
    lens.wait_text("2 of 2 passed", timeout=60_000)
    assert path.read_bytes() == wide
