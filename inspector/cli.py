"""Headless mode: ``mcp-lens --cli …``. Never imports Qt.

For speed the stdio server is spawned before any heavy import, so its start-up overlaps ours,
and stdio runs use the lean client (`core/lite.py`) rather than the SDK.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from inspector.cliargs import CliArgs, UsageError, parse

EXIT_USAGE = 2
# Seconds between closing the server's stdin and SIGTERM. The answer is printed by then; servers
# such as server-everything keep a timer alive for ~0.35 s after stdin closes.
CLI_GRACE = 0.05


def _fail(error: dict[str, Any], code: int) -> int:
    sys.stderr.write(json.dumps(error, ensure_ascii=False, default=str) + "\n")
    return code


def _profile(args: CliArgs) -> Any:
    from inspector.config.profile import ServerProfile

    if args.config:
        from inspector.config.formats import choose_server

        profile = choose_server(args.config, args.server)
        profile.env.update(args.env)
        profile.headers.update(args.headers)
        if args.cwd:
            profile.cwd = args.cwd
        return _resolved(profile, args.inputs)
    if args.server_url:
        return ServerProfile(name="cli", transport=args.transport or "http", url=args.server_url, headers=args.headers)
    if args.demo:
        from inspector.demo.launch import demo_argv

        command, *words = demo_argv()
    else:
        command, words = args.target[0], args.target[1:]
    return ServerProfile(name="cli", transport="stdio", command=command, args=words, env=args.env, cwd=args.cwd)


def _resolved(profile: Any, inputs: dict[str, str]) -> Any:
    """The profile with its `${…}` references resolved; `UsageError` names what is missing (never sent as is)."""
    import os

    from inspector.config.references import Unresolved, describe_input, resolve_profile

    try:
        return resolve_profile(profile, os.environ, inputs)
    except Unresolved as exc:
        if exc.inputs:
            named = ", ".join(describe_input(profile, i) for i in exc.inputs)
            flags = " ".join(f"--input {i}=VALUE" for i in exc.inputs)
            more = "".join(f"; {problem}" for problem in exc.problems)
            raise UsageError(f"server {profile.name!r} needs input value(s) for {named}: pass {flags}{more}") from None
        raise UsageError(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parse(argv)
        profile = _profile(args)
    except (UsageError, ValueError) as exc:
        return _fail({"error": "usage", "message": str(exc)}, EXIT_USAGE)
    process = None
    if profile.transport == "stdio":
        from inspector.transports.process import SpawnError

        try:  # start the server now, so its start-up overlaps our imports
            process = spawn_early(profile)
        except SpawnError as exc:
            return _fail({"error": "connection", "message": str(exc)}, 3)
    import asyncio

    from inspector.core.errors import LensError

    try:
        return asyncio.run(_run(args, profile, process))
    except LensError as exc:
        return _fail(exc.to_json(), exc.exit_code)
    except KeyboardInterrupt:
        return _fail({"error": "interrupted", "message": "interrupted by the user"}, 130)


def spawn_early(profile: Any) -> Any:
    """Start a stdio server now, so its start-up overlaps our imports. Raises `SpawnError`.

    Shared with ``mcp-lens tokens`` (tokens_cli.py)."""
    from inspector.transports.process import StdioCommand, spawn

    process = spawn(StdioCommand.from_profile(profile))
    _preload_schema_checker()
    return process


def _preload_schema_checker() -> None:
    """Import jsonschema on a thread while the main thread waits for the server to start."""
    import threading

    def load() -> None:
        import jsonschema.validators  # noqa: F401

    threading.Thread(target=load, name="preload-jsonschema", daemon=True).start()


async def _run(args: CliArgs, profile: Any, process: Any) -> int:
    from inspector.traffic.store import TrafficStore

    store = TrafficStore()
    writer = None
    if args.record:
        from inspector.traffic.jsonl import RecordWriter

        writer = RecordWriter(args.record, meta={"server": profile.redacted().to_entry(), "method": args.method})
        store.subscribe(writer)
    try:
        async with _connect(args, profile, store, process) as conn:
            return await _execute(args, conn)
    finally:
        if writer is not None:
            writer.close()


def _connect(args: CliArgs, profile: Any, store: Any, process: Any) -> Any:
    timeouts = {"connect_timeout": args.connect_timeout, "request_timeout": args.request_timeout}
    if profile.transport == "stdio":
        from inspector.core.lite import LiteConnection
        from inspector.transports.process import StdioCommand
        from inspector.transports.stdio_pipes import StdioPipes

        command = StdioCommand.from_profile(profile)
        # A one-shot run has printed its answer before shutdown; the server gets a short grace.
        conn = LiteConnection(StdioPipes(command, store, process=process, grace=CLI_GRACE), **timeouts)
        conn.relist_on_change = False
        return conn
    from inspector.auth.cli import AuthedConnection, wants_oauth
    from inspector.core.connection import Connection
    from inspector.core.targets import make_transport

    if wants_oauth(profile):  # OAuth through stored tokens; a browser sign-in unless --stored-auth-only
        conn = AuthedConnection(profile, store, stored_only=args.stored_auth_only, **timeouts)
    else:
        conn = Connection(make_transport(profile, store), **timeouts)
    conn.relist_on_change = False
    return conn


async def _execute(args: CliArgs, conn: Any) -> int:
    from inspector.cli_resources import RESOURCE_PROMPT_METHODS, execute
    from inspector.core.errors import ToolFailed

    if args.method in RESOURCE_PROMPT_METHODS:
        return await execute(args, conn, _print)
    if args.method == "initialize":
        _print(args, conn.init, _text_initialize)
    elif args.method == "ping":
        latency = await conn.ping()
        _print(args, {"ok": True, "latency_ms": round(latency, 3)}, lambda r: f"pong in {r['latency_ms']} ms")
    elif args.method == "tools/list":
        listing = await conn.list_tools()
        out: dict[str, Any] = {"tools": listing.tools}
        if listing.findings:
            out["findings"] = [f.to_json() for f in listing.findings]
        _print(args, out, _text_tools)
    else:
        outcome = await conn.call_tool(
            args.tool_name,
            args.tool_args,
            max_total=args.max_timeout,
            check_known=True,
        )
        _print(args, outcome.result, _text_call)
        for finding in outcome.findings:
            sys.stderr.write(json.dumps({"finding": finding.to_json()}) + "\n")
        if outcome.is_error:
            error = ToolFailed(f"tool {args.tool_name!r} returned isError: true")
            return _fail(error.to_json(), error.exit_code)
    return 0


def _print(args: CliArgs, value: Any, text: Any) -> None:
    if args.format == "json":
        sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(text(value).rstrip("\n") + "\n")
    sys.stdout.flush()


def _text_initialize(init: dict[str, Any]) -> str:
    info = init.get("serverInfo") or {}
    lines = [
        f"server: {info.get('name', '?')} {info.get('version', '')}".rstrip(),
        f"protocol: {init.get('protocolVersion')}",
        "capabilities: " + ", ".join(sorted((init.get("capabilities") or {}).keys())),
    ]
    if init.get("instructions"):
        lines.append("instructions: " + str(init["instructions"]))
    return "\n".join(lines)


def _text_tools(out: dict[str, Any]) -> str:
    lines = []
    for tool in out["tools"]:
        if not isinstance(tool, dict):
            continue
        description = " ".join(str(tool.get("description") or "").split())
        lines.append(f"{tool.get('name')}  {description[:100]}".rstrip())
    for finding in out.get("findings", ()):
        lines.append(f"! {finding['path']}: {finding['message']}")
    return "\n".join(lines) or "(no tools)"


def _text_call(result: dict[str, Any]) -> str:
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
