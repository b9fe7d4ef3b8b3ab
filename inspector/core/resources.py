"""Resources: list (paginated), templates, read, subscribe/unsubscribe — over any `Operations`.

Free functions on `conn.request()`, so the SDK `Connection` and the CLI's `LiteConnection` share
them. Results are the server's raw dicts; what breaks the spec becomes findings, never an exception.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from inspector.core import requires
from inspector.core.findings import Finding
from inspector.core.input_required import request_answering
from inspector.core.paging import Listing, Requester, check_named, list_all, type_name
from inspector.core.uri_template import is_valid


def check_resources(items: list[Any], base: str) -> list[Finding]:
    findings = check_named(items, base, required=("uri", "name"), unique="uri", what="resource")
    for index, item in enumerate(items):
        if isinstance(item, dict) and "size" in item:
            size = item["size"]
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                findings.append(Finding(f"size is {size!r:.40}", f"{base}[{index}].size", "a non-negative integer"))
    return findings


def check_templates(items: list[Any], base: str) -> list[Finding]:
    findings = check_named(items, base, required=("uriTemplate", "name"), unique="uriTemplate", what="template")
    for index, item in enumerate(items):
        template = item.get("uriTemplate") if isinstance(item, dict) else None
        if isinstance(template, str) and not is_valid(template):
            path = f"{base}[{index}].uriTemplate"
            findings.append(Finding(f"{template!r:.80} is not a valid URI template", path, "an RFC 6570 template"))
    return findings


async def list_resources(conn: Requester, **kwargs: Any) -> Listing:
    """Every page of `resources/list`."""
    return await list_all(conn, "resources/list", "resources", check_resources, **kwargs)


async def list_templates(conn: Requester, **kwargs: Any) -> Listing:
    """Every page of `resources/templates/list`."""
    return await list_all(conn, "resources/templates/list", "resourceTemplates", check_templates, **kwargs)


@dataclass
class ReadOutcome:
    uri: str
    result: dict[str, Any]
    findings: list[Finding] = field(default_factory=list)
    elapsed_ms: float = 0.0

    @property
    def contents(self) -> list[Any]:
        contents = self.result.get("contents")
        return contents if isinstance(contents, list) else []


def check_read_result(result: Any) -> list[Finding]:
    """`resources/read`: a contents array; each item has a uri and exactly one of text or blob."""
    if not isinstance(result, dict):
        return [Finding(f"result is {type_name(result)}", "$", "an object with a contents array")]
    contents = result.get("contents")
    if not isinstance(contents, list):
        return [Finding(f"contents is {type_name(contents)}", "$.contents", "an array")]
    findings = []
    for index, item in enumerate(contents):
        path = f"$.contents[{index}]"
        if not isinstance(item, dict):
            findings.append(Finding(f"content is {type_name(item)}", path, "an object"))
            continue
        if not isinstance(item.get("uri"), str):
            findings.append(Finding(f"uri is {type_name(item.get('uri'))}", f"{path}.uri", "a string"))
        has_text, has_blob = "text" in item, "blob" in item
        if has_text == has_blob:
            problem = "both text and blob" if has_text else "neither text nor blob"
            findings.append(Finding(f"content has {problem}", path, "exactly one of text or blob"))
        for key in ("text", "blob", "mimeType"):
            if key in item and not isinstance(item[key], str):
                findings.append(Finding(f"{key} is {type_name(item[key])}", f"{path}.{key}", "a string"))
    return findings


async def read_resource(conn: Requester, uri: str) -> ReadOutcome:
    """`resources/read`; a JSON-RPC error raises `ProtocolError` as every request does."""
    started = time.perf_counter()
    result = await request_answering(conn, "resources/read", {"uri": uri})  # input_required: answered, retried
    elapsed = (time.perf_counter() - started) * 1000
    return ReadOutcome(uri, result, check_read_result(result), elapsed)


async def subscribe(conn: Requester, uri: str) -> None:
    await conn.request("resources/subscribe", {"uri": uri})


async def unsubscribe(conn: Requester, uri: str) -> None:
    await conn.request("resources/unsubscribe", {"uri": uri})


def contents_as_blocks(contents: list[Any]) -> list[Any]:
    """Read contents as content blocks for the result widgets: image and audio blobs become image /
    audio blocks (shown and played), every other item an embedded resource (text, or blob with save)."""
    blocks: list[Any] = []
    for item in contents:
        if isinstance(item, dict) and isinstance(item.get("blob"), str) and "text" not in item:
            mime = item.get("mimeType") if isinstance(item.get("mimeType"), str) else ""
            kind = mime.split("/", 1)[0]
            if kind in ("image", "audio"):
                blocks.append({"type": kind, "data": item["blob"], "mimeType": mime})
                continue
        blocks.append({"type": "resource", "resource": item})
    return blocks


def supports(capabilities: dict[str, Any], feature: str) -> bool:
    """Whether the server's `resources` capability declares `subscribe` or `listChanged`."""
    return requires.declares(capabilities, ("resources", feature))
