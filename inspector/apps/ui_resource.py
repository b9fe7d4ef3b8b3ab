"""A tool's MCP App interface: its `ui://` resource URI, who may call it, and the resource's checked contents."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

EXTENSION_ID = "io.modelcontextprotocol/ui"
APP_MIME_TYPE = "text/html;profile=mcp-app"
LEGACY_URI_KEY = "ui/resourceUri"  # the extension's deprecated flat `_meta` key
UI_SCHEME = "ui://"
VISIBILITIES = ("model", "app")
MAX_HTML_BYTES = 5_000_000  # an interface larger than this is refused, not rendered


def _ui_meta(item: Any) -> dict[str, Any]:
    meta = item.get("_meta") if isinstance(item, dict) else None
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return ui if isinstance(ui, dict) else {}


def resource_uri(tool: Any) -> str | None:
    """The URI of the interface `tool` declares (`_meta.ui.resourceUri`, else the flat `_meta["ui/resourceUri"]`)."""
    uri = _ui_meta(tool).get("resourceUri")
    if uri is None and isinstance(tool, dict) and isinstance(tool.get("_meta"), dict):
        uri = tool["_meta"].get(LEGACY_URI_KEY)
    return uri if isinstance(uri, str) and uri else None


def has_interface(tool: Any) -> bool:
    """Whether `tool` declares a `ui://` interface a host can render."""
    uri = resource_uri(tool)
    return uri is not None and uri.startswith(UI_SCHEME)


def visibility(tool: Any) -> tuple[str, ...]:
    """Who may use `tool`: "model", "app" or both (the default when absent or unreadable)."""
    seen = _ui_meta(tool).get("visibility")
    if not isinstance(seen, list) or not seen or not all(v in VISIBILITIES for v in seen):
        return VISIBILITIES
    return tuple(v for v in VISIBILITIES if v in seen)


def app_may_call(tool: Any) -> bool:
    """Whether an app may call `tool` through the bridge (its visibility includes "app")."""
    return "app" in visibility(tool)


def is_read_only(tool: Any) -> bool:
    """Whether `tool` says it only reads (`annotations.readOnlyHint: true`); anything else may write."""
    annotations = tool.get("annotations") if isinstance(tool, dict) else None
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


def tool_findings(tool: Any) -> list[str]:
    """What is off in how `tool` declares its interface, in words."""
    findings: list[str] = []
    uri = resource_uri(tool)
    raw = _ui_meta(tool).get("resourceUri")
    if raw is not None and not isinstance(raw, str):
        findings.append("_meta.ui.resourceUri is not a string")
    if uri is not None and not uri.startswith(UI_SCHEME):
        findings.append(f"the interface URI {uri!r} does not use the ui:// scheme")
    seen = _ui_meta(tool).get("visibility")
    if seen is not None and visibility(tool) == VISIBILITIES and seen != list(VISIBILITIES):
        findings.append(f"_meta.ui.visibility {seen!r} is not a list of 'model' / 'app'; both assumed")
    for key in ("csp", "permissions"):
        if key in _ui_meta(tool):
            findings.append(f"_meta.ui.{key} belongs on the ui:// resource, not the tool; ignored")
    return findings


@dataclass
class UiResource:
    """An app's interface as read: its HTML, its `_meta.ui` (csp, permissions, domain, prefersBorder),
    and findings in words. `html` is None when there is nothing to render."""

    uri: str
    html: str | None = None
    mime_type: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)

    @property
    def renderable(self) -> bool:
        return self.html is not None

    @property
    def csp(self) -> dict[str, Any]:
        csp = self.meta.get("csp")
        return csp if isinstance(csp, dict) else {}

    @property
    def permissions(self) -> dict[str, Any]:
        permissions = self.meta.get("permissions")
        return permissions if isinstance(permissions, dict) else {}

    @property
    def domain(self) -> str | None:
        domain = self.meta.get("domain")
        return domain if isinstance(domain, str) else None

    @property
    def prefers_border(self) -> bool | None:
        border = self.meta.get("prefersBorder")
        return border if isinstance(border, bool) else None


def missing(uri: str, why: str) -> UiResource:
    """An interface that could not be read: nothing to render, `why` as its finding."""
    return UiResource(uri=uri, findings=[why])


def _decode(item: dict[str, Any], findings: list[str]) -> str | None:
    if isinstance(item.get("text"), str):
        data = item["text"].encode("utf-8", errors="replace")
    elif isinstance(item.get("blob"), str):
        try:
            data = base64.b64decode(item["blob"], validate=True)
        except (binascii.Error, ValueError):
            findings.append("the resource's blob is not valid base64")
            return None
    else:
        findings.append("the resource has neither text nor blob")
        return None
    if len(data) > MAX_HTML_BYTES:
        findings.append(f"the interface is {len(data):,} bytes, over the {MAX_HTML_BYTES:,}-byte limit; not rendered")
        return None
    return data.decode("utf-8", errors="replace")


def from_read_result(uri: str, result: Any, listed: dict[str, Any] | None = None) -> UiResource:
    """Check a `resources/read` result for the interface `uri`. `_meta.ui` comes from the content item,
    else from the `resources/list` entry `listed` (the extension's fallback)."""
    if not uri.startswith(UI_SCHEME):
        return missing(uri, f"the interface URI {uri!r} does not use the ui:// scheme")
    contents = result.get("contents") if isinstance(result, dict) else None
    items = [c for c in contents if isinstance(c, dict)] if isinstance(contents, list) else []
    if not items:
        return missing(uri, f"the server returned no contents for {uri}")
    findings: list[str] = []
    item = next((c for c in items if c.get("uri") == uri), None)
    if item is None:
        item = items[0]
        findings.append(f"no content item has the uri {uri}; the first one ({item.get('uri')!r}) is used")
    if len(items) > 1:
        findings.append(f"{len(items)} content items; only one is rendered")
    mime = item.get("mimeType") if isinstance(item.get("mimeType"), str) else None
    if mime != APP_MIME_TYPE:
        findings.append(f"mime type {mime!r}, expected {APP_MIME_TYPE!r}")
    meta = _ui_meta(item) or _ui_meta(listed)
    html = _decode(item, findings)
    return UiResource(uri=uri, html=html, mime_type=mime, meta=dict(meta), findings=findings)


async def read_ui_resource(
    read: Callable[[str], Awaitable[Any]], uri: str, listed: dict[str, Any] | None = None
) -> UiResource:
    """Read `uri` with `read` (a session's `resources/read`, returning the raw result) and check it; a
    failed read is a `missing` resource saying why."""
    if not uri.startswith(UI_SCHEME):
        return missing(uri, f"the interface URI {uri!r} does not use the ui:// scheme")
    try:
        result = await read(uri)
    except Exception as exc:  # any failure of the read is shown, not raised
        return missing(uri, f"the interface {uri} could not be read: {exc}")
    return from_read_result(uri, result, listed)
