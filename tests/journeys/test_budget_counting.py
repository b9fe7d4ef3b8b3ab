"""The Budget tab while it counts a big tool list says it is counting (h11 point 6, outside tester s28):
beside "counting…" it read "<server>  Connect to a server to see what its tool list costs." with the
server connected."""

from __future__ import annotations

import sys

from journey_support import shown_text
from lens_support import REPO

BIG = [sys.executable, str(REPO / "tests/servers/big.py")]


def test_the_budget_tab_says_it_counts_5000_tools_while_it_does(lens) -> None:
    lens.start("--", *BIG, "tools")
    lens.wait_connected()
    lens.tab("Budget")
    while_counting: list[str] = []

    def counted() -> bool:
        status, totals = shown_text(lens.find("Budget status")), shown_text(lens.find("Budget totals"))
        if status == "counting…":
            while_counting.append(totals)
        return status.startswith("counted in")

    lens.wait(counted, 120_000, "the Budget tab's count of 5,000 tools")
    assert while_counting, "the tab never said it was counting"
    assert not any("Connect to a server" in text for text in while_counting), while_counting[-1]
    assert "Counting 5,000 tools" in while_counting[-1], while_counting[-1]
    assert "5000 tools ·" in shown_text(lens.find("Budget totals"))
