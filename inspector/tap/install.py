"""Put a host's server behind the tap, and take it out again: `mcp-lens tap --install/--uninstall`.

Install rewrites one entry of a host's config (Claude Desktop, Claude Code, Cursor, VS Code) so the
host runs `mcp-lens tap --name NAME -- <its command> <its args>`. Only the characters of the entry's
`command` and `args` values change (found by `config.json_spans`); comments, key order, the other
entries, env and cwd stay as they are, and secrets stay in the host's file. The original characters
go into a sidecar next to the config (`.<name>.mcp-lens-tap.json`, 0600) so that uninstall puts
them back exactly. Every write keeps a backup and is atomic.
"""

from __future__ import annotations

import difflib
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, TextIO

from inspector.config import json_spans, jsonc
from inspector.config.files import write_atomic
from inspector.config.formats import detect_format
from inspector.config.json_spans import Node
from inspector.config.profile import ProfileError
from inspector.config.redact import Redactor
from inspector.config.text_files import NotUtf8Error, decode_utf8

SIDECAR_VERSION = 1
HTTP_TYPES = ("http", "sse", "streamable-http", "streamablehttp", "streamable_http")
USAGE = 2  # unreadable file, or a change that needs --yes
REFUSED = 1  # the entry cannot be (un)tapped as asked


class InstallError(Exception):
    """Why an entry cannot be tapped or untapped; `reason` is a short word the app can branch on."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason  # unreadable, invalid, no-table, unknown-server, http, tapped, not-tapped, …


@dataclass(frozen=True)
class Plan:
    """One change to a host config, ready to show (`diff`) and to `apply`."""

    action: str  # "install" or "uninstall"
    config: Path  # as given
    target: Path  # the real file (symlinks resolved)
    server: str
    format: str  # the host dialect, from `config.formats.detect_format`
    old_text: str
    new_text: str
    diff: str
    sidecar: dict[str, Any]  # the sidecar's content after applying (no servers: the sidecar goes)
    note: str = ""


@dataclass(frozen=True)
class Applied:
    backup: Path
    sidecar: Path


# -- the tap's own command line ---------------------------------------------------------------
def tap_launcher(
    *,
    platform: str | None = None,
    executable: str | None = None,
    argv0: str | None = None,
    frozen: bool | None = None,
) -> list[str]:
    """How a host starts `mcp-lens`: the bundle, the running `mcp-lens` script, the venv's, or `python -m
    inspector`; absolute paths, each one list item (a host passes them to the OS as an argument list,
    spaces and all). On Windows the scripts are ``mcp-lens.exe`` beside ``python.exe`` (a venv's Scripts)."""
    platform = sys.platform if platform is None else platform
    executable = sys.executable if executable is None else executable
    argv0 = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    windows = platform == "win32"
    script = "mcp-lens.exe" if windows else "mcp-lens"
    if frozen:
        return [_absolute(executable, windows)]
    ran = _name(argv0, windows).lower().removesuffix(".exe")
    if ran in ("mcp-lens", "mcp-lens-gui") and Path(beside := _sibling(argv0, script, windows)).exists():
        return [_absolute(beside, windows)]
    if Path(beside := _sibling(executable, script, windows)).exists():  # the venv's script, not PATH's
        return [_absolute(beside, windows)]
    if platform == sys.platform and (found := shutil.which("mcp-lens")):
        return [os.path.abspath(found)]
    return [_absolute(executable, windows), "-m", "inspector"]


def _name(path: str, windows: bool) -> str:
    return PureWindowsPath(path).name if windows else PurePosixPath(path).name


def _sibling(path: str, name: str, windows: bool) -> str:
    """`name` in `path`'s folder, written with `path`'s own separators."""
    cut = max(path.rfind("/"), path.rfind("\\")) if windows else path.rfind("/")
    return path[: cut + 1] + name


def _absolute(path: str, windows: bool) -> str:
    """`path` made absolute the running OS's way; a path of another OS (a platform forced) is kept as written."""
    return path if windows != (sys.platform == "win32") else os.path.abspath(path)


def shown_command(argv: list[str], *, platform: str | None = None) -> str:
    """A command line to print for the user to paste: POSIX shell quoting, or Windows' (`list2cmdline`:
    double quotes around an argument with spaces)."""
    if (sys.platform if platform is None else platform) == "win32":
        return subprocess.list2cmdline(argv)
    return shlex.join(argv)


def tapped_command(command: str, args: list[str], name: str) -> list[str]:
    """The full command line of a tapped entry."""
    return [*tap_launcher(), "tap", "--name", name, "--", command, *args]


def replayed_command(record: str | os.PathLike[str], server: str | None = None) -> list[str]:
    """The command line of an entry that serves a record (`mcp-lens replay RECORD [--server NAME]`: `server`,
    the record's server when it holds several) in place of its server."""
    return [*tap_launcher(), "replay", os.path.abspath(record), *(["--server", server] if server else [])]


def replays(command: Any, args: Any) -> bool:
    """Whether an entry runs our `mcp-lens replay` (installed with ``--replay``)."""
    if not isinstance(command, str) or not isinstance(args, list) or "replay" not in args:
        return False
    at = args.index("replay")
    named = PureWindowsPath(command).name.lower()
    return (named.startswith("mcp-lens") and at == 0) or args[max(0, at - 2) : at] == ["-m", "inspector"]


def untapped(command: Any, args: Any) -> tuple[str, list[str]] | None:
    """The original (command, args) inside a tapped entry's command line; None if it is not tapped."""
    if not isinstance(command, str) or not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return None
    if "tap" not in args or "--" not in args:
        return None
    at, dashes = args.index("tap"), args.index("--")
    named = PureWindowsPath(command).name.lower()  # a Windows path's name read on any OS; a POSIX one's too
    ours = named.startswith("mcp-lens") or args[max(0, at - 2) : at] == ["-m", "inspector"]
    if not ours or dashes < at or dashes + 1 >= len(args):
        return None
    return args[dashes + 1], args[dashes + 2 :]


# -- reading the host config ------------------------------------------------------------------
def sidecar_path(target: Path) -> Path:
    return target.with_name(f".{target.name}.mcp-lens-tap.json")


def _read(config: Path) -> tuple[Path, str]:
    target = config.expanduser().resolve()
    try:
        raw = target.read_bytes()
    except OSError as exc:
        raise InstallError(f"cannot read {config}: {exc.strerror or exc}", "unreadable") from exc
    try:
        return target, decode_utf8(raw, source=str(config), bom=False)
    except NotUtf8Error as exc:
        raise InstallError(str(exc), "invalid") from exc


@dataclass
class _Entry:
    format: str
    names: list[str]
    node: Node
    data: dict[str, Any]


def _entry(config: Path, target: Path, text: str, server: str) -> _Entry:
    try:
        data = jsonc.loads(text, source=str(config), jsonc=True)
        root = json_spans.parse(text)
    except (ProfileError, json_spans.SpanError) as exc:
        why = exc.reason if isinstance(exc, ProfileError) else str(exc)
        raise InstallError(f"{config} is not valid JSON/JSONC: {why}", "invalid") from exc
    if not isinstance(data, dict) or root.kind != "object":
        raise InstallError(f"{config}: expected a JSON object at the top level", "invalid")
    fmt = detect_format(target, data)
    keys = ["mcpServers"]
    if fmt == "vscode":  # mcp.json, or settings.json's "mcp" object
        keys = ["servers"] if "servers" in data else ["mcp", "servers"]
    node: Node | None = root
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
        node = node.get(key) if node is not None and node.kind == "object" else None
    if not isinstance(data, dict) or node is None or node.kind != "object":
        raise InstallError(f"{config}: no {'.'.join(keys)!r} object of servers found", "no-table")
    names = list(data)
    entry, entry_node = data.get(server), node.get(server)
    if entry is None or entry_node is None:
        listed = ", ".join(repr(n) for n in names) or "none"
        raise InstallError(f"{config}: no server named {server!r}; the servers there: {listed}", "unknown-server")
    if not isinstance(entry, dict) or entry_node.kind != "object":
        raise InstallError(f"{config}: server {server!r} is not an object", "invalid")
    return _Entry(fmt, names, entry_node, entry)


def _refuse_http(config: Path, server: str, entry: dict[str, Any]) -> None:
    kind = str(entry.get("type", "")).lower()
    if "url" in entry or "serverUrl" in entry or kind in HTTP_TYPES:
        raise InstallError(
            f"{config}: server {server!r} is an HTTP/SSE server (url {entry.get('url', '?')}); the tap covers "
            "stdio servers only, because tapping HTTP would need a listening socket. Instead, open the URL in "
            "MCP Lens (Add server, transport HTTP) to see its traffic, or tap a stdio entry.",
            "http",
        )


def _read_sidecar(target: Path) -> dict[str, Any]:
    try:
        data = json.loads(sidecar_path(target).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": SIDECAR_VERSION, "config": str(target), "servers": {}}
    if not isinstance(data, dict) or not isinstance(data.get("servers"), dict):
        return {"version": SIDECAR_VERSION, "config": str(target), "servers": {}}
    return data


def is_tapped(config: Path, server: str) -> bool:
    """True if that entry currently runs through the tap (False for anything unreadable)."""
    try:
        target, text = _read(config)
        entry = _entry(config, target, text, server).data
    except InstallError:
        return False
    return untapped(entry.get("command"), entry.get("args")) is not None


# -- planning ---------------------------------------------------------------------------------
def _diff(config: Path, old: str, new: str, entry: dict[str, Any]) -> str:
    """The change as a unified diff to show, with the entry's secrets (env, flags, headers) redacted:
    the diff's context lines would otherwise print them on the terminal."""
    lines = difflib.unified_diff(
        old.splitlines(), new.splitlines(), f"{config} (now)", f"{config} (after)", lineterm=""
    )
    return _redactor_of(entry).text("\n".join(lines) + "\n")


class _Shown:
    """What `Redactor.for_profile` reads of a host's entry (any malformed field left out)."""

    def __init__(self, entry: dict[str, Any]) -> None:
        def strings(value: Any) -> dict[str, str]:
            return {str(k): v for k, v in value.items() if isinstance(v, str)} if isinstance(value, dict) else {}

        args = entry.get("args")
        self.args = [a for a in args if isinstance(a, str)] if isinstance(args, list) else []
        self.env = strings(entry.get("env"))
        self.headers = strings(entry.get("headers"))
        self.url = entry.get("url") if isinstance(entry.get("url"), str) else ""


def _redactor_of(entry: dict[str, Any]) -> Redactor:
    """By value (JSON-escaped spellings included) and by name: the entry's secret env and headers, its
    secret flags' values, credential-shaped values, DSN passwords."""
    return Redactor.for_profile(_Shown(entry))


def _replace(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _args_insertion(text: str, key_start: int) -> str:
    """`, "args": ` to insert after the command's value: on a line of its own, indented like the command key,
    when that key starts its line."""
    line_start = text.rfind("\n", 0, key_start) + 1
    indent = text[line_start:key_start]
    if indent.strip():
        return ', "args": '
    newline = "\r\n" if text[line_start - 2 : line_start] == "\r\n" else "\n"
    return f",{newline}{indent}" + '"args": '


def _tap_text(text: str, node: Node, new_command: str, new_args: list[str]) -> tuple[str, dict[str, Any]]:
    """`text` with the entry at `node` running `new_command new_args`, and the sidecar's record of the
    spans it replaced (only the characters of the command and args values change)."""
    command_node, args_node = node.get("command"), node.get("args")
    assert command_node is not None
    edits = [(command_node.start, command_node.end, _dumps(new_command))]
    record: dict[str, Any] = {
        "command": {"original": text[command_node.start : command_node.end], "installed": _dumps(new_command)},
        "installed_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    if args_node is not None:
        edits.append((args_node.start, args_node.end, _dumps(new_args)))
        record["args"] = {"original": text[args_node.start : args_node.end], "installed": _dumps(new_args)}
    else:
        key_start = node.member("command").key_start  # type: ignore[union-attr]  # the command node exists
        inserted = _args_insertion(text, key_start) + _dumps(new_args)
        edits.append((command_node.end, command_node.end, inserted))
        record["args"] = {"original": None, "installed": inserted}
    return _replace(text, edits), record


def backups_of(target: Path) -> list[Path]:
    """The backups install and uninstall left next to the config, newest first."""
    try:
        found = list(target.parent.glob(f"{glob.escape(target.name)}.mcp-lens-backup-*"))
    except OSError:
        return []
    return sorted(found, key=lambda p: (_mtime(p), p.name), reverse=True)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _restore_from_backup(config: Path, target: Path, text: str, server: str, entry: dict[str, Any]) -> Path | None:
    """The backup that holds the config exactly as it was before the tap went in: tapping `server` in it
    as install does gives the config as it is now, byte for byte. None if no backup is that one."""
    command, args = entry.get("command"), entry.get("args")
    for backup in backups_of(target):
        try:
            before = backup.read_bytes().decode("utf-8")
            found = _entry(config, target, before, server)
        except (OSError, UnicodeDecodeError, InstallError):
            continue
        if untapped(found.data.get("command"), found.data.get("args")) is not None:
            continue  # a backup taken while it was tapped
        if found.node.get("command") is None or not isinstance(command, str) or not isinstance(args, list):
            continue
        if _tap_text(before, found.node, command, args)[0] == text:
            return backup
    return None


def plan_install(
    config: Path, server: str, name: str | None = None, replay: str | None = None, replay_server: str | None = None
) -> Plan:
    """The change that makes the host run `server` through the tap (recorded as `name`, default the server's name),
    or, with `replay` (a traffic record), run `mcp-lens replay RECORD` in its place (its `replay_server`)."""
    config = Path(config)
    target, text = _read(config)
    found = _entry(config, target, text, server)
    entry, node = found.data, found.node
    _refuse_http(config, server, entry)
    command, args = entry.get("command"), entry.get("args", [])
    if untapped(command, args) is not None or replays(command, args):
        raise InstallError(f"{config}: server {server!r} already runs through the tap; untap it first", "tapped")
    command_node = node.get("command")
    if not isinstance(command, str) or not command or command_node is None:
        raise InstallError(f"{config}: server {server!r} has no 'command' to run through the tap", "no-command")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise InstallError(f"{config}: server {server!r} has an 'args' that is not a list of strings", "invalid")
    new_command, *new_args = (
        replayed_command(replay, replay_server) if replay else tapped_command(command, args, name or server)
    )
    new_text, record = _tap_text(text, node, new_command, new_args)
    sidecar = _read_sidecar(target)
    sidecar["servers"][server] = record
    shown = _diff(config, text, new_text, entry)
    return Plan("install", config, target, server, found.format, text, new_text, shown, sidecar)


def _restore_from_record(text: str, node: Node, record: dict[str, Any]) -> str | None:
    """The text with the recorded original spans back; None if the tapped values were edited since."""
    command_node, args_node = node.get("command"), node.get("args")
    cmd, arg = record.get("command") or {}, record.get("args") or {}
    if command_node is None or text[command_node.start : command_node.end] != cmd.get("installed"):
        return None
    edits = [(command_node.start, command_node.end, cmd.get("original", ""))]
    if arg.get("original") is None:
        inserted = arg.get("installed") or ""
        if not inserted or text[command_node.end : command_node.end + len(inserted)] != inserted:
            return None
        edits.append((command_node.end, command_node.end + len(inserted), ""))
    else:
        if args_node is None or text[args_node.start : args_node.end] != arg.get("installed"):
            return None
        edits.append((args_node.start, args_node.end, arg["original"]))
    return _replace(text, edits)


def plan_uninstall(config: Path, server: str) -> Plan:
    """The change that puts `server`'s entry back as it was before the tap."""
    config = Path(config)
    target, text = _read(config)
    found = _entry(config, target, text, server)
    entry, node = found.data, found.node
    inner = untapped(entry.get("command"), entry.get("args"))
    if inner is None and not replays(entry.get("command"), entry.get("args")):
        raise InstallError(f"{config}: server {server!r} does not run through the tap; nothing to undo", "not-tapped")
    sidecar = _read_sidecar(target)
    record = sidecar["servers"].pop(server, None)
    new_text = _restore_from_record(text, node, record) if isinstance(record, dict) else None
    note = ""
    if new_text is None and (backup := _restore_from_backup(config, target, text, server, entry)) is not None:
        new_text = backup.read_bytes().decode("utf-8")
        note = f"No usable record of the original entry: restored exactly from the backup {backup.name}."
    if new_text is None and inner is None:  # a replay: the original command is only in the record or a backup
        raise InstallError(
            f"{config}: server {server!r} serves a record, and no record of its original entry is left: "
            "put its command back by hand",
            "changed",
        )
    if new_text is None:  # no record, or the tapped command line was edited: rebuild from the command line
        note = (
            "No exact record of the original entry (or its tapped command line was edited since): "
            "the command and args are rebuilt from the tapped command line, so their layout may differ."
        )
        command_node, args_node = node.get("command"), node.get("args")
        assert command_node is not None and args_node is not None and inner is not None  # untapped() saw both
        edits = [(command_node.start, command_node.end, _dumps(inner[0]))]
        new_text = _replace(text, [*edits, (args_node.start, args_node.end, _dumps(inner[1]))])
    shown = _diff(config, text, new_text, entry)
    return Plan("uninstall", config, target, server, found.format, text, new_text, shown, sidecar, note)


# -- applying ---------------------------------------------------------------------------------
def _backup(target: Path, data: bytes) -> Path:
    """A user-only copy of `data` next to `target` (the config may hold secrets), under a name not taken."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 1
    while True:
        path = target.with_name(f"{target.name}.mcp-lens-backup-{stamp}" + (f"-{n}" if n > 1 else ""))
        if not path.exists():
            return write_atomic(path, data)
        n += 1


def apply(plan: Plan) -> Applied:
    """Write the planned change: a backup first, then the sidecar, then the config (each atomic)."""
    try:
        current = plan.target.read_bytes()
        mode = plan.target.stat().st_mode & 0o7777
    except OSError as exc:
        raise InstallError(f"cannot read {plan.config}: {exc.strerror or exc}", "unreadable") from exc
    if current != plan.old_text.encode("utf-8"):
        raise InstallError(f"{plan.config} changed since the change was shown; look at it again", "changed")
    try:
        backup = _backup(plan.target, current)
        sidecar = sidecar_path(plan.target)
        if plan.sidecar.get("servers"):
            write_atomic(sidecar, json.dumps(plan.sidecar, indent=2, ensure_ascii=False) + "\n")
        write_atomic(plan.target, plan.new_text.encode("utf-8"), mode=mode)  # the host's file keeps its mode
        if not plan.sidecar.get("servers"):
            sidecar.unlink(missing_ok=True)
    except OSError as exc:
        raise InstallError(f"cannot write next to {plan.config}: {exc.strerror or exc}", "unwritable") from exc
    return Applied(backup, sidecar)


# -- the command line -------------------------------------------------------------------------
def undo_hint(config: Path, server: str) -> str:
    """The command that undoes an install."""
    return shown_command(["mcp-lens", "tap", "--uninstall", str(config), "--server", server])


def run(
    config: Path,
    server: str,
    *,
    uninstall: bool,
    name: str | None,
    yes: bool,
    out: TextIO,
    err: TextIO,
    stdin: TextIO | None = None,
    replay: str | None = None,
    replay_server: str | None = None,
) -> int:
    """`mcp-lens tap --install/--uninstall CONFIG --server NAME [--name NAME] [--yes]`: show the diff, ask, apply."""
    stdin = sys.stdin if stdin is None else stdin
    try:
        if uninstall:
            plan = plan_uninstall(Path(config), server)
        else:
            plan = plan_install(Path(config), server, name, replay, replay_server)
    except InstallError as exc:
        err.write(f"mcp-lens tap: {exc}\n")
        return USAGE if exc.reason in ("unreadable", "invalid") else REFUSED
    verb = "untap" if uninstall else "tap"
    out.write(f"{plan.config} ({plan.format}): {verb} server {server!r}\n{plan.diff}")
    if plan.note:
        out.write(f"note: {plan.note}\n")
    out.flush()
    if not yes:
        if not (stdin.isatty() and out.isatty()):
            err.write("mcp-lens tap: not changed; pass --yes to apply this change without asking\n")
            return USAGE
        out.write(f"Apply this change to {plan.config}? [y/N] ")
        out.flush()
        if stdin.readline().strip().lower() not in ("y", "yes"):
            out.write("Not changed.\n")
            return REFUSED
    try:
        done = apply(plan)
    except InstallError as exc:
        err.write(f"mcp-lens tap: {exc}\n")
        return REFUSED
    out.write(f"Changed {plan.config}; the previous version is in {done.backup}\n")
    if uninstall:
        out.write(f"Server {server!r} runs without the tap again.\n")
    elif replay:
        out.write(
            f"Restart the host: {server!r} is now answered from "
            + (f"{replay_server!r} of " if replay_server else "")
            + f"{replay} (mcp-lens replay).\n"
            f"To undo: {undo_hint(plan.config, server)}\n"
        )
    else:
        out.write(
            f"Restart the host to run {server!r} through the tap; its sessions appear in MCP Lens.\n"
            f"To undo: {undo_hint(plan.config, server)}\n"
        )
    return 0
