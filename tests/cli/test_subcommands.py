"""Every way ``mcp-lens`` runs is one entry of `inspector/cli/commands.SUBCOMMANDS`: `__main__` dispatches
from it and ``mcp-lens --help`` lists it from it. The help and the table agree, each entry's module has
the `main` it runs, and each entry with its own help answers ``--help`` as a real process."""

from __future__ import annotations

import importlib
import re

import pytest
from lens_support import run_lens

from inspector.cli.commands import SUBCOMMANDS


def _other_ways(help_text: str) -> list[str]:
    """The lines of --help under "other ways to run it"."""
    return help_text.split("other ways to run it:\n", 1)[1].splitlines()


def test_help_lists_every_subcommand_from_the_table_and_nothing_else() -> None:
    done = run_lens("--help")
    assert done.returncode == 0, done.stderr
    lines = _other_ways(done.stdout)
    listed = [line.split()[1] for line in lines if line.startswith("  mcp-lens ")]
    assert listed == [sub.word for sub in SUBCOMMANDS]
    shown = re.sub(r"\s+", " ", "\n".join(lines))
    for sub in SUBCOMMANDS:
        assert f"{sub.usage} {' '.join(sub.summary)}" in shown, sub.word
    for word in ("tap", "run", "doctor", "tokens", "--cli"):
        assert word in listed


@pytest.mark.parametrize("sub", SUBCOMMANDS, ids=lambda sub: sub.word)
def test_each_entry_runs_a_main(sub: object) -> None:
    module = importlib.import_module(sub.module)  # type: ignore[attr-defined]
    assert callable(module.main)


@pytest.mark.parametrize("sub", [s for s in SUBCOMMANDS if s.own_help], ids=lambda sub: sub.word)
def test_each_entry_answers_help(sub: object) -> None:
    done = run_lens(sub.word, "--help", timeout=120)  # type: ignore[attr-defined]
    assert done.returncode == 0 and "usage:" in done.stdout, done.stdout[-500:] + done.stderr[-2000:]
    assert "other ways to run it" not in done.stdout  # its own help, not the app's
