"""Variables in imported server entries: Claude Code `${VAR}`, VS Code/Cursor `${env:VAR}`, `${input:ID}` and friends.

On import only what depends on where the file is (`${workspaceFolder}`, `${userHome}`, `${/}`) is
expanded; environment and input references are kept as references and resolved at each connect
(`inspector.config.references`), so no secret is copied into our profiles file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_CLAUDE_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_EDITOR_VAR = re.compile(r"\$\{([^}]+)\}")

# Fields of an entry that clients expand: scalar strings, a list, and string maps.
_SCALARS = ("command", "cwd", "url", "serverUrl", "envFile")
_MAPS = ("env", "headers")

Expander = Callable[[str], tuple[str, list[str]]]


def expand_vars(text: str, environ: Mapping[str, str]) -> tuple[str, list[str]]:
    """Expand Claude Code `${VAR}` / `${VAR:-default}`; return the text and the names left unexpanded.

    The default applies when VAR is not set (as Claude Code documents it); an unset VAR with no
    default is kept literally. `$VAR` without braces is not expanded.
    """
    missing: list[str] = []

    def sub(m: re.Match[str]) -> str:
        name, default = m.group(1), m.group(2)
        if name in environ:
            return environ[name]
        if default is not None:
            return default
        missing.append(name)
        return m.group(0)

    return _CLAUDE_VAR.sub(sub, text), missing


def claude_expander(environ: Mapping[str, str]) -> Expander:
    """For Claude Code files: keeps every `${VAR}` (resolved at connect); notes the ones unset here."""

    def expand(text: str) -> tuple[str, list[str]]:
        _out, missing = expand_vars(text, environ)
        return text, [
            f"${{{name}}} is not set here and has no default; it is resolved when connecting" for name in missing
        ]

    return expand


@dataclass(frozen=True)
class EditorContext:
    """What VS Code / Cursor variables resolve against."""

    environ: Mapping[str, str]
    workspace: Path | None
    home: Path
    inputs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    client: str = "VS Code"


def editor_expander(ctx: EditorContext) -> Expander:
    """An expander for `${workspaceFolder}`, `${userHome}`, `${env:X}`, `${input:X}`, `${/}` and friends."""

    def expand(text: str) -> tuple[str, list[str]]:
        problems: list[str] = []

        def sub(m: re.Match[str]) -> str:
            value, problem = _editor_value(m.group(1), ctx)
            if problem:
                problems.append(problem)
            return m.group(0) if value is None else value

        return _EDITOR_VAR.sub(sub, text), problems

    return expand


def _editor_value(token: str, ctx: EditorContext) -> tuple[str | None, str | None]:
    """Resolve one `${token}`: (value or None to keep it, problem message or None)."""
    kind, _, arg = token.partition(":")
    if token in ("workspaceFolder", "workspaceFolderBasename"):
        if ctx.workspace is None:
            return None, f"${{{token}}} has no workspace folder for this file; kept literally"
        return (str(ctx.workspace) if token == "workspaceFolder" else ctx.workspace.name), None
    if token == "userHome":
        return str(ctx.home), None
    if token in ("pathSeparator", "/"):
        return os.sep, None
    if kind == "env" and arg:
        if arg in ctx.environ:
            return None, None  # kept: resolved when connecting
        return None, f"${{env:{arg}}} is not set here; it is resolved when connecting"
    if kind == "input" and arg:
        decl = ctx.inputs.get(arg)
        if decl is None:
            return None, f"${{input:{arg}}} refers to no declared input; MCP Lens asks for it when connecting"
        desc = decl.get("description")
        what = f" ({desc})" if isinstance(desc, str) and desc else ""
        return None, f"${{input:{arg}}}{what} is asked for when connecting, as {ctx.client} does"
    return None, f"${{{token}}} is not supported outside {ctx.client}; kept literally — replace it in the profile"


def expand_entry(entry: dict[str, Any], expand: Expander) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Expand the string fields clients expand (command, args, env, cwd, url, headers, envFile).

    Returns the new entry and `(field, problem)` pairs. Non-string values are left for validation.
    """
    out = dict(entry)
    problems: list[tuple[str, str]] = []

    def one(path: str, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        new, found = expand(value)
        problems.extend((path, p) for p in found)
        return new

    for key in _SCALARS:
        if key in out:
            out[key] = one(key, out[key])
    if isinstance(out.get("args"), list):
        out["args"] = [one(f"args[{i}]", v) for i, v in enumerate(out["args"])]
    for key in _MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {k: one(f"{key}.{k}", v) for k, v in out[key].items()}
    return out, problems


def parse_env_file(text: str) -> dict[str, str]:
    """Parse a dotenv file: `KEY=value`, optional `export `, quotes, `#` comments."""
    env: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        key, value = key.strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            env[key] = value
    return env
