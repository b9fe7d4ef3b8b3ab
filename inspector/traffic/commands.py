"""Turn a recorded request into a command a developer can paste into a shell. Pure: no Qt.

Every word goes through `shlex` quoting: method names, tool arguments and header values come
from the traffic and may be hostile (``'; rm -rf ~``); they must stay single shell words.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from typing import Any

from inspector.config.redact import REDACTED
from inspector.traffic.cli_vocabulary import LOG_LEVELS, METHODS, PROGRAM, is_pair
from inspector.traffic.entry import Direction, Entry, Kind

# Set by curl itself, or wrong once the body is edited.
_CURL_SKIP_HEADERS = frozenset({"host", "content-length", "connection", "accept-encoding", "transfer-encoding"})


def request_message(entry: Entry) -> dict[str, Any] | None:
    """The JSON object of an outgoing request, or None for anything else."""
    if entry.direction is not Direction.OUT or entry.kind is not Kind.REQUEST:
        return None
    message = entry.parsed()
    return message if isinstance(message, dict) and isinstance(message.get("method"), str) else None


# -- mcp-lens --cli ------------------------------------------------------------------------------
def cli_words(target: Sequence[str], method: str, params: Any) -> list[str] | None:
    """argv of an `mcp-lens --cli` run repeating this request, or None if the CLI cannot express it.

    A target given as our own options (``--server-url URL``, ``--config F --server S``) goes first;
    a server command goes last after ``--``, so its flags can never be taken for ours. A target may
    hold both: options (e.g. ``-e K=V``), then ``--``, then the command.
    """
    options = method_options(method, params)
    if options is None or not target:
        return None
    if "--" in target:
        cut = list(target).index("--")
        return [*PROGRAM, *target[:cut], *options, *target[cut:]]
    if target[0].startswith("-"):
        return [*PROGRAM, *target, *options]
    return [*PROGRAM, *options, "--", *target]


def method_options(method: str, params: Any) -> list[str] | None:
    """The `--method …` options repeating one request, or None if the CLI cannot express it."""
    if method not in METHODS:
        return None
    given = params if isinstance(params, dict) else {}
    options = ["--method", method]
    if method == "tools/call":
        if not isinstance(given.get("name"), str):
            return None
        options += ["--tool-name", given["name"]]
        arguments = given.get("arguments")
        if arguments is not None and not isinstance(arguments, dict):
            return None
        if arguments:
            options += ["--tool-args-json", json.dumps(arguments, ensure_ascii=False, separators=(",", ":"))]
    elif method == "resources/read":
        if not isinstance(given.get("uri"), str):
            return None
        options += ["--uri", given["uri"]]
    elif method == "prompts/get":
        prompt = _prompt_options(given)
        if prompt is None:
            return None
        options += prompt
    elif method == "logging/setLevel":
        if given.get("level") not in LOG_LEVELS:
            return None
        options += ["--log-level", given["level"]]
    elif method in ("tasks/get", "tasks/cancel"):
        if not isinstance(given.get("taskId"), str):
            return None
        options += ["--task-id", given["taskId"]]
    elif method == "skills/get":
        if not isinstance(given.get("uri"), str):
            return None
        options += ["--skill", given["uri"]]
    return options


def _prompt_options(params: dict[str, Any]) -> list[str] | None:
    if not isinstance(params.get("name"), str):
        return None
    options = ["--prompt-name", params["name"]]
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        return None
    for key, value in arguments.items():
        if not isinstance(value, str) or not is_pair(f"{key}={value}"):
            return None
        options += ["--prompt-args", f"{key}={_prompt_word(value)}"]
    return options


def _prompt_word(value: str) -> str:
    """`value` as a `--prompt-args` word: the CLI JSON-coerces it and sends the result as a string (as the
    official CLI does), so a value that coercion would change (``007``, ``"x"``) goes JSON-quoted."""
    try:
        coerced = json.loads(value)
    except ValueError:
        return value
    if isinstance(coerced, str) and coerced == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def cli_line(target: Sequence[str] | None, method: str, params: Any) -> str | None:
    """A shell-quoted `mcp-lens --cli …` line repeating `method` with `params` against `target`; None
    without a target or for what the CLI cannot express."""
    words = cli_words(target or [], method, params)
    return shlex.join(words) if words is not None else None


def cli_command(target: Sequence[str] | None, entry: Entry) -> str | None:
    """`mcp-lens --cli …` for an outgoing request the CLI can send (tools, resources, prompts, ping…)."""
    message = request_message(entry)
    if message is None or not target:
        return None
    return cli_line(target, message["method"], message.get("params"))


# -- curl ----------------------------------------------------------------------------------------
def http_request_of(entry: Entry, by_seq: Callable[[int], Entry | None]) -> Entry | None:
    """The recorded HTTP request behind `entry`: itself, or the request its `http.request_seq` names."""
    http = entry.http
    if not http:
        return None
    if isinstance(http.get("url"), str):
        return entry
    request_seq = http.get("request_seq")
    request = by_seq(request_seq) if isinstance(request_seq, int) else None
    if request is not None and request.http and isinstance(request.http.get("url"), str):
        return request
    return None


def _heredoc_tag(body: str) -> str:
    lines = set(body.split("\n"))
    tag, n = "EOF", 0
    while tag in lines:
        n += 1
        tag = f"EOF_{n}"
    return tag


def curl_command(http: dict[str, Any], body: bytes) -> str:
    """A curl command line repeating an HTTP request recorded by the tap.

    Secrets were redacted when recorded (`<redacted>`: headers, the URL's query values, known secret
    values anywhere); they stay redacted here, with a comment asking the user to fill them in.
    """
    method = str(http.get("method") or "POST")
    lines: list[str] = []
    url = str(http.get("url", ""))
    redacted: list[str] = ["the URL"] if REDACTED in url else []
    words = ["curl"] + (["-X", method] if method != "GET" or body else []) + [url]
    parts = [shlex.join(words)]
    for pair in http.get("headers") or ():
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            continue
        name, value = str(pair[0]), str(pair[1])
        if name.lower() in _CURL_SKIP_HEADERS:
            continue
        if REDACTED in value:
            redacted.append(name)
        parts.append("-H " + shlex.quote(f"{name}: {value}"))
    text = body.decode("utf-8", errors="replace")
    if REDACTED in text:
        redacted.append("the body")
    if redacted:
        names = ", ".join(redacted)
        lines.append(f"# {names}: redacted when recorded; replace {REDACTED} with your own token before running.")
    if text != body.decode("utf-8", errors="ignore"):
        lines.append("# The body was not valid UTF-8; undecodable bytes were replaced by U+FFFD.")
    heredoc: list[str] = []
    if body:
        if "\n" in text or "\r" in text:
            tag = _heredoc_tag(text)
            parts.append(f"--data-binary @- <<'{tag}'")
            heredoc = [text, tag]
        else:
            parts.append("--data-binary " + shlex.quote(text))
    lines.append(" \\\n  ".join(parts))
    return "\n".join(lines + heredoc)


def curl_for_entry(entry: Entry, by_seq: Callable[[int], Entry | None]) -> str | None:
    """curl for the HTTP request behind `entry` (a request, or a response or SSE event of one)."""
    request = http_request_of(entry, by_seq)
    if request is None or request.http is None:
        return None
    body = b"" if request.kind is Kind.HTTP_META else request.raw
    return curl_command(request.http, body)
