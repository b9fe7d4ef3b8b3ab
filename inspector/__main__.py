"""``mcp-lens``: the desktop app; ``--cli`` for headless runs; ``tap`` records a host's server;
``--demo-server`` runs the demo server."""

import sys

# Before anything imports PySide6 (and in syntax old Pythons still parse): PySide6 6.12 on Python < 3.12
# drops a reference to None on each None read through a proxy model, and the process aborts later with
# "Fatal Python error: none_dealloc"; 3.12 made None immortal. Say so in one line and stop instead.
if sys.version_info < (3, 12):  # noqa: UP036 -- the point is to run on older Pythons
    sys.stderr.write(
        "mcp-lens needs Python 3.12+, this is {}.{} ({}): on older Pythons PySide6 aborts with "
        '"Fatal Python error: none_dealloc". Ways out: the .deb or the tarball (no Python needed), '
        "`uv tool install --python 3.12 mcp-lens` (`.` in a checkout), or pyenv's 3.12 "
        '(`pyenv install 3.12`); see README.md, "Install a release".\n'.format(*sys.version_info[:2], sys.executable)
    )
    raise SystemExit(1)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ours = argv[: argv.index("--")] if "--" in argv else argv
    if argv[:1] == ["tap"]:  # first: the tapped command after -- may contain anything
        from inspector.cli.tap import main as tap_main

        return tap_main(argv[1:])
    if argv[:1] in (["run"], ["doctor"], ["tokens"]) or "--cli" in ours:
        from inspector.cli.render import guarded_terminal

        with guarded_terminal():  # headless output: a server's text never drives the terminal
            return headless(argv, ours)
    if argv[:1] == ["--demo-server"]:
        from inspector.demo.server import main as demo_main

        return demo_main(argv[1:])
    if argv[:1] in (["--install-desktop-entry"], ["--uninstall-desktop-entry"]):
        if {"-h", "--help"} & set(argv[1:]):  # asking how, not installing
            from inspector.app import parse_args

            parse_args(["--help"])  # prints the help (which lists both) and exits
        from inspector.desktop_entry import main as desktop_entry_main

        return desktop_entry_main(argv)
    from inspector.app import main as app_main

    return app_main(argv)


def headless(argv: list[str], ours: list[str]) -> int:
    """`mcp-lens run`, `doctor`, `tokens` and `--cli`."""
    if argv[:1] == ["run"]:
        from inspector.cli.run import main as run_main

        return run_main(argv[1:])
    if argv[:1] == ["doctor"]:
        from inspector.cli.doctor import main as doctor_main

        return doctor_main(argv[1:])
    if argv[:1] == ["tokens"]:
        from inspector.cli.tokens import main as tokens_main

        return tokens_main(argv[1:])
    from inspector.cli.main import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
