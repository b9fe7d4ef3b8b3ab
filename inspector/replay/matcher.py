"""Which recorded exchange answers a request: the same method and params once the volatile fields are
gone (`volatile.request_key`), the recorded ones in order when the same request was made several times
(the last one again once they are used up). A request with no match gets the nearest recorded one, to
say what was expected."""

from __future__ import annotations

from array import array
from typing import Any

from inspector.replay.volatile import normalise, request_key

NEAREST_SCAN = 500  # recorded requests of the same method looked at for the nearest


class Matcher:
    """`match(message) -> n | None` over recorded requests with keys `keys` (n: their position). `value(n)`
    decodes the recorded request n (for `nearest`); `method(n)` its method."""

    def __init__(self, keys: array, value: Any, method: Any) -> None:
        self._value, self._method = value, method
        self._next = array("q", [-1]) * len(keys)  # the next exchange with the same key
        self._first: dict[int, int] = {}
        last: dict[int, int] = {}
        for n, key in enumerate(keys):
            if key in last:
                self._next[last[key]] = n
            else:
                self._first[key] = n
            last[key] = n
        self._cursor: dict[int, int] = {}  # key → the exchange the next match returns

    def match(self, message: dict[str, Any]) -> int | None:
        key = request_key(message)
        n = self._cursor.get(key, self._first.get(key))
        if n is None:
            return None
        after = self._next[n]
        self._cursor[key] = after if after >= 0 else n
        return n

    def nearest(self, message: dict[str, Any]) -> int | None:
        """The recorded request most like `message`: the same method and the most params alike; None when
        the method was never asked."""
        method = message.get("method")
        wanted = normalise(message.get("params"), method) if isinstance(message.get("params"), dict) else {}
        best, best_score, looked = None, -1, 0
        for n in range(len(self._next)):
            if self._method(n) != method:
                continue
            looked += 1
            params = self._value(n).get("params")
            params = normalise(params, method) if isinstance(params, dict) else {}
            score = _likeness(wanted, params)
            if score > best_score:
                best, best_score = n, score
            if looked >= NEAREST_SCAN:
                break
        return best


def _likeness(a: Any, b: Any) -> int:
    """How many leaves of `a` equal `b`'s at the same place."""
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(_likeness(value, b[key]) + 1 for key, value in a.items() if key in b)
    if isinstance(a, list) and isinstance(b, list):
        return sum(_likeness(x, y) for x, y in zip(a, b, strict=False))
    return 2 if a == b else 0
