"""``mcp-lens``: the desktop app; ``--cli`` for headless runs; ``--demo-server`` runs the demo server."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ours = argv[: argv.index("--")] if "--" in argv else argv
    if argv[:1] == ["tokens"]:
        from inspector.tokens_cli import main as tokens_main

        return tokens_main(argv[1:])
    if "--cli" in ours:
        from inspector.cli import main as cli_main

        return cli_main(argv)
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


if __name__ == "__main__":
    raise SystemExit(main())
