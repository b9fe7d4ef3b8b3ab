"""Skills (SEP-2640) checked against their entries: an entry's shape and limits, a file's size and
SHA-256 digest, a SKILL.md's frontmatter. Pure functions returning findings; nothing here trusts a
server, and nothing is called verified that was not checked byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any
from urllib.parse import unquote

from inspector.core.findings import Finding
from inspector.core.frontmatter import split
from inspector.core.paging import type_name

MAX_FILES = 512  # resources per skill, SKILL.md included
MAX_TOTAL_BYTES = 16 * 1024 * 1024  # the sum of `size` over a skill's resources
MAX_DESCRIPTION = 1024  # the Agent Skills specification's limit on `description`
DYNAMIC = "dynamic"
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
WINDOWS_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"{kind}{n}" for kind in ("COM", "LPT") for n in range(1, 10))}
WINDOWS_RESERVED = set('<>:"|?*\\')


def digest_of(raw: bytes) -> str:
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def skill_name(uri: str) -> str | None:
    """The skill's name from its SKILL.md URI (the segment before `/SKILL.md`), or None."""
    if "://" not in uri:
        return None
    parts = [part for part in uri.split("://", 1)[1].split("/") if part]
    return parts[-2] if len(parts) >= 2 and parts[-1] == "SKILL.md" else None


def file_name_problem(uri: str, root: str | None) -> str | None:
    """Why a listed file's name is unsafe to write under the skill's directory (a `..` segment, an absolute
    path, a control character such as NUL, a Windows device name or reserved character), or None."""
    if root is None or not uri.startswith(root):
        return None  # outside the directory: its own finding
    relative = unquote(uri[len(root) :])
    if not relative or relative.startswith("/") or "//" in relative:
        return "an absolute path or an empty segment"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in relative):
        return "a control character (NUL or another)" if "\x00" not in relative else "a NUL character"
    if reserved := sorted(set(relative) & WINDOWS_RESERVED):
        return f"the character {reserved[0]!r}, reserved on Windows"
    for segment in relative.split("/"):
        if segment in {".", ".."}:
            return f"a {segment!r} segment, which climbs out of the skill's directory"
        if segment.split(".", 1)[0].rstrip(" ").upper() in WINDOWS_DEVICES:
            return f"the Windows device name {segment!r:.40}"
        if segment.endswith((" ", ".")):
            return f"the segment {segment!r:.40} ending in a space or dot (Windows drops it)"
    return None


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr)[:120]


def check_entry(entry: Any, path: str) -> list[Finding]:
    """One `Skill` entry: uri, frontmatter (name, description), resources (complete array or "dynamic"),
    each file's digest and size, the spec's per-skill limits."""
    if not isinstance(entry, dict):
        return [Finding(f"skill entry is {type_name(entry)}", path, "an object with uri, frontmatter, resources")]
    findings: list[Finding] = []
    uri = entry.get("uri")
    if not isinstance(uri, str) or not uri:
        findings.append(
            Finding(f"uri is {_shown(uri) if 'uri' in entry else 'missing'}", f"{path}.uri", "a SKILL.md URI")
        )
        uri = None
    elif skill_name(uri) is None:
        findings.append(
            Finding(f"uri {uri!r:.100} does not end in /SKILL.md", f"{path}.uri", "scheme://<skill-path>/SKILL.md")
        )
    findings += _check_frontmatter_object(entry.get("frontmatter"), uri, f"{path}.frontmatter", "frontmatter" in entry)
    resources = entry.get("resources")
    where = f"{path}.resources"
    if resources == DYNAMIC:
        findings.append(
            Finding(
                'resources is "dynamic": no digests, so nothing read can be verified',
                where,
                "an array of files with digests",
                "warning",
            )
        )
    elif not isinstance(resources, list):
        shown = "missing" if "resources" not in entry else f"{type_name(resources)} {_shown(resources)}"
        findings.append(
            Finding(f"resources is {shown}; a host must not load this skill", where, 'an array of files or "dynamic"')
        )
    else:
        findings += _check_files(resources, uri, where)
    return findings


def _check_frontmatter_object(front: Any, uri: str | None, path: str, present: bool) -> list[Finding]:
    if not isinstance(front, dict):
        shown = type_name(front) if present else "missing"
        return [Finding(f"frontmatter is {shown}", path, "the SKILL.md frontmatter as an object")]
    findings = []
    for key in ("name", "description"):
        value = front.get(key)
        if not isinstance(value, str) or not value:
            shown = "missing" if key not in front else f"{type_name(value)} {_shown(value)}"
            findings.append(Finding(f"{key} is {shown}", f"{path}.{key}", "a non-empty string"))
    name = front.get("name")
    if isinstance(name, str) and name:
        if len(name) > 64 or not NAME.match(name):
            findings.append(
                Finding(
                    f"name {name!r:.80} breaks the naming rules",
                    f"{path}.name",
                    "1-64 lowercase letters, digits and single hyphens, no hyphen at either end",
                )
            )
        expected = skill_name(uri) if uri else None
        if expected is not None and expected != name:
            findings.append(
                Finding(
                    f"name {name!r:.80} is not the URI's last segment {expected!r:.80}",
                    f"{path}.name",
                    f"{expected!r:.80}",
                )
            )
    description = front.get("description")
    if isinstance(description, str) and len(description) > MAX_DESCRIPTION:
        findings.append(
            Finding(
                f"description is {len(description):,} characters",
                f"{path}.description",
                f"at most {MAX_DESCRIPTION:,}",
                "warning",
            )
        )
    metadata = front.get("metadata")
    if isinstance(metadata, dict):
        for key in metadata:
            if isinstance(key, str) and key.startswith("io.modelcontextprotocol/"):
                findings.append(
                    Finding(
                        f"metadata key {key!r:.80} uses the reserved prefix",
                        f"{path}.metadata",
                        "no io.modelcontextprotocol/ keys (none is defined)",
                        "warning",
                    )
                )
    return findings


def _check_files(resources: list[Any], uri: str | None, path: str) -> list[Finding]:
    findings: list[Finding] = []
    seen: dict[str, int] = {}
    total = 0
    root = uri[: -len("SKILL.md")] if uri and uri.endswith("/SKILL.md") else None
    for index, item in enumerate(resources):
        where = f"{path}[{index}]"
        if not isinstance(item, dict):
            findings.append(Finding(f"file is {type_name(item)}", where, "an object with uri, digest, size"))
            continue
        file_uri = item.get("uri")
        if not isinstance(file_uri, str) or not file_uri:
            findings.append(Finding("file has no uri", f"{where}.uri", "a non-empty string"))
        else:
            if file_uri in seen:
                findings.append(
                    Finding(f"{file_uri!r:.100} is listed twice (also at {seen[file_uri]})", where, "each file once")
                )
            seen.setdefault(file_uri, index)
            if root is not None and not file_uri.startswith(root):
                findings.append(
                    Finding(
                        f"{file_uri!r:.100} is outside the skill's directory",
                        f"{where}.uri",
                        f"a URI under {root!r:.100}",
                    )
                )
            elif problem := file_name_problem(file_uri, root):
                findings.append(
                    Finding(
                        f"{file_uri!r:.100} has {problem}; a host must not write or read it",
                        f"{where}.uri",
                        "a relative path under the skill's directory: no '..', no leading '/', no control "
                        "characters, no Windows device names",
                    )
                )
        digest = item.get("digest")
        if not isinstance(digest, str) or not DIGEST.match(digest):
            shown = "missing" if "digest" not in item else _shown(digest)
            findings.append(Finding(f"digest is {shown}", f"{where}.digest", "sha256: and 64 lowercase hex digits"))
        size = item.get("size")
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            shown = "missing" if "size" not in item else _shown(size)
            findings.append(Finding(f"size is {shown}", f"{where}.size", "the file's length in bytes"))
        else:
            total += size
    if uri is not None and uri not in seen:
        findings.append(
            Finding("SKILL.md itself is not listed", path, f"an entry for {uri!r:.100} with its digest and size")
        )
    if len(resources) > MAX_FILES:
        findings.append(
            Finding(f"{len(resources):,} files", path, f"at most {MAX_FILES} files per skill (the spec's limit)")
        )
    if total > MAX_TOTAL_BYTES:
        findings.append(
            Finding(
                f"{total:,} bytes in all",
                path,
                f"at most {MAX_TOTAL_BYTES:,} bytes per skill (16 MiB, the spec's limit)",
            )
        )
    return findings


def check_file(raw: bytes, listed: dict[str, Any] | None, uri: str) -> list[Finding]:
    """A read file's raw bytes against its entry in the skill's `resources`: size first, then digest.
    An unlisted file is a verification failure as a mismatch is."""
    if listed is None:
        return [
            Finding(
                f"{uri!r:.100} is not listed in the skill's resources",
                "$",
                "a file the entry lists (an unlisted file is a verification failure)",
            )
        ]
    findings = []
    size, digest = listed.get("size"), listed.get("digest")
    if isinstance(size, int) and not isinstance(size, bool) and size != len(raw):
        findings.append(
            Finding(f"size mismatch: the entry says {size:,} bytes, {len(raw):,} came", "$.size", f"{size:,} bytes")
        )
    got = digest_of(raw)
    if isinstance(digest, str) and digest != got:
        findings.append(Finding(f"digest mismatch: expected {digest}, got {got}", "$.digest", digest))
    if not isinstance(digest, str) or not DIGEST.match(digest):
        findings.append(
            Finding(
                "the entry carries no usable digest: the content cannot be verified", "$.digest", "a sha256: digest"
            )
        )
    return findings


def check_skill_md(text: str | None, entry_frontmatter: Any) -> tuple[dict[str, Any] | None, str, list[Finding]]:
    """A SKILL.md's frontmatter parsed and compared field by field with the entry's: (fields, body, findings)."""
    if text is None:
        return None, "", [Finding("SKILL.md is not UTF-8 text", "$", "a Markdown file with YAML frontmatter")]
    front = split(text)
    if front.fields is None:
        return (
            None,
            front.body,
            [Finding(front.problem or "no frontmatter", "$.frontmatter", "YAML frontmatter with name and description")],
        )
    findings = []
    for key in ("name", "description"):
        value = front.fields.get(key)
        if not isinstance(value, str) or not value:
            shown = "missing" if key not in front.fields else _shown(value)
            findings.append(Finding(f"SKILL.md's {key} is {shown}", f"$.frontmatter.{key}", "a non-empty string"))
    if isinstance(entry_frontmatter, dict):
        for key in sorted(set(front.fields) | set(entry_frontmatter), key=str):
            entry_value, file_value = entry_frontmatter.get(key), front.fields.get(key)
            if key not in front.fields or key not in entry_frontmatter or entry_value != file_value:
                said = _shown(entry_value) if key in entry_frontmatter else "(absent)"
                came = _shown(file_value) if key in front.fields else "(absent)"
                findings.append(
                    Finding(
                        f"frontmatter {key!r:.60} differs: the entry says {said}, the file says {came}",
                        f"$.frontmatter.{key}",
                        "the entry's frontmatter, field for field",
                    )
                )
    return front.fields, front.body, findings


def cache_words(result: Any) -> str:
    """A 2026-07-28 result's valid `resultType`, `ttlMs` and `cacheScope` in words; '' when it carries none.
    An invalid one is not said here: it is a finding (`check_cache`)."""
    if not isinstance(result, dict):
        return ""
    parts = []
    if result.get("resultType") == "complete":
        parts.append("a complete result (resultType complete)")
    ttl = result.get("ttlMs")
    if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0:
        parts.append("not to be reused (ttlMs 0)" if ttl == 0 else f"fresh for {_duration(ttl)} (ttlMs {ttl})")
    scope = result.get("cacheScope")
    if scope == "public":
        parts.append("shareable between users (cacheScope public)")
    elif scope == "private":
        parts.append("for this user only (cacheScope private)")
    return "; ".join(parts)


def check_cache(result: Any, path: str = "$") -> list[Finding]:
    """A result's `resultType`, `ttlMs` and `cacheScope` where present and not what the 2026-07-28 era allows."""
    if not isinstance(result, dict):
        return []
    findings = []
    kind = result.get("resultType")
    if kind is not None and kind != "complete":
        findings.append(Finding(f"resultType {_shown(kind)}: not a complete result", f"{path}.resultType", "complete"))
    ttl = result.get("ttlMs")
    if "ttlMs" in result and not (isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0):
        findings.append(
            Finding(f"ttlMs {_shown(ttl)} is not a non-negative integer", f"{path}.ttlMs", "milliseconds, 0 or more")
        )
    scope = result.get("cacheScope")
    if "cacheScope" in result and scope not in ("public", "private"):
        findings.append(
            Finding(
                f"cacheScope {_shown(scope)} is neither public nor private", f"{path}.cacheScope", "public or private"
            )
        )
    return findings


def _duration(ms: int) -> str:
    seconds = ms / 1000
    if seconds < 120:
        return f"{seconds:g} s"
    return f"{seconds / 60:g} min" if seconds < 7200 else f"{seconds / 3600:g} h"
