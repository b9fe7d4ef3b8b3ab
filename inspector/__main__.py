"""``mcp-lens``: the desktop app, or one of the ways to run it listed in `inspector/cli/commands.py`
(``--cli``, ``tokens``, ``tap``, ``run``, ``doctor``, ``--demo-server``, the desktop-entry options)."""

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
    from importlib import import_module

    from inspector.cli.commands import chosen

    argv = list(sys.argv[1:] if argv is None else argv)
    sub = chosen(argv)
    if sub is None:
        from inspector.app import main as app_main

        return app_main(argv)
    if not sub.own_help and {"-h", "--help"} & set(argv[1:]):  # asking how: the app's help lists it
        from inspector.app import parse_args

        parse_args(["--help"])  # prints the help and exits
    run = import_module(sub.module).main
    words = argv if sub.whole_argv else argv[1:]
    try:
        if not sub.guarded:
            return run(words)
        from inspector.cli.render import guarded_terminal

        with guarded_terminal():  # headless output: a server's text never drives the terminal
            return run(words)
    except BrokenPipeError:  # `mcp-lens … | head`: the reader has what it wanted; end quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the exit's flush has nowhere to fail
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
