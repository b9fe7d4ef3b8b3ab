"""Every way ``mcp-lens`` runs besides the desktop app, one table: the word that chooses it, the module
whose ``main(argv)`` runs it, and its lines in ``mcp-lens --help``.

`inspector/__main__.py` dispatches from it; `inspector/app.py` writes the help's "other ways to run it"
from it. Imports nothing (the tap, first in line, starts lean). To add a subcommand: its module with
``main(argv) -> int`` under `inspector/cli/`, one entry here, its test in `tests/cli/`.
"""

from __future__ import annotations

from dataclasses import dataclass

# How a word chooses its entry, in the order they are tried: a subcommand is the first word; a flag may
# stand anywhere before ``--`` (the server's words come after it); an option is the first word.
SUBCOMMAND, FLAG, OPTION = "subcommand", "flag", "option"
KINDS = (SUBCOMMAND, FLAG, OPTION)


@dataclass(frozen=True)
class Subcommand:
    word: str
    kind: str  # SUBCOMMAND | FLAG | OPTION
    module: str  # whose main(argv) runs it
    usage: str  # as --help shows it
    summary: tuple[str, ...]  # its lines in --help
    whole_argv: bool = False  # main gets every word (a flag's or an option's parser reads its own word)
    guarded: bool = False  # stdout and stderr through cli/render.guarded_terminal (a server's text)
    own_help: bool = True  # ``--help`` after it prints its own help (else the app's, which lists it)

    def chosen_by(self, argv: list[str], ours: list[str]) -> bool:
        return self.word in ours if self.kind == FLAG else argv[:1] == [self.word]


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "--cli",
        FLAG,
        "inspector.cli.main",
        "mcp-lens --cli …",
        ("headless: run one method, print the result", "(mcp-lens --cli --help)"),
        whole_argv=True,
        guarded=True,
    ),
    Subcommand(
        "tokens",
        SUBCOMMAND,
        "inspector.cli.tokens",
        "mcp-lens tokens …",
        ("what a server's tool list costs in a model's", "context window (mcp-lens tokens --help)"),
        guarded=True,
    ),
    Subcommand(
        "tap",
        SUBCOMMAND,
        "inspector.cli.tap",
        "mcp-lens tap … -- CMD …",
        ("stand in for a host's stdio server and record", "what the host and it exchange (mcp-lens tap --help)"),
    ),
    Subcommand(
        "run",
        SUBCOMMAND,
        "inspector.cli.run",
        "mcp-lens run COLLECTION …",
        ("run a saved collection's steps and check its", "assertions (mcp-lens run --help)"),
        guarded=True,
    ),
    Subcommand(
        "doctor",
        SUBCOMMAND,
        "inspector.cli.doctor",
        "mcp-lens doctor …",
        ("check a server against the spec and score it", "(mcp-lens doctor --help)"),
        guarded=True,
    ),
    Subcommand(
        "replay",
        SUBCOMMAND,
        "inspector.cli.replay",
        "mcp-lens replay RECORD …",
        ("serve a record as a mock server, or replay its", "client against a new build (mcp-lens replay --help)"),
        guarded=True,
    ),
    Subcommand(
        "diff",
        SUBCOMMAND,
        "inspector.cli.diff",
        "mcp-lens diff A B …",
        ("two records lined up by request: answers, latency,", "tools and capabilities (mcp-lens diff --help)"),
        guarded=True,
    ),
    Subcommand(
        "--demo-server",
        OPTION,
        "inspector.demo.server",
        "mcp-lens --demo-server [--http PORT]",
        ("run the embedded demo server (stdio, or", "Streamable HTTP on PORT)"),
    ),
    Subcommand(
        "--install-desktop-entry",
        OPTION,
        "inspector.desktop_entry",
        "mcp-lens --install-desktop-entry",
        ("add MCP Lens to the application menu", "(for venv and pipx installs)"),
        whole_argv=True,
        own_help=False,
    ),
    Subcommand(
        "--uninstall-desktop-entry",
        OPTION,
        "inspector.desktop_entry",
        "mcp-lens --uninstall-desktop-entry",
        ("remove it from the menu again",),
        whole_argv=True,
        own_help=False,
    ),
)

USAGE_WIDTH = 31  # the summary's column in --help, after two spaces


def chosen(argv: list[str]) -> Subcommand | None:
    """The entry `argv` chooses (None: the desktop app)."""
    ours = argv[: argv.index("--")] if "--" in argv else argv
    for kind in KINDS:
        for sub in SUBCOMMANDS:
            if sub.kind == kind and sub.chosen_by(argv, ours):
                return sub
    return None


def help_epilog() -> str:
    """The "other ways to run it" part of ``mcp-lens --help``: every entry, in table order."""
    lines = ["other ways to run it:"]
    for sub in SUBCOMMANDS:
        summary = list(sub.summary)
        if len(sub.usage) < USAGE_WIDTH - 1:
            lines.append(f"  {sub.usage:<{USAGE_WIDTH}}{summary.pop(0)}")
        else:
            lines.append(f"  {sub.usage}")
        lines += [" " * (USAGE_WIDTH + 2) + line for line in summary]
    return "\n".join(lines)
