"""Import and export the `mcp.json`-style files of Claude Desktop, Claude Code, Cursor and VS Code."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.config import jsonc
from inspector.config.expand import (
    EditorContext,
    Expander,
    claude_expander,
    editor_expander,
    expand_entry,
    parse_env_file,
)
from inspector.config.profile import HTTP_KEYS, STDIO_KEYS, ProfileError, ServerProfile
from inspector.config.references import clean_declaration, needed_inputs
from inspector.config.servers_damage import read_config
from inspector.config.store import EXTRAS_KEY, apply_extras
from inspector.config.text_files import NotUtf8Error, read_utf8
from inspector.words import counted, noun

FORMATS = ("claude-desktop", "claude-code", "cursor", "vscode", "mcp-lens", "generic")


@dataclass
class ImportResult:
    """What an import found: the profiles, anything the user should know, and the dialect."""

    profiles: list[ServerProfile]
    warnings: list[str]
    format: str
    source: Path
    names: list[str] = field(default_factory=list)  # every entry name, including skipped ones
    damaged: list[str] = field(default_factory=list)  # a damaged file read for what is intact: what was wrong


def detect_format(path: Path, data: Mapping[str, Any]) -> str:
    """Name the dialect of a parsed config file from its keys and file name."""
    if "servers" in data and "mcpServers" not in data:
        return "vscode"
    if isinstance(data.get("mcp"), dict) and "servers" in data["mcp"]:
        return "vscode"  # VS Code settings.json
    if EXTRAS_KEY in data:
        return "mcp-lens"
    name, parent = path.name.lower(), path.parent.name.lower()
    if name == "claude_desktop_config.json":
        return "claude-desktop"
    if name in (".mcp.json", ".claude.json"):
        return "claude-code"
    if parent == ".cursor":
        return "cursor"
    entries = data.get("mcpServers")
    entries = [e for e in entries.values() if isinstance(e, dict)] if isinstance(entries, dict) else []
    if any("type" in e for e in entries):
        return "claude-code"
    if any("url" in e for e in entries):
        return "cursor"
    return "generic"


def _servers_table(data: Any, fmt: str, source: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProfileError(f"expected a JSON object at the top level, got {type(data).__name__}", source=source)
    if fmt == "vscode":
        table = data["mcp"]["servers"] if "servers" not in data and "mcp" in data else data.get("servers")
        key = "servers"
    else:
        table, key = data.get("mcpServers"), "mcpServers"
    if table is None:
        raise ProfileError("no 'mcpServers' (or VS Code 'servers') object found", source=source)
    if not isinstance(table, dict):
        raise ProfileError(f"expected an object, got {type(table).__name__}", source=source, field=key)
    return table


def _workspace(path: Path, marker: str) -> Path | None:
    """The project folder for `<project>/<marker>/mcp.json`; None for the global `~/<marker>` file."""
    parent = path.resolve().parent
    if parent.name != marker:
        return parent
    return None if parent.parent == Path.home() else parent.parent


def _input_declarations(data: Any) -> dict[str, dict[str, Any]]:
    """A VS Code file's `inputs` (top level, or under `mcp` in settings.json), by id."""
    inputs = data.get("inputs") or (data.get("mcp") or {}).get("inputs") or []
    inputs = inputs if isinstance(inputs, list) else []
    return {i["id"]: clean_declaration(i) for i in inputs if isinstance(i, dict) and isinstance(i.get("id"), str)}


def _expander(
    fmt: str, path: Path, decls: Mapping[str, Any], environ: Mapping[str, str], workspace: Path | None
) -> Expander | None:
    """What import expands: only file-location variables (environment and inputs stay references)."""
    if fmt == "claude-code":
        return claude_expander(environ)
    if fmt not in ("vscode", "cursor"):
        return None
    marker, client = (".vscode", "VS Code") if fmt == "vscode" else (".cursor", "Cursor")
    ws = workspace if workspace is not None else _workspace(path, marker)
    return editor_expander(EditorContext(environ, ws, Path.home(), decls, client))


def _apply_env_file(entry: dict[str, Any], base: Path, where: str) -> list[str]:
    """Merge a stdio entry's `envFile` into its env (explicit env wins); return warnings."""
    env_file = entry.get("envFile")
    if not isinstance(env_file, str) or not env_file:
        return []
    file = Path(env_file).expanduser()
    file = file if file.is_absolute() else base / file
    try:
        loaded = parse_env_file(read_utf8(file))
    except OSError as exc:
        return [f"{where}, field 'envFile': cannot read {file}: {exc.strerror or exc}; its variables are missing"]
    except NotUtf8Error as exc:
        return [f"{where}, field 'envFile': {file}: {exc.reason}; its variables are missing"]
    env = entry.get("env")
    entry["env"] = {**loaded, **env} if isinstance(env, dict) else loaded
    return [f"{where}: loaded {counted(len(loaded), 'variable')} from envFile {file} into env"]


def _entries(
    path: Path, fmt: str | None, environ: Mapping[str, str] | None, workspace: Path | None
) -> tuple[str, list[str], Iterator[tuple[str, ServerProfile | ProfileError]], list[str]]:
    """Parse a file; return its format, file-level warnings, a lazy stream of per-server results and what
    was wrong with a damaged file read for what is intact (`servers_damage`; also among the warnings)."""
    source = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read file: {exc.strerror or exc}", source=source) from exc
    data, damage = read_config(raw, source, ("mcpServers", "servers"))
    damaged = [f"{source}: {said}" for said in damage.said] if damage else []
    if not isinstance(data, dict):
        raise ProfileError(f"expected a JSON object at the top level, got {type(data).__name__}", source=source)
    fmt = fmt or detect_format(path, data)
    if fmt not in FORMATS:
        raise ProfileError(f"unknown format {fmt!r} (expected one of {', '.join(FORMATS)})", source=source)
    table = _servers_table(data, fmt, source)
    warnings: list[str] = list(damaged)
    if not damage and fmt in ("claude-desktop", "claude-code") and jsonc.has_jsonc_extras(raw.decode("utf-8-sig")):
        warnings.append(f"{source}: has comments or trailing commas, which {fmt} rejects; read leniently")
    decls = _input_declarations(data)
    expand = _expander(fmt, path, decls, os.environ if environ is None else environ, workspace)
    extras = data.get(EXTRAS_KEY, {}).get("servers", {}) if fmt == "mcp-lens" else {}
    extras = extras if isinstance(extras, dict) else {}
    base = (workspace or _workspace(path, ".vscode" if fmt == "vscode" else ".cursor")) or path.parent

    def stream() -> Iterator[tuple[str, ServerProfile | ProfileError]]:
        for name, raw in table.items():
            where = f"{source}: server {name!r}"
            entry = raw
            if isinstance(raw, dict) and expand is not None:
                entry, problems = expand_entry(raw, expand)
                warnings.extend(f"{where}, field {f!r}: {p}" for f, p in problems)
            if isinstance(entry, dict):
                warnings.extend(_apply_env_file(entry, base, where))
            try:
                profile = ServerProfile.from_entry(name, entry, source=source)
                apply_extras(profile, extras.get(name), source=source)
                if decls:  # the declarations of the inputs it uses go with it, to ask for them at connect
                    profile.inputs = [dict(decls[i]) for i in needed_inputs(profile) if i in decls]
            except ProfileError as exc:
                yield name, exc
                continue
            used = (STDIO_KEYS if profile.transport == "stdio" else HTTP_KEYS) | {"envFile"}
            ignored = sorted(k for k in entry if k not in used)
            if ignored:
                warnings.append(f"{where}: ignored {noun(len(ignored), 'field')} {', '.join(ignored)}")
            yield name, profile

    return fmt, warnings, stream(), damaged


def load_servers(
    path: str | os.PathLike[str],
    *,
    environ: Mapping[str, str] | None = None,
    format: str | None = None,
    workspace: Path | None = None,
    strict: bool = False,
) -> ImportResult:
    """Read every server in a config file.

    `${VAR}`, `${env:VAR}` and `${input:ID}` stay references (resolved at connect); `environ` (default
    `os.environ`) only decides which of them are noted as unset; `format` overrides detection;
    `workspace` overrides the folder `${workspaceFolder}` means. An invalid entry is skipped with
    a warning, or raised as `ProfileError` when `strict`.
    """
    path = Path(path)
    fmt, warnings, stream, damaged = _entries(path, format, environ, workspace)
    profiles: list[ServerProfile] = []
    names: list[str] = []
    for name, item in stream:
        names.append(name)
        if isinstance(item, ProfileError):
            if strict:
                raise item
            warnings.append(f"skipped: {item}")
        else:
            profiles.append(item)
    return ImportResult(profiles=profiles, warnings=warnings, format=fmt, source=path, names=names, damaged=damaged)


def load_server(
    path: str | os.PathLike[str],
    name: str,
    *,
    environ: Mapping[str, str] | None = None,
    format: str | None = None,
    workspace: Path | None = None,
    notes: list[str] | None = None,
) -> ServerProfile:
    """Read one named server; `ProfileError` lists the available names when it is not there. `notes` gets
    what was wrong with a damaged file that was read for what is intact."""
    path = Path(path)
    _, _, stream, damaged = _entries(path, format, environ, workspace)
    if notes is not None:
        notes.extend(damaged)
    names: list[str] = []
    for entry_name, item in stream:
        if entry_name == name:
            if isinstance(item, ProfileError):
                raise item
            return item
        names.append(entry_name)
    available = ", ".join(repr(n) for n in names) if names else "none"
    raise ProfileError(f"no server named {name!r}; available: {available}", source=str(path))


def export_entry(profile: ServerProfile, *, format: str = "mcp-json") -> dict[str, Any]:
    """The entry for `profile` (VS Code entries always carry a `type`)."""
    profile.validate()
    entry = profile.to_entry()
    if format == "vscode" and "type" not in entry:
        entry = {"type": profile.transport, **entry}
    return entry


def export_file(profiles: Iterable[ServerProfile], *, format: str = "mcp-json") -> dict[str, Any]:
    """A whole config file: `{"mcpServers": {...}}`, or VS Code's `{"servers": {...}}`; plus the `inputs`
    the profiles' `${input:ID}` references are declared by."""
    table: dict[str, Any] = {}
    inputs: dict[str, dict[str, Any]] = {}
    for profile in profiles:
        if profile.name in table:
            raise ProfileError("duplicate server name", server=profile.name)
        table[profile.name] = export_entry(profile, format=format)
        inputs.update((d["id"], dict(d)) for d in profile.inputs if d["id"] not in inputs)
    data: dict[str, Any] = {"servers": table} if format == "vscode" else {"mcpServers": table}
    if inputs:  # VS Code's `inputs`, so `${input:ID}` references keep their prompts
        data["inputs"] = list(inputs.values())
    return data


def choose_server(path: str | os.PathLike[str], name: str | None, notes: list[str] | None = None) -> ServerProfile:
    """The server named `name` in a config file, or its only server when no name is given; `notes` gets
    what was wrong with a damaged file that was read for what is intact."""
    if name:
        return load_server(path, name, notes=notes)
    found = load_servers(path)
    if notes is not None:
        notes.extend(found.damaged)
    if len(found.profiles) != 1:
        names = ", ".join(found.names) or "(none)"
        raise ProfileError(f"{path} has {len(found.profiles)} servers; pick one with --server ({names})")
    return found.profiles[0]
