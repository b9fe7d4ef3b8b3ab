"""One request's verdict: the recorded answer and a new one compared, identical, equal once the volatile
fields are gone (`volatile`), or different, with a JSON diff by path."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.replay.volatile import Volatile, normalise

IDENTICAL, EQUAL, DIFFERENT, MISSING = "identical", "equal", "different", "no answer"
MAX_CHANGES = 50  # paths listed per verdict


@dataclass(frozen=True, slots=True)
class Change:
    """One place the answers differ: its path (``$.result.content[0].text``), the recorded value and the
    new one (`ABSENT` where there is none)."""

    path: str
    recorded: Any
    new: Any

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        if self.recorded is not ABSENT:
            out["recorded"] = self.recorded
        if self.new is not ABSENT:
            out["new"] = self.new
        return out


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


ABSENT: Any = _Absent()


@dataclass
class Verdict:
    """What became of request `number` (1-based, in record order): its method, params, the two answers,
    the verdict, the changes, and the new answer's latency."""

    number: int
    method: str
    params: Any
    recorded: Any
    new: Any
    verdict: str
    changes: list[Change] = field(default_factory=list)
    latency_ms: float | None = None
    recorded_latency_ms: float | None = None
    note: str | None = None

    @property
    def passed(self) -> bool:
        return self.verdict in (IDENTICAL, EQUAL)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "method": self.method,
            "params": self.params,
            "verdict": self.verdict,
            "changes": [change.to_json() for change in self.changes],
            "latency_ms": self.latency_ms,
            "recorded_latency_ms": self.recorded_latency_ms,
            "note": self.note,
        }


def compare(recorded: Any, new: Any, method: str | None, extra: tuple[Volatile, ...] = ()) -> tuple[str, list[Change]]:
    """The verdict on `new` against `recorded` (both a JSON-RPC answer), and where they differ."""
    if new is None:
        return MISSING, []
    if _strip_id(recorded) == _strip_id(new):
        return IDENTICAL, []
    a, b = normalise(recorded, method, extra), normalise(new, method, extra)
    if a == b:
        return EQUAL, []
    return DIFFERENT, json_diff(a, b)


def _strip_id(value: Any) -> Any:
    return {k: v for k, v in value.items() if k != "id"} if isinstance(value, dict) else value


def json_diff(a: Any, b: Any, path: str = "$", out: list[Change] | None = None) -> list[Change]:
    """Where `a` and `b` differ, by path (at most `MAX_CHANGES`)."""
    out = [] if out is None else out
    if len(out) >= MAX_CHANGES:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for key in [*a, *(k for k in b if k not in a)]:
            inner = f"{path}.{key}" if key.isidentifier() else f"{path}[{_quoted(key)}]"
            json_diff(a.get(key, ABSENT), b.get(key, ABSENT), inner, out)
    elif isinstance(a, list) and isinstance(b, list):
        for n in range(max(len(a), len(b))):
            json_diff(a[n] if n < len(a) else ABSENT, b[n] if n < len(b) else ABSENT, f"{path}[{n}]", out)
    elif (a != b or type(a) is not type(b)) and len(out) < MAX_CHANGES:
        out.append(Change(path, a, b))
    return out


def _quoted(key: str) -> str:
    import json

    return json.dumps(key, ensure_ascii=False)
