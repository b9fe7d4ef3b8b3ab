"""Per-object memo: reuse work done for a tool dict that is passed again unchanged.

Serialising 1,000 tools takes longer than the incremental recount budget (20 ms), so results are kept per
dict *object*. An entry is valid while the same object comes back with the same top-level values (the
same objects: a replaced or re-assigned description, schema or title is noticed). Changes made *inside*
a nested value in place (``tool["inputSchema"]["properties"]["x"]["description"] = …``) are not: edit a
copy (``copy.deepcopy``) instead, as fresh ``tools/list`` results and the description lab do.

Entries live for two generations (`rotate` once per report), so a caller alternating between two lists
that share most tools (the original and an edited copy) keeps hitting.
"""

from __future__ import annotations

from typing import Any


def fingerprint(obj: dict[str, Any], extra: Any = None) -> tuple[Any, ...]:
    return (extra, *[(key, id(value)) for key, value in obj.items()])


class IdentityMemo:
    def __init__(self) -> None:
        self._current: dict[int, tuple[dict[str, Any], tuple[Any, ...], Any]] = {}
        self._previous: dict[int, tuple[dict[str, Any], tuple[Any, ...], Any]] = {}

    def get(self, obj: dict[str, Any], extra: Any = None) -> Any:
        """The value stored for ``obj`` (and ``extra``), or None."""
        key = id(obj)
        entry = self._current.get(key)
        if entry is None:
            entry = self._previous.get(key)
        if entry is None or entry[0] is not obj or entry[1] != fingerprint(obj, extra):
            return None
        self._current[key] = entry
        return entry[2]

    def put(self, obj: dict[str, Any], value: Any, extra: Any = None) -> None:
        self._current[id(obj)] = (obj, fingerprint(obj, extra), value)

    def rotate(self) -> None:
        """Start a new generation; entries not used in the last two are dropped."""
        self._previous, self._current = self._current, {}

    def clear(self) -> None:
        self._current.clear()
        self._previous.clear()
