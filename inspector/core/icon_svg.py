"""Make a server's SVG icon safe to hand to a renderer: no scripts, no event handlers, no foreign content,
no reference outside the document (a fetch, or a local file read: Qt's SVG renderer loads an `<image>`
whose href is a plain file path), no DTD (entity expansion), no nested `<use>` fan-out.

The document is parsed and written back from an allow-list: SVG elements and their plain attributes,
`xlink:href` and `xml:space`; anything in another namespace is dropped. What is left only draws.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from inspector.core.icons import IconRefused

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"
MAX_ELEMENTS = 5000
MAX_DEPTH = 64
# Elements that run code, embed other documents or media, or animate (an animation can set an href).
DROPPED = frozenset(
    {
        "script",
        "foreignObject",
        "iframe",
        "embed",
        "object",
        "handler",
        "listener",
        "audio",
        "video",
        "animation",
        "set",
        "animate",
        "animateColor",
        "animateMotion",
        "animateTransform",
        "discard",
    }
)
_INLINE_IMAGE = re.compile(r"^data:image/(png|jpeg|jpg|gif|webp)[;,]", re.IGNORECASE)
_URL = re.compile(r"url\s*\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)


def _split(name: str) -> tuple[str, str]:
    """`{ns}local` → (ns, local); a name without a namespace → ("", name)."""
    if name.startswith("{"):
        ns, _, local = name[1:].partition("}")
        return ns, local
    return "", name


def safe_reference(value: str) -> bool:
    """An href that stays inside the document: a `#fragment` or an inline raster image."""
    value = value.strip()
    return value.startswith("#") or bool(_INLINE_IMAGE.match(value))


def safe_css(text: str) -> bool:
    """CSS (a style attribute or element) without imports, escapes, or `url()` leaving the document."""
    lowered = text.lower()
    if "@import" in lowered or "\\" in text or "expression(" in lowered:
        return False
    return all(target.startswith("#") for target in _URL.findall(text)) and lowered.count("url") == len(
        _URL.findall(text)
    )


def _attributes(element: ET.Element) -> list[tuple[str, str]]:
    kept = []
    for name, value in element.attrib.items():
        ns, local = _split(name)
        if local.lower().startswith("on"):
            continue  # event handler
        if ns == XLINK_NS and local == "href":
            written = "xlink:href"
        elif ns == XML_NS and local == "space":
            written = "xml:space"
        elif ns:
            continue
        else:
            written = local
        if local == "href" and not safe_reference(value):
            continue
        if ("url" in value.lower() or local == "style") and not safe_css(value):
            continue
        kept.append((written, value))
    return kept


def _nested_uses(root: ET.Element) -> set[int]:
    """`<use>` elements that point at something holding another `<use>` (exponential fan-out)."""
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    bad = set()
    for el in root.iter():
        if _split(el.tag)[1] != "use":
            continue
        href = el.get(f"{{{XLINK_NS}}}href") or el.get("href") or ""
        target = by_id.get(href.strip()[1:]) if href.strip().startswith("#") else None
        if target is not None and any(_split(inner.tag)[1] == "use" for inner in target.iter()):
            bad.add(id(el))
    return bad


def sanitize_svg(data: bytes) -> bytes:
    """The drawing part of an SVG document; `IconRefused` if it is not one or is too complex."""
    head = data[:8192].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise IconRefused("the SVG declares a DTD or entities")
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, ValueError) as exc:
        raise IconRefused(f"the SVG does not parse: {exc}") from None
    if _split(root.tag) not in ((SVG_NS, "svg"), ("", "svg")):
        raise IconRefused("the document is not an SVG image")
    count = 0
    for count, _ in enumerate(root.iter(), 1):
        if count > MAX_ELEMENTS:
            raise IconRefused(f"the SVG has more than {MAX_ELEMENTS} elements")
    dropped_uses = _nested_uses(root)
    out: list[str] = []

    def write(element: ET.Element, depth: int) -> None:
        ns, local = _split(element.tag)
        if ns not in ("", SVG_NS) or local in DROPPED or id(element) in dropped_uses:
            return
        if depth > MAX_DEPTH:
            raise IconRefused(f"the SVG nests deeper than {MAX_DEPTH} levels")
        attrs = _attributes(element)
        if local in ("image", "use") and not any(k in ("href", "xlink:href") for k, _ in attrs):
            return  # its reference was removed: nothing left to draw (and no "empty filename" warning)
        if depth == 0:
            attrs = [(k, v) for k, v in attrs if not k.startswith("xmlns")]
            attrs = [("xmlns", SVG_NS), ("xmlns:xlink", XLINK_NS), *attrs]
        out.append(f"<{local}" + "".join(f" {k}={quoteattr(v)}" for k, v in attrs) + ">")
        text = element.text or ""
        if local != "style" or safe_css(text):
            out.append(escape(text))
        for child in element:
            write(child, depth + 1)
            out.append(escape(child.tail or ""))
        out.append(f"</{local}>")

    write(root, 0)
    return "".join(out).encode("utf-8")
