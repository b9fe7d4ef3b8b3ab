"""The benchmark's memory (tests/bench/memory.py): a saved run, the comparison that marks a ratio that moved
by more than 25 %, and the README table generated between its markers. On files in tmp_path only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lens_support import REPO

sys.path.insert(0, str(REPO / "tests/bench"))

import memory
from common import Row


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(memory, "BASELINE", tmp_path / "baseline.json")
    monkeypatch.setattr(memory, "README", tmp_path / "README.md")
    monkeypatch.setattr(memory, "ROOT", tmp_path)
    return tmp_path


def rows(ratio: float) -> list[Row]:
    return [
        Row("round trip: core", 500.0, "calls/s", 600.0, ratio, "ratio <= 1.0", ratio <= 1.0),
        Row("tokens: full count", 0.4, "s", target="< 1 s", ok=True),
    ]


def test_save_merges_modules_and_compare_marks_a_ratio_that_moved(files: Path, capsys) -> None:
    memory.save({"bench_a": memory.entry(rows(1.0), [0.5, 0.7], 3.0, quick=False)})
    memory.save({"bench_b": memory.entry(rows(2.0), [1.0, 1.0], 1.0, quick=True)})
    saved = memory.read()
    assert set(saved["modules"]) == {"bench_a", "bench_b"}
    assert saved["modules"]["bench_a"]["load"] == [0.5, 0.7] and saved["modules"]["bench_a"]["machine"]
    capsys.readouterr()
    assert memory.compare({"bench_a": rows(1.2), "bench_b": rows(2.6)}, saved) == 1  # +20 % no, +30 % yes
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "MOVED" in line] == [
        line for line in out.splitlines() if "2.6 ratio" in line
    ]
    assert "1 ratio(s) moved by more than 25%" in out


def test_readme_table_is_rewritten_between_its_markers_only(files: Path) -> None:
    memory.save({"bench_a": memory.entry(rows(0.9), [1.96, 2.31], 3.0, quick=False)})
    readme = files / "README.md"
    readme.write_text(f"# Title\nbefore\n{memory.START}\nstale table\n{memory.END}\nafter\n", encoding="utf-8")
    memory.write_readme(("bench_a", "bench_missing"))
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Title\nbefore\n") and text.endswith(f"{memory.END}\nafter\n")
    assert "stale table" not in text
    assert "| **bench_a** (" in text and "load 2.0–2.3" in text
    assert "| round trip: core | 500 calls/s | 600 calls/s | 0.9 | ratio <= 1.0 | yes |" in text
    readme.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="markers"):
        memory.write_readme(("bench_a",))
