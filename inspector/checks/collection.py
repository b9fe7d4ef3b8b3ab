"""A collection: a named list of saved requests (steps), each with its assertions, in a versioned,
diff-friendly JSON file (fixed key order, indent 2, trailing newline, byte-stable across load/save).

Secrets are never stored, nor `<redacted>` in their place: `add_step` writes ``${NAME}`` for a value of the
server's secrets (`secret_references`: the same name in its recorded entry and in every step) and for a
secret-looking argument. At run time ``${NAME}`` comes from `--input`, the environment or the saved
profile, and ``${steps.ID.VAR}`` from an earlier step's saved value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.checks.assertions import BadAssertion, parse_assertion
from inspector.checks.collection_salvage import Lost, salvage
from inspector.checks.secret_references import env_name, own_names, reach_entry, redacted_fields, with_references
from inspector.config.files import folder_lock, write_atomic
from inspector.config.redact import is_secret_env, is_secret_value
from inspector.config.text_files import NotUtf8Error, decode_utf8, decode_wide, wide_note
from inspector.words import noun

FORMAT = "mcp-lens-collection"
VERSION = 1
_STEP_KEYS = ("id", "name", "server", "method", "params", "expect", "save")
_REFERENCE = re.compile(r"\$\{([^}]*)\}")
_WHOLE_REFERENCE = re.compile(r"^\$\{([^}]*)\}$")


class CollectionError(ValueError):
    """An unreadable or malformed collection file, or a reference nothing can fill (a usage error)."""


@dataclass
class Step:
    id: str
    method: str
    params: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    server: str | None = None  # a profile name; None: the run's one target
    expect: list[dict[str, Any]] = field(default_factory=list)
    save: dict[str, str] = field(default_factory=dict)  # variable → JSON path into the response

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "name": self.name or self.id}
        if self.server is not None:
            data["server"] = self.server
        data.update(method=self.method, params=self.params, expect=self.expect)
        if self.save:
            data["save"] = self.save
        return data


@dataclass
class Collection:
    name: str
    steps: list[Step] = field(default_factory=list)
    # How to reach a step's server that is not a saved profile (a server opened from the command line): its
    # name → its mcp.json entry, secrets redacted. A saved profile of the same name wins; absent when empty.
    servers: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Read from a damaged file: what was wrong and what was lost, one sentence each (not saved; `update` refuses).
    damage: list[str] = field(default_factory=list)
    lost: list[Lost] = field(default_factory=list)  # the damaged stretches, each with its line and raw bytes
    # Read from a UTF-16/32 file with its byte-order mark ("UTF-16 LE"): said, and never saved over (`update`).
    encoding: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": self.name}
        if self.servers:
            data["servers"] = {name: self.servers[name] for name in sorted(self.servers)}
        data["steps"] = [s.to_json() for s in self.steps]
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Replace the file with this collection, atomically and user-only. To change one step of a file
        that another part of the app (or another instance) may also save, use `update`."""
        write_atomic(path, self.dumps())

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def add_step(
        self,
        method: str,
        params: dict[str, Any],
        *,
        server: str | None = None,
        name: str = "",
        expect: list[dict[str, Any]] | None = None,
        reach: dict[str, Any] | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> tuple[Step, list[str]]:
        """Append a step; the server's secret values (`secrets`: value → name, `secret_references`) and
        secret-looking argument values become ``${NAME}`` references. `reach` is how to reach `server`
        (`reach_of`), recorded in `servers`. Returns the step and one sentence per reference it needs to run:
        each value replaced, and each reference in its server's recorded entry."""
        if secrets and server is not None:  # a name another server's secrets use already: this server's own
            others = [e for n, e in self.servers.items() if n != server]
            others += [s.params for s in self.steps if s.server not in (None, server)]
            secrets, reach = own_names(secrets, server, reach, {n for item in others for n in _references(item)})
        if server is not None and reach:
            self.servers[server] = dict(reach)
        notes: list[str] = []
        said: set[str] = set()
        if secrets:
            params = with_references(params, secrets)
            ours = set(secrets.values())
            said = {n for n in _references(params) if n in ours}
            for ref in dict.fromkeys(n for n in _references(params) if n in ours):
                notes.append(f"a secret of the server's: saved as ${{{ref}}}; give {ref} to run")
        entry = self.servers.get(server, {}) if server is not None else {}  # the step needs its references too
        for ref in dict.fromkeys(n for n in _references(entry) if n not in said and not n.startswith("steps.")):
            notes.append(f"in how to reach the server (URL, headers, command): ${{{ref}}}; give {ref} to run")
        if hidden := redacted_fields(params, "params"):  # saved from a redacted view (the traffic log)
            notes.append(
                f"{', '.join(hidden)} holds <redacted> (the secret was hidden where this was saved from): put a "
                "${NAME} reference there, or save the call from History; a step holding <redacted> is not sent"
            )
        taken = {s.id for s in self.steps}
        number = len(self.steps) + 1
        while f"s{number}" in taken:
            number += 1
        step = Step(
            id=f"s{number}",
            name=name or method,
            server=server,
            method=method,
            params=_without_secrets(params, notes, ""),
            expect=list(expect or []),
        )
        self.steps.append(step)
        return step, notes


def _without_secrets(value: Any, notes: list[str], path: str) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(item, str) and is_secret_env(str(key)) and is_secret_value(item):
                out[key] = "${" + env_name(str(key)) + "}"
                notes.append(f"{where} looks secret: saved as {out[key]}, set it in the environment to run")
            else:
                out[key] = _without_secrets(item, notes, where)
        return out
    if isinstance(value, list):
        return [_without_secrets(item, notes, f"{path}[{i}]") for i, item in enumerate(value)]
    return value


def load(path: str | Path) -> Collection:
    """The collection in `path`. A damaged file (cut, corrupted, partly not UTF-8) opens with its intact
    steps and `damage` saying what was lost, where (`collection_salvage`); `CollectionError` when nothing
    of it is a readable collection step."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise CollectionError(f"cannot read collection {path}: {exc}") from None
    encoding = None
    if (wide := decode_wide(raw)) is not None:  # an editor re-saved it as UTF-16: read as such
        encoding, raw = wide
    try:
        collection = from_json(json.loads(decode_utf8(raw, source=str(path))), str(path))
    except NotUtf8Error as exc:
        problem = exc.reason if encoding is None else f"not {encoding} text at line {exc.line}"
    except json.JSONDecodeError as exc:
        problem = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except ValueError as exc:  # a CollectionError too: a step (or the header) that is not what we write
        problem = str(exc).removeprefix(f"{path}: ")
    else:
        collection.encoding = encoding
        return collection
    collection = _salvaged(raw, str(path), problem)
    if collection is None or not collection.steps:  # nothing to run: refused, what was found said too
        found = "".join(f"; {note}" for note in (collection.damage[1:] if collection else []))
        raise CollectionError(f"cannot read collection {path}: {problem}{found}")
    collection.encoding = encoding
    return collection


def encoding_note(collection: Collection) -> str:
    """What a collection read from a UTF-16/32 file says once ("" for a UTF-8 one)."""
    if collection.encoding is None:
        return ""
    return f"{wide_note('file', collection.encoding)}; not saved over (save to a new file to change it)"


def _salvaged(raw: bytes, source: str, problem: str) -> Collection | None:
    """The intact steps of a damaged collection file, its damage said (no steps: none is intact); None when
    it is no collection of ours."""
    found = salvage(raw)
    if found is None or (found.header is None and FORMAT.encode() not in raw):
        return None
    header = found.header or {}
    if found.header is not None and (header.get("format") != FORMAT or header.get("version") != VERSION):
        return None
    damage = [f"damaged: {problem}"]
    if found.header is None:
        damage.append("its header (name, how to reach its servers) could not be read")
    collection = Collection(name=str(header.get("name") or Path(source).stem), damage=damage)
    servers = header.get("servers", {})
    if isinstance(servers, dict):
        collection.servers = {str(k): v for k, v in servers.items() if isinstance(v, dict)}
    left_out: list[Lost] = []
    for line, raw_step, raw in found.items:
        try:
            step = _step(raw_step, f"line {line}")
        except CollectionError as exc:
            left_out.append(Lost(line, raw, f"{exc}: that step is left out", 1))
            continue
        if collection.step(step.id) is not None:
            left_out.append(Lost(line, raw, f"line {line}: a second step {step.id!r} is left out", 1))
            continue
        collection.steps.append(step)
    collection.lost = sorted(left_out + found.lost, key=lambda lost: lost.line)
    damage += [lost.said for lost in collection.lost]
    return collection


def steps_lost(collection: Collection) -> str:
    """How much of a damaged file's steps list was lost: ``1 step lost (line 2)``, ``steps lost (lines 2, 17)``
    when a stretch that does not read may have held any number; "" for a whole file."""
    if not collection.damage:
        return ""
    if not collection.lost:
        return "no step lost, the header damaged"
    lines = [lost.line for lost in collection.lost]
    where = f" ({noun(len(lines), 'line')} {', '.join(map(str, lines))})" if lines else ""
    counts = [lost.items for lost in collection.lost]
    if counts and None not in counts:
        total = sum(c for c in counts if c is not None)
        return f"{total} {noun(total, 'step')} lost{where}"
    return f"steps may be lost{where}"


def update[T](path: str | Path, change: Callable[[Collection], T]) -> tuple[Collection, T]:
    """Read-merge-write: under a lock on the file's folder, read the collection as the file holds it now
    (a missing file: a new, empty one), apply `change` to it and write it back atomically. Steps another
    part of the app or another instance saved meanwhile are kept. Returns the collection written and
    what `change` returned; raises `CollectionError` (the file is damaged: nothing written) or `OSError`."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with folder_lock(target.parent):
        collection = load(target) if target.exists() else Collection(name=target.stem)
        if collection.encoding is not None and not collection.damage:
            raise CollectionError(
                f"{target} is {collection.encoding} (MCP Lens writes UTF-8): not changed, so that its bytes are "
                "kept; save to a new file"
            )
        if collection.damage:
            raise CollectionError(
                f"{target} is damaged ({collection.damage[0].removeprefix('damaged: ')}): not changed, so that "
                "what it holds is not lost; "
                "save to a new file"
            )
        result = change(collection)
        collection.save(target)
    return collection, result


def checked_expect(step: Step, expect: Any, source: str = "collection") -> list[dict[str, Any]]:
    """`expect` if it is a list of assertions this version can run; `CollectionError` says what is wrong."""
    raw = {**step.to_json(), "expect": expect}
    return _step(raw, f"{source}: step {step.id}").expect


def from_json(data: Any, source: str = "collection") -> Collection:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CollectionError(f'{source}: not an MCP Lens collection (expected "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        version = data.get("version")
        raise CollectionError(f"{source}: collection version {version!r} is not supported (this is {VERSION})")
    steps_data = data.get("steps")
    if not isinstance(steps_data, list):
        raise CollectionError(f'{source}: "steps" must be a list')
    collection = Collection(name=str(data.get("name") or Path(source).stem))
    servers = data.get("servers", {})
    if not isinstance(servers, dict) or not all(isinstance(entry, dict) for entry in servers.values()):
        raise CollectionError(f'{source}: "servers" must map server names to mcp.json entries (objects)')
    collection.servers = {str(name): entry for name, entry in servers.items()}
    for index, raw in enumerate(steps_data):
        collection.steps.append(_step(raw, f"{source}: steps[{index}]"))
    ids = [s.id for s in collection.steps]
    if len(set(ids)) != len(ids):
        raise CollectionError(f"{source}: step ids must be unique")
    return collection


def _step(raw: Any, where: str) -> Step:
    if not isinstance(raw, dict):
        raise CollectionError(f"{where} must be an object")
    unknown = set(raw) - set(_STEP_KEYS)
    if unknown:
        raise CollectionError(f"{where}: unknown {noun(len(unknown), 'key')} {', '.join(sorted(unknown))}")
    if not isinstance(raw.get("id"), str) or not raw["id"] or not isinstance(raw.get("method"), str):
        raise CollectionError(f'{where} needs a string "id" and "method"')
    params, expect, save = raw.get("params", {}), raw.get("expect", []), raw.get("save", {})
    if not isinstance(params, dict) or not isinstance(expect, list) or not isinstance(save, dict):
        raise CollectionError(f"{where}: params and save must be objects, expect a list")
    for number, spec in enumerate(expect):
        try:
            parse_assertion(spec)
        except BadAssertion as exc:
            raise CollectionError(f"{where}.expect[{number}]: {exc}") from None
    server = raw.get("server")
    return Step(
        id=raw["id"],
        name=str(raw.get("name") or raw["id"]),
        server=server if isinstance(server, str) else None,
        method=raw["method"],
        params=params,
        expect=expect,
        save={str(k): str(v) for k, v in save.items()},
    )


def reach_of(profile: Any) -> dict[str, Any]:
    """How a collection reaches `profile`'s (resolved) server: its mcp.json entry with each secret (URL
    password and query values, headers, env, flags) as a ``${NAME}`` reference (`reach_entry`)."""
    return reach_entry(profile)


def env_references(collection: Collection) -> list[str]:
    """The ``${VAR}`` environment variables the collection's params, and the recorded entries of the servers
    its steps name, use, in order of first use."""
    names: list[str] = []
    used = {step.server for step in collection.steps}
    reach = [entry for server, entry in collection.servers.items() if server in used]
    for params in [*(step.params for step in collection.steps), *reach]:
        for name in _references(params):
            if not name.startswith("steps.") and name not in names:
                names.append(name)
    return names


def _references(value: Any) -> list[str]:
    if isinstance(value, str):
        return _REFERENCE.findall(value)
    if isinstance(value, dict):
        return [name for item in value.values() for name in _references(item)]
    if isinstance(value, list):
        return [name for item in value for name in _references(item)]
    return []


def resolve(value: Any, env: Mapping[str, str], saved: Mapping[str, Mapping[str, Any]]) -> Any:
    """`value` with its references filled in. A string that is one ``${steps.ID.VAR}`` keeps the saved
    value's type. Raises `CollectionError` naming a reference nothing fills."""
    if isinstance(value, dict):
        return {k: resolve(v, env, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, env, saved) for v in value]
    if not isinstance(value, str):
        return value
    whole = _WHOLE_REFERENCE.match(value)
    if whole:
        return _lookup(whole.group(1), env, saved)
    return _REFERENCE.sub(lambda m: _as_text(_lookup(m.group(1), env, saved)), value)


def _lookup(name: str, env: Mapping[str, str], saved: Mapping[str, Mapping[str, Any]]) -> Any:
    if name.startswith("steps."):
        _, _, rest = name.partition(".")
        step_id, _, var = rest.partition(".")
        if step_id not in saved or var not in saved[step_id]:
            raise CollectionError(f"${{{name}}}: step {step_id!r} saved no value {var!r} (it failed or has not run)")
        return saved[step_id][var]
    if name not in env:
        raise CollectionError(f"${{{name}}} is not set in the environment")
    return env[name]


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
