"""The Budget tab's painted chart draws tool names as plain visible text (issue 21: s58, s29)."""

from __future__ import annotations

import re

from drawn_text import drawn_texts

from inspector.budget.breakdown import ToolCost
from inspector.ui.budget.bars import TopToolsChart

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def cost(name: str, total: int) -> ToolCost:
    return ToolCost(name, total, {}, total // 2, total // 4, total - total // 2 - total // 4)


def test_the_chart_draws_a_bidi_override_and_controls_as_escapes(qtbot) -> None:
    chart = TopToolsChart()
    qtbot.addWidget(chart)
    chart.resize(900, 320)
    chart.set_costs([cost("rtl\u202eloot.exe", 400), cost("esc\x1b[2Jbel\x07", 300), cost("plain", 200)])
    chart.show()
    qtbot.waitExposed(chart)
    drawn = "".join(drawn_texts(chart))
    assert RAW.search(drawn) is None, f"drawn raw: {drawn!r}"
    assert "rtl\\u202eloot.exe" in drawn, drawn
    assert "esc\\x1b[2Jbel\\x07" in drawn, drawn
