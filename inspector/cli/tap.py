"""``mcp-lens tap``: parse the arguments, start the server, relay and record (or install the tap into a
host's config). Kept light: a host starts this in place of its server, so start-up time is its cost."""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # not typing's: a host waits on this module's start-up (argparse too is lazy)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from pathlib import Path
    from typing import TextIO

    from inspector.tap.recorder import TapRecorder

USAGE = """\
mcp-lens tap [--name NAME] [--max-bytes N] -- CMD [ARGS...]
       mcp-lens tap --install CONFIG --server NAME [--name NAME] [--yes]
       mcp-lens tap --install CONFIG --server NAME --replay RECORD [--replay-server NAME] [--yes]
       mcp-lens tap --uninstall CONFIG --server NAME [--yes]"""

DESCRIPTION = """\
Run a stdio MCP server behind a recording shim. A host (Claude Desktop, Cursor, VS Code, ...) runs
`mcp-lens tap -- CMD ARGS...` in place of `CMD ARGS...`: the tap starts the server, passes every byte
both ways unchanged, passes the server's stderr through, forwards SIGINT/SIGTERM/SIGHUP, and exits with
the server's exit code (128 + the signal when a signal killed it). It never opens a socket.

Both directions and the server's stderr are recorded, flushed per message, in the traffic log's JSON
Lines format under $XDG_DATA_HOME/mcp-lens/taps/ (else ~/.local/share/mcp-lens/taps/): a 0700 folder of
0600 files named <UTC time>-<name>-<pid>.jsonl. The environment is not recorded, and the values of
its secret-looking variables and of the command's secret flags (--api-key=..., --token ...) are
redacted wherever they appear in the record, as is a value sent in a secret-looking field (a tool's
or prompt's argument such as password or apiToken, a form's answer) from there on. The app lists these
records and follows a live one.
If recording fails, the tap says so once on stderr and keeps relaying.

--install rewrites one server entry of a host's config (Claude Desktop, Claude Code .mcp.json, Cursor,
VS Code mcp.json, Windsurf), named by its file or by the host (claude-desktop, cursor, vscode, windsurf,
claude-code, ...: found where that host keeps it on this OS), so the host runs it through the tap,
after showing the exact change and keeping a backup; --uninstall puts the entry back exactly as it
was. HTTP servers cannot be tapped (that would need a listening socket): point MCP Lens at the URL
directly, or run the server over stdio behind the tap."""


def _size(text: str) -> int:
    """``64M``, ``500k``, ``1048576`` → bytes; ValueError saying what is wrong."""
    units = {"k": 1024, "m": 1024**2, "g": 1024**3}
    text = text.strip().lower().removesuffix("b")
    factor = units.get(text[-1:], 1)
    try:
        value = int(float(text[:-1] if text[-1:] in units else text) * factor)
    except ValueError:
        raise ValueError(f"not a size: {text!r} (e.g. 64M, 500k, 1048576)") from None
    if value < 4096:
        raise ValueError("at least 4096 bytes")
    return value


def _checked(parse: Callable[[str], int], text: str) -> int:
    import argparse

    try:
        return parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog="mcp-lens tap",
        usage=USAGE,
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--name", help="the name the record and the app show (default: the command's basename)")
    parser.add_argument(
        "--max-bytes",
        type=lambda text: _checked(_size, text),
        default=None,
        metavar="N",
        help="start a new record file past this size (default 64M; suffixes k, M, G)",
    )
    install = parser.add_argument_group("installing into a host's config")
    mode = install.add_mutually_exclusive_group()
    mode.add_argument(
        "--install",
        type=_config_path,
        metavar="CONFIG",
        help=f"make the host run SERVER through the tap (CONFIG: a file, or one of {', '.join(_host_keys())})",
    )
    mode.add_argument("--uninstall", type=_config_path, metavar="CONFIG", help="restore SERVER's entry as it was")
    install.add_argument("--server", metavar="NAME", help="the server entry's name in CONFIG")
    install.add_argument("--yes", action="store_true", help="change the config without asking")
    install.add_argument(
        "--replay",
        metavar="RECORD",
        help="with --install: the host runs `mcp-lens replay RECORD` in SERVER's place (a recorded server); "
        "the record is checked as replay reads it first",
    )
    install.add_argument(
        "--replay-server",
        metavar="NAME",
        help="with --replay: the server to serve, in a record that holds several (an exported workspace)",
    )
    return parser


def _host_keys() -> list[str]:
    from inspector.config.locations import HOST_FILES

    return [f.key for f in HOST_FILES]


def _config_path(text: str) -> Path:
    """A config file as given, or the file of the host a key names (``claude-desktop``: this OS's place
    for it) when no such file is here."""
    from pathlib import Path

    from inspector.config.locations import host_file

    given = Path(text)
    if given.exists() or (found := host_file(text)) is None:
        return given
    return found


def main(argv: list[str], *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``mcp-lens tap ARGS``; returns the exit status (the server's, when relaying)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    ours, command = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    if command and (quick := _quick_options(ours)) is not None:  # the host's every start: no argparse
        return tap(command, name=quick[0], max_bytes=quick[1], err=err)
    parser = build_parser()
    args = parser.parse_args(ours)
    config = args.install or args.uninstall
    if config is not None:
        if command:
            parser.error("--install/--uninstall take no command after --")
        if not args.server:
            parser.error("--server NAME is required with --install/--uninstall")
        if args.replay is not None and (args.uninstall is not None or not os.path.isfile(args.replay)):
            parser.error(f"--replay goes with --install and an existing record: {args.replay}")
        if args.replay_server is not None and args.replay is None:
            parser.error("--replay-server goes with --replay")
        if args.replay is not None and (refused := _unreplayable(args.replay, args.replay_server, err)) is not None:
            err.write(f"mcp-lens tap: {refused}\n")  # what `mcp-lens replay` would say, before the config is touched
            return 2
        from inspector.tap.install import run as install_run

        return install_run(
            config,
            args.server,
            uninstall=args.uninstall is not None,
            name=args.name,
            yes=args.yes,
            out=out,
            err=err,
            replay=args.replay,
            replay_server=args.replay_server,
        )
    if args.server or args.yes:
        parser.error("--server and --yes go with --install/--uninstall")
    if args.replay is not None or args.replay_server is not None:
        parser.error("--replay goes with --install")
    if not command:
        parser.error("no server command: put it after --, e.g. mcp-lens tap -- npx -y some-mcp-server")
    return tap(command, name=args.name, max_bytes=args.max_bytes, err=err)


def _unreplayable(record: str, server: str | None, err: TextIO) -> str | None:
    """Why `mcp-lens replay RECORD [--server NAME]` would refuse `record` (replay's words, its option named as
    ours), or None; the damaged lines it would skip are said as warnings."""
    from inspector.replay.record import ReplayError, open_record

    try:
        replay = open_record(record, server, "--replay-server")
    except ReplayError as exc:
        return str(exc)
    except OSError as exc:
        return f"cannot read {record}: {exc.strerror or exc}"
    from inspector.replay.mock import era_limit

    try:
        for warning in replay.warnings:
            err.write(f"mcp-lens tap: warning: {record}: {warning}\n")
        if (limit := era_limit(replay)) is not None:  # a host's client sends initialize
            err.write(f"mcp-lens tap: warning: {record}: {limit}\n")
    finally:
        replay.close()
    return None


def _quick_options(ours: list[str]) -> tuple[str | None, int | None] | None:
    """(name, max bytes) when `ours` holds only well-formed --name / --max-bytes; else None (argparse
    then parses, and says what is wrong)."""
    found: dict[str, str] = {}
    tokens = iter(ours)
    for token in tokens:
        key, eq, value = token.partition("=")
        if key not in ("--name", "--max-bytes") or key in found:
            return None
        if not eq and (value := next(tokens, None)) is None:
            return None
        found[key] = value
    try:
        size = _size(found["--max-bytes"]) if "--max-bytes" in found else None
    except ValueError:
        return None
    return found.get("--name"), size


def tap(command: list[str], *, name: str | None = None, max_bytes: int | None = None, err: TextIO) -> int:
    """Start `command`, relay and record until it exits; the exit status."""
    from inspector.tap.relay import Relay, spawn

    started = time.time()
    try:
        process = spawn(command)  # first: the server starts while we set up the record
    except OSError as exc:
        err.write(f"mcp-lens tap: could not start {command[0]!r}: {exc.strerror or exc}\n")
        return 126 if isinstance(exc, PermissionError) else 127
    recorder = _recorder(command, process.pid, name, started, max_bytes, err)
    return Relay(process, recorder).run()


def _recorder(
    command: list[str], child_pid: int, name: str | None, started: float, max_bytes: int | None, err: TextIO
) -> TapRecorder | None:
    from inspector.config.redact import Redactor
    from inspector.tap.paths import taps_dir
    from inspector.tap.recorder import DEFAULT_MAX_BYTES, TapRecorder

    meta = {
        "name": name or os.path.basename(command[0]) or command[0],
        "command": command,
        "pid": os.getpid(),
        "child_pid": child_pid,
        "started": started,
        "cwd": _cwd(),
    }
    redactor = Redactor.for_environment(os.environ, command)  # the server's environment is ours
    recorder = TapRecorder(taps_dir(), meta, max_bytes=max_bytes or DEFAULT_MAX_BYTES, err=err, redactor=redactor)
    return None if recorder.failed else recorder


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""
