"""5,000 tools: showing the list asks the model for the rows on screen, not for every row's size hint
(issue 21: connecting to a 5,000-tool server froze the window; ~40,000 `data()` calls per listing)."""

from __future__ import annotations

from typing import Any

from factories import tool
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt

from inspector.ui.tools.tool_list import ToolList, ToolListModel

TOOLS = [tool(f"tool_{i:05d}", f"Tool {i}.") for i in range(5000)]


class CountingModel(ToolListModel):
    calls = 0

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        CountingModel.calls += 1
        return super().data(index, role)


def test_a_long_tool_list_is_laid_out_from_the_rows_on_screen(qtbot) -> None:
    tools = ToolList()
    qtbot.addWidget(tools)
    tools.model = CountingModel()
    tools.view.setModel(tools.model)
    tools.resize(320, 600)
    tools.show()
    qtbot.waitExposed(tools)
    CountingModel.calls = 0
    tools.set_listing(type("Listing", (), {"tools": TOOLS, "findings": []})())
    qtbot.wait(50)  # the layout and first paint
    assert tools.model.rowCount() == 5000
    assert CountingModel.calls < 2000, f"{CountingModel.calls} data() calls for 5,000 rows"
