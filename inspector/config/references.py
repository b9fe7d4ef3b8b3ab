"""Variable references in a profile, kept as written and resolved each time it connects.

A profile may hold `${VAR}` / `${VAR:-default}` (Claude Code), `${env:VAR}` and `${input:ID}` (VS Code,
Cursor) in its command, args, env, cwd, URL, headers and token. Our profiles file keeps them as
references (a secret never lands in it); `resolve_profile` makes the copy that connects, from the
environment and the input values the user gave, and refuses when anything is left unresolved: a
placeholder is never sent to a server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from inspector.config.profile import ProfileError, ServerProfile
from inspector.words import noun

REFERENCE = re.compile(r"\$\{([^}]+)\}")
_CLAUDE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$", re.DOTALL)
_SCALARS = ("command", "cwd", "url", "bearer_token", "oauth_client_id", "oauth_client_secret")
_MAPS = ("env", "headers")
INPUT_KEYS = ("id", "type", "description", "password", "default", "options")


class Unresolved(ProfileError):
    """References that cannot be resolved now: input values not given, variables not set."""

    def __init__(self, profile: ServerProfile, inputs: list[str], problems: list[str]) -> None:
        self.inputs = inputs
        self.problems = problems
        parts = list(problems)
        if inputs:
            named = ", ".join(describe_input(profile, i) for i in inputs)
            parts.insert(0, f"needs input {noun(len(inputs), 'value')} for {named}")
        super().__init__("; ".join(parts), server=profile.name)


def describe_input(profile: ServerProfile, input_id: str) -> str:
    """`api-key ("API key")`: the input's id and, when declared, its description."""
    desc = input_declaration(profile, input_id).get("description")
    return f"{input_id} ({desc!r})" if isinstance(desc, str) and desc else input_id


def input_declaration(profile: ServerProfile, input_id: str) -> dict[str, Any]:
    """The VS Code `inputs` entry for `input_id` carried by the profile; {} when it has none."""
    return next((dict(d) for d in profile.inputs if d.get("id") == input_id), {})


def clean_declaration(decl: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a VS Code input declaration we use (id, type, description, password, default, options)."""
    return {key: decl[key] for key in INPUT_KEYS if key in decl}


def _strings(profile: ServerProfile) -> list[str]:
    out = [value for key in _SCALARS if isinstance(value := getattr(profile, key), str)]
    out += list(profile.args)
    for key in _MAPS:
        out += list(getattr(profile, key).values())
    return out


def has_references(profile: ServerProfile) -> bool:
    return any(REFERENCE.search(text) for text in _strings(profile))


def needed_inputs(profile: ServerProfile) -> list[str]:
    """The `${input:ID}` ids the profile uses, in order of first use."""
    ids: list[str] = []
    for text in _strings(profile):
        for match in REFERENCE.finditer(text):
            kind, _, arg = match.group(1).partition(":")
            if kind == "input" and arg and arg not in ids:
                ids.append(arg)
    return ids


def unset_variables(profile: ServerProfile, environ: Mapping[str, str]) -> list[str]:
    """The environment variables the profile's references need that `environ` lacks (`${env:NAME}`, and
    `${NAME}` without a default), in order of first use."""
    names: list[str] = []
    for text in _strings(profile):
        for match in REFERENCE.finditer(text):
            token = match.group(1)
            kind, _, arg = token.partition(":")
            name = arg if kind == "env" and arg else None
            if name is None and (claude := _CLAUDE.match(token)) and claude.group(2) is None:
                name = claude.group(1)
            if name and name not in environ and name not in names:
                names.append(name)
    return names


def resolve_text(
    text: str, environ: Mapping[str, str], inputs: Mapping[str, str], used: list[str] | None = None
) -> tuple[str, list[str], list[str]]:
    """`text` with its references resolved; (text, input ids missing, other problems). The values put in
    from the environment or the inputs are appended to `used`, if given (a `${NAME:-default}`'s default is
    written in the config, no secret)."""
    missing: list[str] = []
    problems: list[str] = []

    def sub(match: re.Match[str]) -> str:
        value = resolve(match)
        claude = _CLAUDE.match(match.group(1))
        defaulted = claude is not None and claude.group(1) not in environ
        if used is not None and value != match.group(0) and not defaulted:
            used.append(value)
        return value

    def resolve(match: re.Match[str]) -> str:
        token = match.group(1)
        kind, _, arg = token.partition(":")
        if kind == "input" and arg:
            if arg in inputs:
                return inputs[arg]
            missing.append(arg)
            return match.group(0)
        if kind == "env" and arg:
            if arg in environ:
                return environ[arg]
            problems.append(f"environment variable {arg} is not set (used as ${{env:{arg}}})")
            return match.group(0)
        if claude := _CLAUDE.match(token):
            name, default = claude.group(1), claude.group(2)
            if name in environ:
                return environ[name]
            if default is not None:
                return default
            problems.append(f"environment variable {name} is not set and ${{{name}}} has no default")
            return match.group(0)
        problems.append(f"${{{token}}} cannot be resolved outside the client that wrote it; replace it in the profile")
        return match.group(0)

    return REFERENCE.sub(sub, text), missing, problems


def resolve_profile(
    profile: ServerProfile, environ: Mapping[str, str], inputs: Mapping[str, str] | None = None
) -> ServerProfile:
    """A copy of `profile` with every reference resolved; `Unresolved` names what is missing.

    A profile without references is returned as it is (the same object). The copy's `secret_values`
    holds the values the references resolved to: its `Redactor` hides them wherever they appear.
    """
    if not has_references(profile):
        return profile
    values = dict(inputs or {})
    missing: list[str] = []
    problems: list[str] = []
    used: list[str] = []

    def one(text: str) -> str:
        out, lacking, found = resolve_text(text, environ, values, used)
        missing.extend(i for i in lacking if i not in missing)
        problems.extend(p for p in found if p not in problems)
        return out

    changes = _map_strings(profile, one)
    if missing or problems:
        raise Unresolved(profile, missing, problems)
    changes["secret_values"] = (*profile.secret_values, *dict.fromkeys(used))
    return profile.clone(**changes)


def _map_strings(profile: ServerProfile, fn: Callable[[str], str]) -> dict[str, Any]:
    changes: dict[str, Any] = {key: fn(v) for key in _SCALARS if isinstance(v := getattr(profile, key), str)}
    changes["args"] = [fn(arg) for arg in profile.args]
    for key in _MAPS:
        changes[key] = {k: fn(v) for k, v in getattr(profile, key).items()}
    return changes
