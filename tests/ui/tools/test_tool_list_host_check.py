"""The Tools tab's host check: a host picked in the tool list's "Host check" box marks each tool accepted,
changed or refused, the tooltip names the rule and its source, the count says how many the host refuses, and
the choice is kept."""

from __future__ import annotations

from factories import tool
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from inspector.ui.tools.tool_list import JUDGED_PER_TURN, ToolList

OPEN = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
CLOSED = {**OPEN, "additionalProperties": False}
TOOLS = [
    tool("open_search", "Searches.", OPEN),
    tool("closed_search", "Searches, strictly.", CLOSED),
    tool("manual", "Read me. " * 300, CLOSED),
    tool('<img src="file:///etc/passwd">', "Hostile name.", CLOSED),
]


def listing(tools: list) -> object:
    return type("Listing", (), {"tools": tools, "findings": []})()


def rows(tools: ToolList) -> list[str]:
    model = tools.model
    return [model.data(model.index(i), Qt.ItemDataRole.DisplayRole) for i in range(model.rowCount())]


def pick(tools: ToolList, label: str) -> None:
    """Choose ``label`` in the Host check box by keys, as a user does: focus it, type, Enter."""
    box = tools.findChild(type(tools.host_check), "toolsHostCheck")
    assert box is not None and box.accessibleName() == "Host check" and box.isVisible()
    box.setFocus()
    index = box.findText(label)
    assert index >= 0, [box.itemText(i) for i in range(box.count())]
    while box.currentIndex() != index:
        QTest.keyClick(box, Qt.Key.Key_Down if box.currentIndex() < index else Qt.Key.Key_Up)


def test_openai_strict_marks_the_tools_it_refuses_and_says_why(qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    tools = ToolList(settings)
    qtbot.addWidget(tools)
    tools.show()
    tools.set_listing(listing(TOOLS))
    assert all("OpenAI strict" not in row for row in rows(tools))  # no host chosen: no verdict line
    pick(tools, "OpenAI strict")
    shown = rows(tools)
    assert shown[0].endswith("✗ OpenAI strict: refused: additionalProperties is not false at inputSchema"), shown[0]
    assert shown[1].endswith("✓ OpenAI strict: accepted as is")
    assert "✗ OpenAI strict: refused: description is 2,700 characters, over 1,024" in shown[2]
    assert "\\u003c" not in shown[3] and '<img src="file:///etc/passwd">' in shown[3]  # the name as text
    assert "✗ OpenAI strict: refused: the name" in shown[3]
    assert tools.count.text() == "4 tools, 3 refused by OpenAI strict"
    tip = tools.model.data(tools.model.index(0), Qt.ItemDataRole.ToolTipRole)
    assert "every object schema must say additionalProperties: false [confirmed; OpenAI Structured Outputs guide" in tip
    assert "checked 2026-11-27" in tip and not tip.lstrip().startswith("<html")  # plain text, escaped
    assert settings.value("budget/host") == "openai-strict"

    again = ToolList(settings)  # the choice is kept
    qtbot.addWidget(again)
    again.set_listing(listing(TOOLS))
    assert again.host_check.currentText() == "OpenAI strict" and again.model.refused() == 3


def test_claude_code_says_the_name_it_gives_and_what_it_cuts(qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    tools = ToolList(settings)
    qtbot.addWidget(tools)
    tools.show()
    tools.set_listing(listing(TOOLS))
    tools.set_server_name("crm")
    pick(tools, "Claude Code")
    shown = rows(tools)
    assert shown[1].endswith("✓ Claude Code: accepted as is (named mcp__crm__closed_search)")
    assert shown[2].endswith(
        "≈ Claude Code: changed (named mcp__crm__manual): description cut at 2,048 characters (652 lost)"
    )
    assert tools.count.text() == "4 tools, 1 refused by Claude Code"
    pick(tools, "No host check")
    assert tools.count.text() == "4 tools" and all("Claude Code" not in row for row in rows(tools))


def test_a_long_list_is_judged_a_slice_per_turn_and_counted_when_done(qtbot, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    tools = ToolList(settings)
    qtbot.addWidget(tools)
    tools.show()
    tools.set_listing(listing([tool(f"op_{i:04}", "Op.", OPEN) for i in range(5000)]))
    pick(tools, "Cursor")  # its cap of 40 refuses the rest
    judged = sum(1 for row in tools.model.all if row.verdict is not None)
    assert judged == JUDGED_PER_TURN and tools.count.text() == "5000 tools, judging for Cursor…"
    qtbot.waitUntil(lambda: not tools.model.judging(), timeout=30_000)
    assert tools.count.text() == "5000 tools, 4960 refused by Cursor"
    assert rows(tools)[4999].endswith(
        "✗ Cursor: refused: tool 5,000 of 5,000: past the cap of 40 tools, not sent (unconfirmed rule)"
    )


def test_every_row_has_room_for_its_verdict_line_whatever_the_last_row_holds(qtbot, tmp_path) -> None:
    """A read-only tool with no title has three lines with a host chosen (name, badges, verdict); the first tool
    and the last have two (Qt sizes every row of the list as its last). Every row must be as tall as its text, or
    the verdict line of the badged tools is cut off."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    tools = ToolList(settings)
    qtbot.addWidget(tools)
    tools.resize(320, 600)
    tools.show()
    read_only = {"readOnlyHint": True}
    tools.set_listing(
        listing(
            [
                tool("lookup", "Reads.", OPEN, annotations=read_only),
                tool("fetch_page", "Reads.", CLOSED, title="Fetch a page", annotations=read_only),
                tool("plain", "No badges.", OPEN, title="A plain tool"),
            ]
        )
    )
    pick(tools, "OpenAI strict")
    view, metrics = tools.view, tools.view.fontMetrics()
    for row in range(tools.model.rowCount()):
        index = tools.model.index(row)
        text = tools.model.data(index, Qt.ItemDataRole.DisplayRole)
        lines = text.count("\n") + 1
        assert view.visualRect(index).height() >= lines * metrics.lineSpacing(), (row, text)
    assert rows(tools)[0].splitlines()[-1].startswith("    ✗ OpenAI strict: refused")
