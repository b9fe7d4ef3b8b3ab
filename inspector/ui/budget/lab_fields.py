"""Where descriptions live in a tool definition, and how to read and replace one (no Qt)."""

from __future__ import annotations

import copy
from typing import Any

Path = tuple[str, ...]
TOOL_DESCRIPTION: Path = ("description",)


def description_paths(tool: dict[str, Any], limit: int = 200) -> list[tuple[str, Path]]:
    """(label, path) of the tool's description and of every property description, nested ones too."""
    found: list[tuple[str, Path]] = [("Tool description", TOOL_DESCRIPTION)]

    def walk(schema: Any, path: Path, dotted: str) -> None:
        if not isinstance(schema, dict) or len(found) >= limit:
            return
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            return
        for key, sub in properties.items():
            if not isinstance(sub, dict):
                continue
            sub_path = (*path, "properties", str(key))
            name = f"{dotted}.{key}" if dotted else str(key)
            found.append((f"Property {name}", (*sub_path, "description")))
            walk(sub, sub_path, name)
            walk(sub.get("items"), (*sub_path, "items"), f"{name}[]")

    walk(tool.get("inputSchema"), ("inputSchema",), "")
    return found


def read_at(tool: dict[str, Any], path: Path) -> str:
    node: Any = tool
    for key in path:
        if not isinstance(node, dict):
            return ""
        node = node.get(key)
    return node if isinstance(node, str) else ""


def with_text(tool: dict[str, Any], path: Path, text: str) -> dict[str, Any]:
    """A copy of `tool` with the string at `path` replaced (removed when `text` is empty)."""
    edited = copy.deepcopy(tool)
    node: Any = edited
    for key in path[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(key), dict):
            return edited
        node = node[key]
    if text:
        node[path[-1]] = text
    else:
        node.pop(path[-1], None)
    return edited
