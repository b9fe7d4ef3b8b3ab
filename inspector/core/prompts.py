"""Prompts (list, get), argument completion and `logging/setLevel` — over any `Operations`."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from inspector.core import requires
from inspector.core.findings import Finding, check_content_block
from inspector.core.input_required import request_answering
from inspector.core.paging import Listing, Requester, check_named, list_all, type_name

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
ROLES = ("user", "assistant")


def check_prompts(items: list[Any], base: str) -> list[Finding]:
    findings = check_named(items, base, required=("name",), unique="name", what="prompt")
    for index, item in enumerate(items):
        if not isinstance(item, dict) or "arguments" not in item:
            continue
        arguments, path = item["arguments"], f"{base}[{index}].arguments"
        if not isinstance(arguments, list):
            findings.append(Finding(f"arguments is {type_name(arguments)}", path, "an array"))
            continue
        findings.extend(check_named(arguments, path, required=("name",), unique="name", what="argument"))
        for position, argument in enumerate(arguments):
            if isinstance(argument, dict) and "required" in argument and not isinstance(argument["required"], bool):
                where = f"{path}[{position}].required"
                findings.append(Finding(f"required is {type_name(argument['required'])}", where, "a boolean"))
    return findings


async def list_prompts(conn: Requester, **kwargs: Any) -> Listing:
    """Every page of `prompts/list`."""
    return await list_all(conn, "prompts/list", "prompts", check_prompts, **kwargs)


def prompt_arguments(prompt: Any) -> list[dict[str, Any]]:
    """The well-formed argument entries of a prompt (objects with a string name)."""
    arguments = prompt.get("arguments") if isinstance(prompt, dict) else None
    if not isinstance(arguments, list):
        return []
    return [a for a in arguments if isinstance(a, dict) and isinstance(a.get("name"), str) and a["name"]]


def arguments_schema(prompt: Any) -> dict[str, Any]:
    """A JSON Schema object for the form engine: one string per argument, `required` kept."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for argument in prompt_arguments(prompt):
        prop: dict[str, Any] = {"type": "string"}
        for key in ("title", "description"):
            if isinstance(argument.get(key), str):
                prop[key] = argument[key]
        properties[argument["name"]] = prop
        if argument.get("required") is True:
            required.append(argument["name"])
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


@dataclass
class PromptOutcome:
    name: str
    arguments: dict[str, str]
    result: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)
    elapsed_ms: float = 0.0

    @property
    def messages(self) -> list[Any]:
        messages = self.result.get("messages")
        return messages if isinstance(messages, list) else []


def check_get_result(result: Any) -> list[Finding]:
    """`prompts/get`: messages, each with a role (user | assistant) and one content block."""
    if not isinstance(result, dict):
        return [Finding(f"result is {type_name(result)}", "$", "an object with a messages array")]
    findings = []
    if "description" in result and not isinstance(result["description"], str):
        findings.append(Finding(f"description is {type_name(result['description'])}", "$.description", "a string"))
    messages = result.get("messages")
    if not isinstance(messages, list):
        return [*findings, Finding(f"messages is {type_name(messages)}", "$.messages", "an array")]
    for index, message in enumerate(messages):
        path = f"$.messages[{index}]"
        if not isinstance(message, dict):
            findings.append(Finding(f"message is {type_name(message)}", path, "an object"))
            continue
        if message.get("role") not in ROLES:
            findings.append(Finding(f"role is {message.get('role')!r:.40}", f"{path}.role", '"user" or "assistant"'))
        findings.extend(check_content_block(message.get("content"), f"{path}.content"))
    return findings


async def get_prompt(conn: Requester, name: str, arguments: dict[str, Any] | None = None) -> PromptOutcome:
    """`prompts/get`. Argument values are strings on the wire; other values are sent as their JSON text."""
    sent = {key: value if isinstance(value, str) else _as_text(value) for key, value in (arguments or {}).items()}
    params: dict[str, Any] = {"name": name}
    if sent:
        params["arguments"] = sent
    started = time.perf_counter()
    result = await request_answering(conn, "prompts/get", params)  # input_required: answered, retried
    elapsed = (time.perf_counter() - started) * 1000
    return PromptOutcome(name, sent, result, check_get_result(result), elapsed)


def _as_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# -- completion -------------------------------------------------------------------------------------


@dataclass
class Completion:
    values: list[str]
    total: int | None = None
    has_more: bool = False
    findings: list[Finding] = field(default_factory=list)


def prompt_ref(name: str) -> dict[str, str]:
    return {"type": "ref/prompt", "name": name}


def template_ref(uri_template: str) -> dict[str, str]:
    return {"type": "ref/resource", "uri": uri_template}


async def complete(
    conn: Requester, ref: dict[str, str], name: str, value: str, context: dict[str, str] | None = None
) -> Completion:
    """`completion/complete` for one argument (a prompt argument or a template variable).
    `context` carries the other arguments already filled in, so servers can narrow suggestions."""
    params: dict[str, Any] = {"ref": ref, "argument": {"name": name, "value": value}}
    others = {k: v for k, v in (context or {}).items() if k != name and isinstance(v, str) and v}
    if others:
        params["context"] = {"arguments": others}
    result = await conn.request("completion/complete", params)
    return parse_completion(result)


def parse_completion(result: Any) -> Completion:
    completion = result.get("completion") if isinstance(result, dict) else None
    if not isinstance(completion, dict):
        return Completion([], findings=[Finding(f"completion is {type_name(completion)}", "$.completion", "an object")])
    findings = []
    raw = completion.get("values")
    if not isinstance(raw, list):
        findings.append(Finding(f"values is {type_name(raw)}", "$.completion.values", "an array of strings"))
        raw = []
    values = [v for v in raw if isinstance(v, str)]
    if len(values) != len(raw):
        findings.append(Finding("values holds non-strings", "$.completion.values", "an array of strings"))
    if len(values) > 100:
        findings.append(Finding(f"{len(values)} values", "$.completion.values", "at most 100 values"))
    total = completion.get("total")
    return Completion(
        values[:100],
        total if isinstance(total, int) and not isinstance(total, bool) else None,
        completion.get("hasMore") is True,
        findings,
    )


def supports_completion(capabilities: dict[str, Any]) -> bool:
    return requires.declared_for("completion/complete", capabilities)


# -- logging ----------------------------------------------------------------------------------------


async def set_log_level(conn: Requester, level: str) -> None:
    """`logging/setLevel`. Raises ValueError for a level that is not one of the spec's eight."""
    if level not in LOG_LEVELS:
        raise ValueError(f"unknown log level {level!r}; use one of: {', '.join(LOG_LEVELS)}")
    await conn.request("logging/setLevel", {"level": level})


def supports_logging(capabilities: dict[str, Any]) -> bool:
    return requires.declared_for("logging/setLevel", capabilities)
