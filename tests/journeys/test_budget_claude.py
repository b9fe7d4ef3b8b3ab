"""Claude in the Budget tab of the launched app: counted offline (ctok) and labelled "reconstructed";
the Claude model picks the family; with ANTHROPIC_API_KEY, count_tokens stands beside it with the
difference and is saved as this server's calibration, after which the figures say "calibrated"."""

from __future__ import annotations

import pytest
from count_tokens_server import count_tokens_server
from journey_support import Lens
from PySide6.QtWidgets import QComboBox, QLabel


def choose(lens: Lens, name: str, text: str) -> None:
    """Pick ``text`` in the combo box ``name`` with the keyboard, as a person would."""
    box = lens.find(name, QComboBox)
    assert isinstance(box, QComboBox)
    box.setFocus()
    for _ in range(box.count()):
        if box.currentText().startswith(text):
            return
        lens.key("Down", box)
    assert box.currentText().startswith(text), [box.itemText(i) for i in range(box.count())]


def totals(lens: Lens) -> str:
    label = lens.find("Budget totals", QLabel)
    assert isinstance(label, QLabel)
    return label.text()


def test_claude_counted_offline_then_calibrated_against_count_tokens(
    lens: Lens, monkeypatch: pytest.MonkeyPatch
) -> None:
    with count_tokens_server() as (url, seen):
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-journey")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
        lens.start()
        lens.tab("Budget")
        lens.wait_text("schedule_meeting")
        lens.wait(lambda: "exact" in totals(lens), what="the default figure labelled exact")
        choose(lens, "Tokenizer", "Claude")
        lens.wait(lambda: "reconstructed" in totals(lens), what="the Claude figure labelled reconstructed")
        assert "v4.8" in lens.find("Budget note", QLabel).text()  # the newest family by default
        choose(lens, "Claude model", "Opus 4.7")
        lens.wait(lambda: "v4.7" in lens.find("Budget note", QLabel).text(), what="the v4.7 family")
        assert not seen  # nothing was sent until asked
        lens.click("Compare with count_tokens")
        lens.wait_text("count_tokens API", timeout=15_000)
        assert {r["path"] for r in seen} == {"/v1/messages/count_tokens"}
        assert "difference" in lens.find("Claude comparison", QLabel).text()
        lens.click("Save as calibration")
        lens.wait(lambda: "calibrated" in totals(lens), what="the figures say calibrated")
        assert lens.quit() == 0
