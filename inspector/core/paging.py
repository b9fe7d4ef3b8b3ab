"""Cursor pagination for any `*/list` method, with conformance findings for each page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.core.findings import Finding

MAX_PAGES = 1000


class Requester(Protocol):
    async def request(self, method: str, params: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]: ...


def type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


@dataclass
class Listing:
    """Every item of a paginated list, in order, and what was wrong with the pages or items."""

    key: str  # "resources" | "resourceTemplates" | "prompts"
    items: list[Any]
    pages: int
    findings: list[Finding] = field(default_factory=list)

    def by(self, field_name: str, value: str) -> dict[str, Any] | None:
        return next((i for i in self.items if isinstance(i, dict) and i.get(field_name) == value), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.key: self.items}
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        return out


def check_page(result: Any, key: str, base: str) -> list[Finding]:
    if not isinstance(result, dict):
        return [Finding(f"result is {type_name(result)}", base, f"an object with a {key} array")]
    findings = []
    if not isinstance(result.get(key), list):
        findings.append(Finding(f"{key} is {type_name(result.get(key))}", f"{base}.{key}", "an array"))
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        findings.append(Finding(f"nextCursor is {type_name(cursor)}", f"{base}.nextCursor", "a string"))
    return findings


async def list_all(
    conn: Requester,
    method: str,
    key: str,
    check_items: Callable[[list[Any], str], list[Finding]] | None = None,
    *,
    on_page: Callable[[int, int], None] | None = None,
) -> Listing:
    """All pages of `method`, concatenated. A cursor that repeats ends the loop with a finding.
    `on_page(pages, items)` reports progress after each page."""
    items: list[Any] = []
    findings: list[Finding] = []
    cursor: str | None = None
    seen: set[str] = set()
    pages = 0
    while True:
        page = await conn.request(method, {"cursor": cursor} if cursor is not None else None)
        base = f"$[page {pages}]" if pages else "$"
        pages += 1
        findings.extend(check_page(page, key, base))
        if isinstance(page, dict) and isinstance(page.get(key), list):
            items.extend(page[key])
        if on_page is not None:
            on_page(pages, len(items))
        next_cursor = page.get("nextCursor") if isinstance(page, dict) else None
        cursor = next_cursor if isinstance(next_cursor, str) else None
        if cursor is None:
            break
        if cursor in seen or pages >= MAX_PAGES:
            findings.append(
                Finding(f"pagination does not end (cursor {cursor!r} repeats)", f"{base}.nextCursor", "a new cursor")
            )
            break
        seen.add(cursor)
    if check_items is not None:
        findings.extend(check_items(items, f"$.{key}"))
    return Listing(key=key, items=items, pages=pages, findings=findings)


def check_named(items: list[Any], base: str, *, required: tuple[str, ...], unique: str, what: str) -> list[Finding]:
    """Shared item checks: each is an object with the `required` string fields; `unique` is unique."""
    findings: list[Finding] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        path = f"{base}[{index}]"
        if not isinstance(item, dict):
            findings.append(Finding(f"{what} is {type_name(item)}", path, "an object"))
            continue
        for key in required:
            value = item.get(key)
            if not isinstance(value, str) or not value:
                shown = "missing" if key not in item else f"{type_name(value)} {value!r:.40}"
                findings.append(Finding(f"{key} is {shown}", f"{path}.{key}", "a non-empty string"))
        for key in ("title", "description", "mimeType"):
            if key in item and not isinstance(item[key], str):
                findings.append(Finding(f"{key} is {type_name(item[key])}", f"{path}.{key}", "a string"))
        value = item.get(unique)
        if isinstance(value, str):
            if value in seen:
                findings.append(
                    Finding(f"duplicate {unique} {value!r} (also at index {seen[value]})", path, f"unique {unique}s")
                )
            seen.setdefault(value, index)
    return findings
