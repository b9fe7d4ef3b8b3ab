"""Reaching the server a command line names: its profile, an early start, and the connection.

Shared by ``mcp-lens --cli`` and ``mcp-lens tokens``. A stdio server is spawned before any heavy
import, so its start-up overlaps ours, and stdio runs use the lean client (`core/lite.py`) rather than
the SDK; so do Streamable HTTP runs without a proxy or OAuth up front (`http_lean.py`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from inspector.cli.args import CliArgs, UsageError
from inspector.transports.kinds import DEFAULT_URL_KIND
from inspector.words import noun

if TYPE_CHECKING:
    from inspector.core.open_connection import UnopenedConnection

# Seconds between closing the server's stdin and SIGTERM. The answer is printed by then; servers
# such as server-everything keep a timer alive for ~0.35 s after stdin closes.
CLI_GRACE = 0.05


def profile_of(args: CliArgs) -> Any:
    """The `ServerProfile` of the target: from --config, --server-url, --demo or a command, in the
    era --protocol-era / --protocol-version ask for. Raises `UsageError` (or `ValueError` for a bad config file)."""
    profile = _profile_of(args)
    if args.protocol_era:
        profile.protocol_era = args.protocol_era
    for name, value in args.oauth.items():  # --oauth-* and --dpop: over what a --config entry says
        setattr(profile, name, value)
    return profile


def _profile_of(args: CliArgs) -> Any:
    from inspector.config.profile import ServerProfile

    if args.config:
        from inspector.config.formats import choose_server
        from inspector.content.visible import visible

        notes: list[str] = []
        profile = choose_server(args.config, args.server, notes)
        for note in notes:  # a damaged file read for what is intact: what was left out, by line
            sys.stderr.write(f"{visible(note)}\n")
        profile.env.update(args.env)
        profile.headers.update(args.headers)
        if args.cwd:
            profile.cwd = args.cwd
        return _resolved(profile, args.inputs)
    # Named as the app names the same server (a host's tool prefix, a collection's step, a report use it).
    from inspector.config.naming import command_name, url_name
    from inspector.transports.kinds import TRANSPORT_KINDS

    wanted = TRANSPORT_KINDS[args.transport].needs if args.transport else None
    if wanted == "url" and not args.server_url:
        raise UsageError(f"--transport {args.transport} applies to a server URL, not to a command")
    if wanted is not None and wanted != "url" and args.server_url:
        raise UsageError(f"--transport {args.transport} applies to a command, not to a server URL")
    if args.server_url:
        from inspector.config.profile import _infer_http_transport  # the import dialog's rule: …/sse is SSE

        # as the official CLI: a URL ending in /sse is legacy SSE, any other Streamable HTTP
        transport = args.transport or _infer_http_transport(args.server_url) or DEFAULT_URL_KIND
        name = url_name(args.server_url)
        return ServerProfile(name=name, transport=transport, url=args.server_url, headers=args.headers)
    if args.demo:
        from inspector.demo.launch import demo_profile

        profile = demo_profile()
        profile.env, profile.cwd = dict(args.env), args.cwd
        return profile
    command, words = args.target[0], args.target[1:]
    name = command_name(command, words)
    return ServerProfile(name=name, transport="stdio", command=command, args=words, env=args.env, cwd=args.cwd)


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
            values = noun(len(exc.inputs), "value")
            raise UsageError(f"server {profile.name!r} needs input {values} for {named}: pass {flags}{more}") from None
        raise UsageError(str(exc)) from None


def spawn_early(profile: Any) -> Any:
    """Start a stdio server now, so its start-up overlaps our imports. Raises `SpawnError`."""
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


def connect(args: CliArgs, profile: Any, store: Any, process: Any) -> UnopenedConnection:
    """An unopened connection (``async with`` it): the lean client for stdio and for Streamable HTTP
    where it applies, else the SDK's for a URL, with OAuth through stored tokens (a browser sign-in
    unless --stored-auth-only)."""
    from inspector.core.input_required import file_handlers

    # A 2026-07-28 server's input requests are answered from --input-responses; none given, the run fails
    # with exit 12 naming what was asked. The client declares what such a file can answer.
    handlers = file_handlers(args.input_responses)
    timeouts = {
        "connect_timeout": args.connect_timeout,
        "request_timeout": args.request_timeout,
        "era": profile.protocol_era,
    }
    if profile.transport == "stdio":
        from inspector.core.open_connection import open_connection

        # A one-shot run has printed its answer before shutdown; the server gets a short grace.
        return open_connection(
            profile,
            store,
            lean=True,
            process=process,
            grace=CLI_GRACE,
            handlers=handlers,
            relist_on_change=False,
            **timeouts,
        )
    from inspector.transports.http_profile import USERINFO_DROPPED, without_overridden_userinfo

    headers = {**profile.headers, **({"Authorization": ""} if profile.bearer_token else {})}
    if without_overridden_userinfo(profile.url, headers) is not None:
        sys.stderr.write(f"mcp-lens: {USERINFO_DROPPED}\n")
    from inspector.cli.http_lean import LeanHttp, lean_http_applies

    if lean_http_applies(profile):  # no httpx, SDK or OAuth stack unless a 401 asks for it
        return LeanHttp(profile, store, stored_only=args.stored_auth_only, handlers=handlers, **timeouts)
    from inspector.auth.cli import AuthedConnection, wants_oauth

    if wants_oauth(profile):
        conn = AuthedConnection(profile, store, stored_only=args.stored_auth_only, handlers=handlers, **timeouts)
        conn.relist_on_change = False
        return conn
    from inspector.core.open_connection import open_connection

    return open_connection(profile, store, lean=False, handlers=handlers, relist_on_change=False, **timeouts)
