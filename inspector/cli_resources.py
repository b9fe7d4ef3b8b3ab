"""The CLI's resource, prompt and logging methods: options, checks, execution and text output.

Kept apart from `cliargs`/`cli` so they stay small; imports nothing heavy at module level.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from typing import Any

RESOURCE_PROMPT_METHODS = (
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
)
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
_PAIR = re.compile(r"^[^-=\s][^=\s]*=")


def is_pair(word: str) -> bool:
    """A `KEY=VALUE` word (what `--prompt-args` takes several of)."""
    return bool(_PAIR.match(word))


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--uri", help="resource URI for resources/read")
    parser.add_argument("--prompt-name", metavar="NAME", help="prompt for prompts/get")
    parser.add_argument(
        "--prompt-args",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="prompt arguments (strings); several may follow one --prompt-args",
    )
    parser.add_argument("--log-level", choices=LOG_LEVELS, help="level for logging/setLevel")


def read_options(ns: argparse.Namespace, args: Any) -> None:
    """Copy the options into `args` and check that the chosen method has what it needs."""
    from inspector.cliargs import UsageError

    args.uri, args.prompt_name, args.log_level = ns.uri, ns.prompt_name, ns.log_level
    for item in ns.prompt_args:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--prompt-args expects KEY=VALUE, got {item!r}")
        args.prompt_args[key] = value
    needs = {"resources/read": ("uri", "--uri"), "prompts/get": ("prompt_name", "--prompt-name")}
    needs["logging/setLevel"] = ("log_level", "--log-level")
    if args.method in needs:
        attribute, option = needs[args.method]
        if not getattr(args, attribute):
            raise UsageError(f"--method {args.method} needs {option}")


async def execute(args: Any, conn: Any, show: Callable[[Any, Any, Callable[[Any], str]], None]) -> int:
    """Run one of `RESOURCE_PROMPT_METHODS`; `show(args, value, text_formatter)` prints the result.
    Findings go to stderr as JSON lines, as for tools."""
    from inspector.core import prompts, resources

    method = args.method
    findings: list[Any] = []
    if method in ("resources/list", "resources/templates/list", "prompts/list"):
        lister = {
            "resources/list": resources.list_resources,
            "resources/templates/list": resources.list_templates,
            "prompts/list": prompts.list_prompts,
        }[method]
        listing = await lister(conn)
        show(args, listing.to_json(), _TEXT[listing.key])
    elif method == "resources/read":
        outcome = await resources.read_resource(conn, args.uri)
        show(args, outcome.result, text_read)
        findings = outcome.findings
    elif method == "prompts/get":
        got = await prompts.get_prompt(conn, args.prompt_name, args.prompt_args)
        show(args, got.result, text_prompt)
        findings = got.findings
    else:
        await prompts.set_log_level(conn, args.log_level)
        show(args, {"ok": True, "level": args.log_level}, lambda r: f"log level set to {r['level']}")
    import sys

    for finding in findings:
        sys.stderr.write(json.dumps({"finding": finding.to_json()}) + "\n")
    return 0


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
    from inspector.cli import _text_call

    lines = [str(result["description"])] if isinstance(result.get("description"), str) else []
    for message in result.get("messages") or ():
        if isinstance(message, dict):
            body = _text_call({"content": [message.get("content")]})
            lines.append(f"{message.get('role')}: {body}")
    return "\n".join(lines) or "(no messages)"


_TEXT = {"resources": text_resources, "resourceTemplates": text_templates, "prompts": text_prompts}


# -- "copy as command" ------------------------------------------------------------------------------


def cli_options(method: str, params: Any) -> list[str] | None:
    """`--method …` options repeating one of `RESOURCE_PROMPT_METHODS`, or None if the CLI cannot say it."""
    params = params if isinstance(params, dict) else {}
    options = ["--method", method]
    if method == "resources/read":
        if not isinstance(params.get("uri"), str):
            return None
        options += ["--uri", params["uri"]]
    elif method == "prompts/get":
        if not isinstance(params.get("name"), str):
            return None
        options += ["--prompt-name", params["name"]]
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            return None
        for key, value in arguments.items():
            pair = f"{key}={value}"
            if not isinstance(value, str) or not is_pair(pair):
                return None
            options += ["--prompt-args", pair]
    elif method == "logging/setLevel":
        if params.get("level") not in LOG_LEVELS:
            return None
        options += ["--log-level", params["level"]]
    elif method not in RESOURCE_PROMPT_METHODS:
        return None
    return options


def cli_command(target: list[str] | None, method: str, params: Any) -> str | None:
    """A shell-quoted `mcp-lens --cli …` line for the request, placed around `target` as the traffic
    log's "copy as command" places it; None without a target or for what the CLI cannot express."""
    import shlex

    from inspector.traffic.commands import cli_words

    words = cli_words(target or [], method, params)
    return shlex.join(words) if words is not None else None
