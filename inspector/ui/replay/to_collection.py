"""Save as collection: a regression run's requests as collection steps (`inspector/checks/collection`),
each expecting the recorded answer, so `mcp-lens run` checks the next build the same way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from inspector.checks.collection import Collection
from inspector.replay.compare import Verdict
from inspector.replay.volatile import normalise

# What a run sends before its first step (the handshake) or on its own: not steps of a collection.
NOT_STEPS = frozenset({"initialize", "server/discover", "ping"})
_PLAIN_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # a member a JSON path names as .key


def expectations(verdict: Verdict) -> list[dict[str, Any]]:
    """What the step checks: success, and each member of the recorded result equal (a member the volatile
    rules touch left out; members the new server adds, such as a newer era's ``resultType``, allowed); a
    recorded error: its code."""
    recorded = verdict.recorded if isinstance(verdict.recorded, dict) else {}
    error = recorded.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), int):
        return [{"kind": "error_code", "code": error["code"]}]
    result = recorded.get("result")
    if not isinstance(result, dict):
        return []
    kept = normalise(recorded, verdict.method).get("result") or {}
    checks: list[dict[str, Any]] = [{"kind": "success"}]
    for key, value in result.items():
        if key in kept and kept[key] == value and not key.startswith("_") and _PLAIN_KEY.fullmatch(key):
            checks.append({"kind": "equals", "path": f"$.result.{key}", "value": value})
    return checks


def run_collection(name: str, verdicts: list[Verdict]) -> Collection:
    """A collection of `verdicts`' requests in order (the handshake left to `mcp-lens run`)."""
    collection = Collection(name=name)
    for verdict in verdicts:
        if verdict.method in NOT_STEPS:
            continue
        params = verdict.params if isinstance(verdict.params, dict) else {}
        params = {key: value for key, value in params.items() if key != "_meta"}
        name = f"{verdict.number}. {verdict.method}"
        collection.add_step(verdict.method, params, name=name, expect=expectations(verdict))
    return collection


def save_run(path: str | Path, name: str, verdicts: list[Verdict]) -> int:
    """Write the run's steps to `path` (atomically, user-only); returns how many steps."""
    collection = run_collection(name, verdicts)
    collection.save(path)
    return len(collection.steps)
