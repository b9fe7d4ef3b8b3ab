"""A small JSONPath subset for assertions and saved values: ``$``, ``.name``, ``[0]``, ``["a key"]``."""

from __future__ import annotations

import json
import re
from typing import Any

_TOKEN = re.compile(r"""\.([A-Za-z_$][\w$-]*)|\[(-?\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\['([^']*)'\]""")


class PathError(ValueError):
    """A malformed path, or one that leads nowhere in the document; the message says where it stopped."""


def parse_path(path: str) -> list[str | int]:
    """``$.a.b[0]["c d"]`` → ``["a", "b", 0, "c d"]``. Raises `PathError`."""
    if not isinstance(path, str) or not path.startswith("$"):
        raise PathError(f"a JSON path starts with $, got {path!r}")
    parts: list[str | int] = []
    at = 1
    while at < len(path):
        match = _TOKEN.match(path, at)
        if match is None:
            raise PathError(f'cannot read {path!r} at {path[at:]!r} (use .name, [0] or ["name"])')
        name, index, quoted, single = match.groups()
        if index is not None:
            parts.append(int(index))
        elif quoted is not None:
            parts.append(json.loads(quoted))
        else:
            parts.append(name if name is not None else single)
        at = match.end()
    return parts


def get_path(document: Any, path: str) -> Any:
    """The value at `path` in `document`. Raises `PathError` naming the missing part."""
    value = document
    walked = "$"
    for part in parse_path(path):
        if isinstance(part, int):
            if not isinstance(value, list) or not -len(value) <= part < len(value):
                size = f"a list of {len(value)}" if isinstance(value, list) else _kind(value)
                raise PathError(f"{walked}[{part}] does not exist ({walked} is {size})")
            value = value[part]
            walked += f"[{part}]"
        else:
            if not isinstance(value, dict) or part not in value:
                raise PathError(f"{walked}.{part} does not exist ({walked} is {_kind(value)})")
            value = value[part]
            walked += f".{part}"
    return value


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        keys = ", ".join(list(value)[:8])
        return f"an object with {keys}" if keys else "an empty object"
    return {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")
