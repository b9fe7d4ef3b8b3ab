"""Snapshots of a server's tool list (versioned JSON) and the diff of two tool lists.

A diff says which tools were added, removed or changed, the token delta of each, and which schema
changes break existing callers: a tool removed, a property removed, a new required property, a
property's type narrowed or changed, an enum value removed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.config.files import write_atomic
from inspector.config.text_files import NotUtf8Error, read_utf8
from inspector.words import noun

if TYPE_CHECKING:
    from inspector.budget.breakdown import BudgetCounter

FORMAT = "mcp-lens-snapshot"
VERSION = 1


class SnapshotError(ValueError):
    """A snapshot file cannot be read or written; the message names the file and the problem."""


@dataclass
class Snapshot:
    server: str
    taken_at: str
    tools: list[dict[str, Any]]
    source: str  # the command or URL it was taken from, or "file"
    meta: dict[str, Any] = field(default_factory=dict)  # e.g. serverInfo, protocol version

    @classmethod
    def now(cls, server: str, tools: list[dict[str, Any]], source: str, **meta: Any) -> Snapshot:
        taken = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        return cls(server=server, taken_at=taken, tools=list(tools), source=source, meta=dict(meta))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "server": self.server,
            "taken_at": self.taken_at,
            "source": self.source,
            "meta": self.meta,
            "tools": self.tools,
        }


def save_snapshot(path: str | os.PathLike[str], snapshot: Snapshot) -> None:
    """Write atomically (temporary file, then rename). Raises `SnapshotError`."""
    target = Path(path)
    try:
        write_atomic(target, json.dumps(snapshot.to_json(), indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise SnapshotError(f"cannot write snapshot {target}: {exc.strerror or exc}") from exc


def load_snapshot(path: str | os.PathLike[str]) -> Snapshot:
    """Read a snapshot; also accepts a plain ``tools/list`` result (``{"tools": [...]}``) or a bare tools array."""
    source = Path(path)
    try:
        text = read_utf8(source)
    except OSError as exc:
        raise SnapshotError(f"cannot read snapshot {source}: {exc.strerror or exc}") from exc
    except NotUtf8Error as exc:
        raise SnapshotError(f"snapshot {source}: {exc.reason}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SnapshotError(f"snapshot {source} is not JSON: {exc}") from exc
    return snapshot_from_json(data, str(source))


def snapshot_from_json(data: Any, name: str = "snapshot") -> Snapshot:
    if isinstance(data, list):
        return Snapshot(server=Path(name).stem, taken_at="", tools=_tools(data, name), source="file")
    if not isinstance(data, dict):
        raise SnapshotError(f"{name}: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        if "tools" in data:  # a tools/list result saved by hand or by `mcp-lens --cli`
            return Snapshot(server=Path(name).stem, taken_at="", tools=_tools(data["tools"], name), source="file")
        raise SnapshotError(f'{name}: not an MCP Lens snapshot (no "format": "{FORMAT}" and no "tools")')
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise SnapshotError(f"{name}: bad snapshot version {version!r}")
    if version > VERSION:
        raise SnapshotError(
            f"{name}: snapshot version {version} is newer than this MCP Lens reads ({VERSION}); upgrade"
        )
    meta = data.get("meta")
    return Snapshot(
        server=str(data.get("server") or Path(name).stem),
        taken_at=str(data.get("taken_at") or ""),
        tools=_tools(data.get("tools"), name),
        source=str(data.get("source") or "file"),
        meta=meta if isinstance(meta, dict) else {},
    )


def _tools(value: Any, name: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise SnapshotError(f'{name}: "tools" must be a list')
    bad = [i for i, t in enumerate(value) if not isinstance(t, dict)]
    if bad:
        raise SnapshotError(f"{name}: tools[{bad[0]}] is not an object")
    return value


# ---------------------------------------------------------------------------------------------- diff


@dataclass
class ToolChange:
    name: str
    old_tokens: int
    new_tokens: int
    changes: list[str]
    breaking: list[str]

    @property
    def delta(self) -> int:
        return self.new_tokens - self.old_tokens

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "old_tokens": self.old_tokens,
            "new_tokens": self.new_tokens,
            "delta": self.delta,
            "changes": self.changes,
            "breaking": self.breaking,
        }


@dataclass
class SnapshotDiff:
    added: list[ToolChange]
    removed: list[ToolChange]
    changed: list[ToolChange]
    old_total: int
    new_total: int

    @property
    def breaking(self) -> bool:
        return any(c.breaking for c in (*self.removed, *self.changed))

    def growth(self) -> float:
        if self.old_total == 0:
            return 0.0 if self.new_total == 0 else float("inf")
        return (self.new_total - self.old_total) / self.old_total

    @property
    def unchanged(self) -> bool:
        return not (self.added or self.removed or self.changed) and self.old_total == self.new_total

    def to_json(self) -> dict[str, Any]:
        return {
            "old_total": self.old_total,
            "new_total": self.new_total,
            "delta": self.new_total - self.old_total,
            "growth": self.growth() if self.old_total else None,
            "breaking": self.breaking,
            "added": [c.to_json() for c in self.added],
            "removed": [c.to_json() for c in self.removed],
            "changed": [c.to_json() for c in self.changed],
        }


def diff_tools(
    old: list[dict[str, Any]], new: list[dict[str, Any]], counter: BudgetCounter, shape: str = "mcp"
) -> SnapshotDiff:
    """Compare two tool lists by tool name; tokens counted with ``counter`` in ``shape``."""
    old_by = _by_name(old)
    new_by = _by_name(new)
    old_costs = {name: counter.tool_cost(tool, shape) for name, tool in old_by.items()}
    new_costs = {name: counter.tool_cost(tool, shape) for name, tool in new_by.items()}
    added = [ToolChange(n, 0, new_costs[n][0].total, ["tool added"], []) for n in new_by if n not in old_by]
    removed = [
        ToolChange(n, old_costs[n][0].total, 0, ["tool removed"], [f"tool {n!r} removed: callers of it fail"])
        for n in old_by
        if n not in new_by
    ]
    changed: list[ToolChange] = []
    for name, before in old_by.items():
        after = new_by.get(name)
        if after is None:
            continue
        changes, breaking = compare_tool(before, after)
        old_tokens, new_tokens = old_costs[name][0].total, new_costs[name][0].total
        if not changes and not breaking and old_tokens != new_tokens:
            changes = ["the same members in another order"]  # equal as JSON, written in another order
        if changes or breaking or old_tokens != new_tokens:
            changed.append(ToolChange(name, old_tokens, new_tokens, changes, breaking))
    return SnapshotDiff(
        added=added,
        removed=removed,
        changed=changed,
        old_total=counter.list_total([pieces for _, pieces in old_costs.values()], shape),
        new_total=counter.list_total([pieces for _, pieces in new_costs.values()], shape),
    )


def _by_name(tools: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue
        name = tool.get("name")
        key = name if isinstance(name, str) else f"#{i}"
        out.setdefault(key, tool)  # a duplicate name is a lint; the first one wins here
    return out


_TOP_LEVEL = (("title", "title"), ("description", "description"), ("annotations", "annotations"), ("_meta", "_meta"))
_SCHEMAS = ("inputSchema", "outputSchema")


def compare_tool(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[str], list[str]]:
    """``(changes, breaking)`` between two versions of one tool, as readable sentences."""
    changes: list[str] = []
    breaking: list[str] = []
    for key, label in _TOP_LEVEL:
        if old.get(key) != new.get(key):
            changes.append(f"{label} changed" if key in old and key in new else f"{label} {_verb(old, new, key)}")
    named = {key for key, _ in _TOP_LEVEL} | {"name", *_SCHEMAS}
    for key in sorted({*old, *new} - named, key=str):  # any other member (execution, icons, …) by its name
        if old.get(key) != new.get(key):
            changes.append(f"{key} {_verb(old, new, key)}")
    old_in, new_in = old.get("inputSchema"), new.get("inputSchema")
    if old_in != new_in:
        _compare_schema(_obj(old_in), _obj(new_in), "inputSchema", changes, breaking)
    if old.get("outputSchema") != new.get("outputSchema"):
        changes.append(f"outputSchema {_verb(old, new, 'outputSchema')}")
    return changes, breaking


def _verb(old: dict[str, Any], new: dict[str, Any], key: str) -> str:
    if key not in old:
        return "added"
    if key not in new:
        return "removed"
    return "changed"


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _types(schema: dict[str, Any]) -> set[str] | None:
    value = schema.get("type")
    if isinstance(value, str):
        types = {value}
    elif isinstance(value, list):
        types = {t for t in value if isinstance(t, str)}
    else:
        return None
    if "number" in types:
        types.add("integer")  # integer values stay valid when a type widens to number
    return types


def _compare_schema(
    old: dict[str, Any], new: dict[str, Any], path: str, changes: list[str], breaking: list[str], depth: int = 0
) -> None:
    if depth > 16:
        return
    old_types, new_types = _types(old), _types(new)
    if old_types != new_types:
        if new_types is not None and (old_types is None or not old_types <= new_types):
            breaking.append(f"{path}: type changed from {_show(old.get('type'))} to {_show(new.get('type'))}")
        else:
            changes.append(f"{path}: type widened from {_show(old.get('type'))} to {_show(new.get('type'))}")
    old_enum, new_enum = old.get("enum"), new.get("enum")
    if isinstance(old_enum, list) and isinstance(new_enum, list):
        gone = [v for v in old_enum if v not in new_enum]
        extra = [v for v in new_enum if v not in old_enum]
        if gone:
            breaking.append(f"{path}: enum {noun(len(gone), 'value')} removed: {', '.join(_show(v) for v in gone)}")
        if extra:
            changes.append(f"{path}: enum {noun(len(extra), 'value')} added: {', '.join(_show(v) for v in extra)}")
    elif isinstance(new_enum, list) and old_enum is None:
        breaking.append(f"{path}: now restricted to an enum")
    if old.get("description") != new.get("description") and depth > 0:
        changes.append(f"{path}: description changed")
    old_props, new_props = _obj(old.get("properties")), _obj(new.get("properties"))
    old_req = {r for r in old.get("required") or () if isinstance(r, str)}
    new_req = {r for r in new.get("required") or () if isinstance(r, str)}
    for key in old_props:
        if key not in new_props:
            breaking.append(f"{path}.properties.{key}: property removed")
    for key, prop in new_props.items():
        if key not in old_props:
            if key in new_req:
                breaking.append(f"{path}.properties.{key}: new required property")
            else:
                changes.append(f"{path}.properties.{key}: optional property added")
        else:
            if key in new_req and key not in old_req:
                breaking.append(f"{path}.properties.{key}: now required")
            elif key in old_req and key not in new_req:
                changes.append(f"{path}.properties.{key}: no longer required")
            if old_props[key] != prop:
                _compare_schema(
                    _obj(old_props[key]), _obj(prop), f"{path}.properties.{key}", changes, breaking, depth + 1
                )
    for req in sorted(new_req - old_req - set(new_props)):
        breaking.append(f"{path}: {req!r} now required")
    old_items, new_items = old.get("items"), new.get("items")
    if old_items != new_items and isinstance(old_items, dict) and isinstance(new_items, dict):
        _compare_schema(old_items, new_items, f"{path}.items", changes, breaking, depth + 1)
    if old.get("additionalProperties") is not False and new.get("additionalProperties") is False:
        breaking.append(f"{path}: additionalProperties now false")
    compared = {"type", "enum", "description", "properties", "required", "items", "additionalProperties"}
    other = sorted(k for k in set(old) | set(new) if k not in compared and old.get(k) != new.get(k))
    if other:
        changes.append(f"{path}: {', '.join(other)} changed")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if value is not None else "(none)"
