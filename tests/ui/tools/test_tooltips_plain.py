"""Server text in tooltips is shown literally: Qt must never take a tooltip carrying it for rich text."""

from __future__ import annotations

from factories import tool
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.tokenizers import get_tokenizer
from inspector.core.operations import ToolListing
from inspector.ui.budget.tools_model import BudgetToolsModel
from inspector.ui.tools.tool_list import ToolListModel

HOSTILE = '<img src="file:///etc/passwd"><b>bold</b>'
TOOL = tool(HOSTILE, HOSTILE)


def is_rich(text: object) -> bool:
    return isinstance(text, str) and QtGui.mightBeRichText(text)


def test_the_rich_text_check_catches_the_hostile_text() -> None:
    assert is_rich(HOSTILE), "the check itself must be able to fail"


def test_tool_list_and_budget_tooltips_are_plain(qapp) -> None:  # type: ignore[no-untyped-def]
    tools = ToolListModel()
    tools.set_listing(ToolListing(tools=[TOOL], pages=1))
    tip = tools.data(tools.index(0), Qt.ItemDataRole.ToolTipRole)
    assert HOSTILE in tip and not is_rich(tip)
    budget = BudgetToolsModel()
    budget.set_report(BudgetCounter(get_tokenizer("chars4")).report([TOOL]))
    tip = budget.data(budget.index(0, 0), Qt.ItemDataRole.ToolTipRole)
    assert HOSTILE in tip and not is_rich(tip)
