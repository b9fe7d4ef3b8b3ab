"""A whole `tools/call` result → previews, outcome, structured content and its validation issues."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.content.binary import MAX_DECODE_BYTES
from inspector.content.blocks import preview, to_json_text
from inspector.content.previews import Preview
from inspector.core.findings import Finding, check_call_result

STRUCTURED_PATH = "$.structuredContent"


@dataclass(frozen=True, slots=True)
class ResultSummary:
    """Everything a result pane shows, computed once from the raw result dict."""

    previews: tuple[Preview, ...]
    is_error: bool  # isError is true: the tool ran and reported a failure
    findings: tuple[Finding, ...]  # every conformance finding, the blocks' own included
    has_structured: bool = False
    structured: str | None = None  # structuredContent as pretty JSON
    structured_value: Any = None
    structured_issues: tuple[Finding, ...] = ()  # validation against outputSchema, and shape problems
    output_schema: dict[str, Any] | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    @property
    def raw_json(self) -> str:
        """The raw result as pretty JSON, built when asked (for a 50 MB result: ~0.2 s and 100 MB, so
        only when the raw view is opened)."""
        return to_json_text(self.raw)

    @property
    def outcome(self) -> str:
        """``"ok"`` or ``"tool error"``."""
        return "tool error" if self.is_error else "ok"

    @property
    def result_findings(self) -> tuple[Finding, ...]:
        """Findings that are not about structuredContent (those are listed with it)."""
        return tuple(f for f in self.findings if not f.path.startswith(STRUCTURED_PATH))


def result_summary(result: Any, tool: dict[str, Any] | None = None, *, limit: int = MAX_DECODE_BYTES) -> ResultSummary:
    """Summarise a raw `tools/call` result; `tool` (its `tools/list` entry) supplies the outputSchema."""
    findings = list(check_call_result(result, tool if isinstance(tool, dict) else None))
    if not isinstance(result, dict):
        return ResultSummary((), False, tuple(findings), raw=result)
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    previews = tuple(preview(block, f"$.content[{i}]", limit=limit) for i, block in enumerate(blocks))
    seen = set(findings)
    for spec in previews:
        for finding in spec.findings:
            if finding not in seen:
                seen.add(finding)
                findings.append(finding)
    schema = tool.get("outputSchema") if isinstance(tool, dict) else None
    schema = schema if isinstance(schema, dict) else None
    has_structured = "structuredContent" in result
    value = result.get("structuredContent")
    if has_structured and not isinstance(value, dict) and schema is None:  # else the schema reports it
        findings.append(Finding(f"structuredContent is {_type_name(value)}", STRUCTURED_PATH, "an object"))
    return ResultSummary(
        previews=previews,
        is_error=result.get("isError") is True,
        findings=tuple(findings),
        has_structured=has_structured,
        structured=to_json_text(value) if has_structured else None,
        structured_value=value,
        structured_issues=tuple(f for f in findings if f.path.startswith(STRUCTURED_PATH)),
        output_schema=schema,
        raw=result,
    )


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__
