"""Tokenizers, one table (`inspector.budget.tokenizers.TOKENIZERS`): the Budget pickers and
`mcp-lens tokens --encoding` offer exactly its entries, and each offline entry loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.budget.tokenizers import ENCODINGS, TOKENIZERS, all_tokenizers, get_tokenizer, offline_tokenizers
from inspector.cli import tokens_args


def test_tokens_encoding_choices_are_the_table() -> None:
    action = tokens_args._parser()._option_string_actions["--encoding"]
    assert list(action.choices) == list(TOKENIZERS) == all_tokenizers()
    assert action.default in offline_tokenizers()


def test_the_pickers_offer_the_table(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QSettings, Qt

    from inspector.ui.budget.engine import tokenizer_choices
    from inspector.ui.budget.pickers import BudgetPickers, short_label

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    offline = [(name, kind.label) for name, kind in TOKENIZERS.items() if kind.offline]
    assert tokenizer_choices() == offline
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert tokenizer_choices() == [(name, kind.label) for name, kind in TOKENIZERS.items()]
    pickers = BudgetPickers(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(pickers)
    box = pickers.tokenizer
    # each entry reads short in the box ("o200k_base (exact)"); its whole label is the item's tooltip
    tip = Qt.ItemDataRole.ToolTipRole
    assert [(box.itemData(i), box.itemData(i, tip)) for i in range(box.count())] == tokenizer_choices()
    assert [box.itemText(i) for i in range(box.count())] == [short_label(label) for _, label in tokenizer_choices()]


@pytest.mark.parametrize("name", offline_tokenizers())
def test_each_offline_entry_loads(name: str) -> None:
    tokenizer = get_tokenizer(name)
    assert tokenizer.name == name and tokenizer.count("hello world") > 0
    assert (name in ENCODINGS) == tokenizer.exact


def test_an_unknown_name_lists_the_table() -> None:
    with pytest.raises(KeyError, match=", ".join(TOKENIZERS)):
        get_tokenizer("p50k_base")
