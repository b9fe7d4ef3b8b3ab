"""Conformance findings: what the server sent that the spec does not allow, and where.

Checks never raise: a broken server is displayed, flagged and usable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.core.icons import MAX_DECODED_BYTES, MAX_SRC_CHARS
from inspector.core.schema_check import meta_problems

KNOWN_CONTENT_TYPES = frozenset({"text", "image", "audio", "resource_link", "resource"})


@dataclass(frozen=True, slots=True)
class Finding:
    message: str
    path: str  # a JSON path into the result, e.g. "$.tools[3].inputSchema"
    expected: str  # what the spec expects there
    severity: str = "error"  # "error" breaks the spec; "warning" is legal but likely a mistake

    def to_json(self) -> dict[str, str]:
        return {
            "severity": self.severity,
            "path": self.path,
            "message": self.message,
            "expected": self.expected,
        }

    def __str__(self) -> str:
        return f"{self.path}: {with_expected(self.message, self.expected)}"


def with_expected(message: str, expected: str) -> str:
    """``message (expected X)``, or the message alone when it already says X."""
    return message if not expected or expected in message else f"{message} (expected {expected})"


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def check_list_page(result: Any, base: str = "$") -> list[Finding]:
    """Shape of one `tools/list` page (the tools themselves are checked by `check_tool`)."""
    if not isinstance(result, dict):
        return [Finding(f"result is {_type_name(result)}", base, "an object with a tools array")]
    findings = []
    if not isinstance(result.get("tools"), list):
        findings.append(Finding(f"tools is {_type_name(result.get('tools'))}", f"{base}.tools", "an array"))
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        findings.append(Finding(f"nextCursor is {_type_name(cursor)}", f"{base}.nextCursor", "a string"))
    return findings


def check_tool(tool: Any, path: str) -> list[Finding]:
    if not isinstance(tool, dict):
        return [Finding(f"tool is {_type_name(tool)}", path, "an object")]
    findings: list[Finding] = []
    name = tool.get("name")
    if not isinstance(name, str) or not name:
        findings.append(Finding("tool has no name", f"{path}.name", "a non-empty string"))
    for key in ("title", "description"):
        if key in tool and not isinstance(tool[key], str):
            findings.append(Finding(f"{key} is {_type_name(tool[key])}", f"{path}.{key}", "a string"))
    if "inputSchema" not in tool:
        findings.append(
            Finding("tool has no inputSchema", f"{path}.inputSchema", 'a JSON Schema with "type": "object"')
        )
    else:
        findings.extend(check_schema(tool["inputSchema"], f"{path}.inputSchema", require_object=True))
    if "outputSchema" in tool:
        findings.extend(check_schema(tool["outputSchema"], f"{path}.outputSchema", require_object=True))
    findings.extend(check_icon_sizes(tool.get("icons"), f"{path}.icons"))
    annotations = tool.get("annotations")
    if annotations is not None:
        if not isinstance(annotations, dict):
            findings.append(Finding(f"annotations is {_type_name(annotations)}", f"{path}.annotations", "an object"))
        else:
            for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
                if hint in annotations and not isinstance(annotations[hint], bool):
                    findings.append(
                        Finding(
                            f"{hint} is {_type_name(annotations[hint])}",
                            f"{path}.annotations.{hint}",
                            "a boolean",
                        )
                    )
    return findings


def check_icon_sizes(icons: Any, path: str) -> list[Finding]:
    """An embedded (`data:`) icon larger than MCP Lens shows: said once, by its length (never decoded)."""
    if not isinstance(icons, list):
        return []
    findings = []
    for index, icon in enumerate(icons):
        src = icon.get("src") if isinstance(icon, dict) else None
        if isinstance(src, str) and len(src) > MAX_SRC_CHARS and src[:5].lower() == "data:":
            findings.append(
                Finding(
                    f"embedded icon is {len(src) / 1_000_000:.1f} MB of text; not shown",
                    f"{path}[{index}].src",
                    f"an icon of at most {MAX_DECODED_BYTES // 1024} KB",
                    "warning",
                )
            )
    return findings


def check_schema(schema: Any, path: str, *, require_object: bool) -> list[Finding]:
    """A tool schema must be an object schema and valid under its draft (`schema_check`: cheap, cached)."""
    if not isinstance(schema, dict):
        return [Finding(f"schema is {_type_name(schema)}", path, "a JSON Schema object")]
    findings = []
    if require_object and "type" not in schema:
        findings.append(Finding('the schema has no "type"', path, '"type": "object"'))
    elif require_object and schema.get("type") != "object":
        found = json.dumps(schema["type"], ensure_ascii=False, default=repr)[:80]
        findings.append(Finding(f'"type" is {found}', f"{path}.type", '"object"'))
    for where, message in meta_problems(schema):
        findings.append(Finding(message, path + where, "a valid schema"))
    return findings


def check_tools(tools: list[Any], base: str = "$.tools") -> list[Finding]:
    findings: list[Finding] = []
    seen: dict[str, int] = {}
    for index, tool in enumerate(tools):
        path = f"{base}[{index}]"
        findings.extend(check_tool(tool, path))
        name = tool.get("name") if isinstance(tool, dict) else None
        if isinstance(name, str):
            if name in seen:
                findings.append(
                    Finding(f"duplicate tool name {name!r} (also at index {seen[name]})", path, "unique names")
                )
            seen.setdefault(name, index)
    return findings


def check_call_result(result: Any, tool: dict[str, Any] | None = None) -> list[Finding]:
    """A `tools/call` result: content blocks, isError, structuredContent against outputSchema."""
    if not isinstance(result, dict):
        return [Finding(f"result is {_type_name(result)}", "$", "an object with a content array")]
    findings: list[Finding] = []
    content = result.get("content")
    if not isinstance(content, list):
        findings.append(Finding(f"content is {_type_name(content)}", "$.content", "an array of content blocks"))
        content = []
    for index, block in enumerate(content):
        findings.extend(check_content_block(block, f"$.content[{index}]"))
    if "isError" in result and not isinstance(result["isError"], bool):
        findings.append(Finding(f"isError is {_type_name(result['isError'])}", "$.isError", "a boolean"))
    output_schema = tool.get("outputSchema") if isinstance(tool, dict) else None
    structured = result.get("structuredContent")
    if isinstance(output_schema, dict) and result.get("isError") is not True:
        if structured is None:
            findings.append(
                Finding(
                    "tool declares outputSchema but returned no structuredContent",
                    "$.structuredContent",
                    "an object",
                )
            )
        else:
            findings.extend(validate_instance(structured, output_schema, "$.structuredContent"))
    return findings


def check_content_block(block: Any, path: str) -> list[Finding]:
    if not isinstance(block, dict):
        return [Finding(f"content block is {_type_name(block)}", path, "an object with a type")]
    kind = block.get("type")
    if kind not in KNOWN_CONTENT_TYPES:
        return [
            Finding(
                f"unknown content type {kind!r}",
                f"{path}.type",
                "one of " + ", ".join(sorted(KNOWN_CONTENT_TYPES)),
            )
        ]
    required = {"text": ("text",), "image": ("data", "mimeType"), "audio": ("data", "mimeType")}
    required["resource_link"] = ("uri", "name")
    required["resource"] = ("resource",)
    return [
        Finding(f"{kind} block has no {key}", f"{path}.{key}", f"a {key} field")
        for key in required[kind]
        if key not in block
    ]


NOT_FETCHED = "mcp-lens: remote $ref not fetched: "


def _not_fetched(uri: str) -> Any:
    """Stands in for a remote schema (never retrieved): rejects every value and names the `$ref`."""
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012.create_resource({"$comment": NOT_FETCHED + uri, "not": True})


def _error_message(error: Any) -> str:
    comment = error.schema.get("$comment") if isinstance(error.schema, dict) else None
    if error.validator == "not" and isinstance(comment, str) and comment.startswith(NOT_FETCHED):
        return f"not checked: the remote $ref {comment[len(NOT_FETCHED) :]!r} is not fetched"
    return error.message


def validate_instance(instance: Any, schema: dict[str, Any], path: str) -> list[Finding]:
    """Check a value against a server's schema; a remote `$ref` is never fetched (jsonschema's default
    registry would retrieve it with urllib on every call)."""
    from jsonschema.validators import validator_for
    from referencing import Registry

    try:
        validator = validator_for(schema)(schema, registry=Registry(retrieve=_not_fetched))  # type: ignore[call-arg]
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.path))
    except Exception as exc:
        return [Finding(f"could not validate: {exc}", path, "a value valid under outputSchema")]
    return [
        Finding(
            _error_message(error),
            path + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.path),
            "a value valid under outputSchema",
        )
        for error in errors[:50]
    ]
