"""How the CLI prints: a result as JSON (``--format json``, the default) or as text, and an error as
one JSON line on stderr. Server-sent strings are printed as they are, except that nothing a terminal
would obey reaches it: control, bidi and invisible characters are written as escapes (``\x1b``,
``\u202e``; in JSON ``\u001b``, ``\u202e``), newlines and tabs of text kept (`inspector.content.visible`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from inspector.content.visible import json_visible, json_visible_pieces, terminal_safe, visible
from inspector.core.findings import with_expected
from inspector.words import counted

TextFormatter = Callable[[Any], str]


class TerminalGuard:
    """A text stream that writes through `terminal_safe`: whatever path a server's string takes to
    stdout or stderr, a terminal never receives an escape sequence, NUL or bidi control from it."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer, …
        return getattr(self.stream, name)


@contextmanager
def guarded_terminal() -> Iterator[None]:
    """Within: sys.stdout and sys.stderr go through `TerminalGuard` (restored after)."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalGuard(saved[0]), TerminalGuard(saved[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def fail(error: dict[str, Any], code: int) -> int:
    """Print `error` as one JSON line on stderr; returns `code` (the exit code)."""
    sys.stderr.write(json_visible(error, default=str) + "\n")
    return code


def finding_lines(findings: list[Any]) -> None:
    """Conformance findings go to stderr as JSON lines, after the result."""
    for finding in findings:
        sys.stderr.write(json.dumps({"finding": finding.to_json()}) + "\n")


def show(args: Any, value: Any, text: TextFormatter) -> None:
    """Print `value` as JSON, or through `text` with ``--format text``."""
    if args.format == "json":
        write_pieces(sys.stdout, json_visible_pieces(value, indent=2))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(visible(text(value).rstrip("\n")) + "\n")
    sys.stdout.flush()


WRITE_BYTES = 1 << 20  # printed in writes of about this many characters


def write_pieces(stream: TextIO, pieces: Iterable[str]) -> None:
    """Write `pieces` (JSON text: no raw CR to keep beside its LF) in writes of about `WRITE_BYTES`: small
    pieces gathered, a huge one (a 50 MB string) sliced, so no second copy of the whole text is encoded."""
    batch: list[str] = []
    size = 0
    for piece in pieces:
        if len(piece) > WRITE_BYTES:
            stream.write("".join(batch))
            batch, size = [], 0
            for start in range(0, len(piece), WRITE_BYTES):
                stream.write(piece[start : start + WRITE_BYTES])
            continue
        batch.append(piece)
        size += len(piece)
        if size >= WRITE_BYTES:
            stream.write("".join(batch))
            batch, size = [], 0
    stream.write("".join(batch))


def text_initialize(init: dict[str, Any]) -> str:
    info = init.get("serverInfo") or {}
    lines = [
        f"server: {info.get('name', '?')} {info.get('version', '')}".rstrip(),
        f"protocol: {init.get('protocolVersion')}",
        "capabilities: " + ", ".join(sorted((init.get("capabilities") or {}).keys())),
    ]
    if init.get("instructions"):
        lines.append("instructions: " + str(init["instructions"]))
    return "\n".join(lines)


def text_ping(out: dict[str, Any]) -> str:
    return f"pong in {out['latency_ms']} ms"


def text_tools(out: dict[str, Any]) -> str:
    lines = []
    for tool in out["tools"]:
        if not isinstance(tool, dict):
            continue
        description = " ".join(str(tool.get("description") or "").split())
        lines.append(f"{tool.get('name')}  {description[:100]}".rstrip())
    return "\n".join(lines + _findings_text(out)) or "(no tools)"


def text_call(result: dict[str, Any]) -> str:
    lines = []
    for block in result.get("content") or ():
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            lines.append(str(block.get("text", "")))
        elif kind in ("image", "audio"):
            size = len(str(block.get("data", ""))) * 3 // 4
            lines.append(f"[{kind} {block.get('mimeType')}, about {size} bytes]")
        elif kind == "resource_link":
            lines.append(f"[resource link {block.get('uri')}]")
        elif kind == "resource":
            resource = block.get("resource") or {}
            lines.append(f"[resource {resource.get('uri')}]\n{resource.get('text', '')}".rstrip())
        else:
            lines.append(f"[unknown content block {kind!r}]")
    if result.get("structuredContent") is not None:
        lines.append("structuredContent: " + json.dumps(result["structuredContent"], ensure_ascii=False))
    return "\n".join(lines)


def _one_line(value: Any, limit: int = 100) -> str:
    return " ".join(str(value or "").split())[:limit]


def _findings_text(out: dict[str, Any]) -> list[str]:
    return [f"! {f['path']}: {f['message']}" for f in out.get("findings", ())]


def text_resources(out: dict[str, Any]) -> str:
    lines = [
        f"{r.get('uri')}  {r.get('mimeType') or ''}  {_one_line(r.get('title') or r.get('name'))}".rstrip()
        for r in out["resources"]
        if isinstance(r, dict)
    ]
    return "\n".join(lines + _findings_text(out)) or "(no resources)"


def text_templates(out: dict[str, Any]) -> str:
    lines = [
        f"{t.get('uriTemplate')}  {_one_line(t.get('title') or t.get('name'))}".rstrip()
        for t in out["resourceTemplates"]
        if isinstance(t, dict)
    ]
    return "\n".join(lines + _findings_text(out)) or "(no resource templates)"


def text_prompts(out: dict[str, Any]) -> str:
    lines = []
    for prompt in out["prompts"]:
        if not isinstance(prompt, dict):
            continue
        arguments = prompt.get("arguments") if isinstance(prompt.get("arguments"), list) else []
        names = [f"{a.get('name')}{'*' if a.get('required') else ''}" for a in arguments if isinstance(a, dict)]
        shown = f"({', '.join(names)})" if names else ""
        lines.append(f"{prompt.get('name')}{shown}  {_one_line(prompt.get('description'))}".rstrip())
    return "\n".join(lines + _findings_text(out)) or "(no prompts)"


def text_read(result: dict[str, Any]) -> str:
    lines = []
    for item in result.get("contents") or ():
        if not isinstance(item, dict):
            continue
        head = f"[{item.get('uri')} {item.get('mimeType') or ''}]".replace(" ]", "]")
        if isinstance(item.get("text"), str):
            lines.append(f"{head}\n{item['text']}".rstrip())
        else:
            size = len(str(item.get("blob", ""))) * 3 // 4
            lines.append(f"{head} blob, about {size} bytes")
    return "\n".join(lines) or "(no contents)"


def text_prompt(result: dict[str, Any]) -> str:
    lines = [str(result["description"])] if isinstance(result.get("description"), str) else []
    for message in result.get("messages") or ():
        if isinstance(message, dict):
            body = text_call({"content": [message.get("content")]})
            lines.append(f"{message.get('role')}: {body}")
    return "\n".join(lines) or "(no messages)"


def text_skills(out: dict[str, Any]) -> str:
    lines = []
    for entry in out.get("skills") or ():
        front = entry.get("frontmatter") if isinstance(entry, dict) else None
        front = front if isinstance(front, dict) else {}
        files = entry.get("resources") if isinstance(entry, dict) else None
        if isinstance(files, list):
            total = sum(f.get("size") or 0 for f in files if isinstance(f, dict) and isinstance(f.get("size"), int))
            size = f"{counted(len(files), 'file')}, {total:,} bytes"
        else:
            size = "dynamic" if files == "dynamic" else "no resources"
        lines.append(f"{front.get('name')}  {entry.get('uri') if isinstance(entry, dict) else entry}  ({size})")
        if isinstance(front.get("description"), str):
            lines.append(f"    {_one_line(front['description'])}")
    if out.get("cache"):
        lines.append(f"cache: {out['cache']}")
    return "\n".join([*(lines or ["(no skills)"]), *_findings_text(out)])


def text_skill(out: dict[str, Any]) -> str:
    skill_md = out.get("SKILL.md") or {}
    lines = [f"{skill_md.get('uri')}: {skill_md.get('status')}"]
    for finding in skill_md.get("findings") or ():
        said = with_expected(str(finding.get("message")), str(finding.get("expected") or ""))
        lines.append(f"  {finding.get('severity')}: {said}")
    if isinstance(skill_md.get("text"), str):
        lines.append(skill_md["text"].rstrip())
    return "\n".join(lines)


def text_log_level(out: dict[str, Any]) -> str:
    return f"log level set to {out['level']}"


LISTING_TEXT: dict[str, TextFormatter] = {
    "resources": text_resources,
    "resourceTemplates": text_templates,
    "prompts": text_prompts,
}
