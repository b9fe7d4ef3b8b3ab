"""How ``mcp-lens run`` reaches each step's server: the values of a collection's ``${NAME}`` references,
and the opener that gives a step's server an unopened connection (`cli/connect.py`): the target on the
command line, a saved profile, the server as the collection recorded it, or the demo. The Collections
tab's Run all reaches a server that is not connected the same way (`profile_opener`)."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from inspector.cli.args import CliArgs, UsageError
from inspector.content.visible import visible


def reference_answers(args: CliArgs, collection: Any) -> dict[str, str]:
    """The values of the collection's ``${NAME}`` references: `--input NAME=VALUE` first, then the
    environment, then the saved profiles of its servers (the names `secret_references` gives their secrets)."""
    from inspector.checks.secret_references import reference_values
    from inspector.config.references import Unresolved, resolve_profile
    from inspector.config.store import ProfileStore

    store = ProfileStore()
    try:
        store.load()
    except (OSError, ValueError):
        return {**os.environ, **args.inputs}
    names = [args.server] if args.server else [step.server for step in collection.steps]
    profiles = []
    for name in dict.fromkeys(n for n in names if n and n in store):
        with suppress(Unresolved):
            profiles.append(resolve_profile(store.get(name), os.environ, args.inputs))
    return {**reference_values(profiles), **os.environ, **args.inputs}


def opener_of(
    args: CliArgs, recorded: Mapping[str, Any] | None = None, values: Mapping[str, str] | None = None
) -> tuple[Any, bool]:
    """(a function from a step's server name and a traffic store to an unopened connection, whether
    every step goes to one server). A name that is no saved profile is reached as the collection
    recorded it (`recorded`, its references filled from `values`), or is the demo."""
    from inspector.cli.connect import connect, profile_of

    if args.target or args.server_url or args.config or args.demo:
        profile = profile_of(args)
        return (lambda _name, store: connect(args, profile, store, None)), True
    if args.server:  # no --config: a saved profile's name
        chosen = saved_profile(args.server, recorded, values)
        return (lambda _name, store: connect(args, chosen, store, None)), True
    return (lambda name, store: connect(args, saved_profile(name, recorded, values), store, None)), False


def profile_opener(known: Mapping[str, Any]) -> Any:
    """For the app: each step's server connected as this command connects it (stored OAuth tokens only,
    never a browser), by the profile `known` holds under its name (``${…}`` resolved), else the saved one."""
    from inspector.cli.connect import connect
    from inspector.config.references import Unresolved, resolve_profile

    args = CliArgs(stored_auth_only=True)

    def open_step(name: str, store: Any) -> Any:
        if name not in known:
            return connect(args, saved_profile(name), store, None)
        try:
            return connect(args, resolve_profile(known[name], os.environ, {}), store, None)
        except Unresolved as exc:
            raise UsageError(str(exc)) from None

    return open_step


def saved_profile(name: str, recorded: Mapping[str, Any] | None = None, values: Mapping[str, str] | None = None) -> Any:
    """The saved server profile `name`, else the server as the collection recorded it (`recorded`), else
    the demo by its name; its ``${…}`` references resolved (from `values`, else the environment).
    `UsageError` if none of them, or if the recorded entry holds `<redacted>` (never sent)."""
    from inspector.checks.runner import refused_redacted
    from inspector.checks.secret_references import redacted_fields
    from inspector.config.profile import ProfileError, ServerProfile
    from inspector.config.references import Unresolved, resolve_profile
    from inspector.config.store import ProfileStore
    from inspector.demo.launch import demo_profile

    if not name:
        raise UsageError("a step names no server: pass --server NAME or a target")
    store = ProfileStore()
    store.load()
    if name in store:
        profile = store.get(name)
    elif recorded and name in recorded:
        if hidden := redacted_fields(recorded[name]):
            raise UsageError(f"the collection's entry for server {name!r}: {refused_redacted(hidden)}")
        try:
            profile = ServerProfile.from_entry(name, recorded[name], source="the collection's servers")
        except ProfileError as exc:
            raise UsageError(f"the collection's entry for {name!r} is not a server: {exc}") from None
        how = profile.url if profile.transport != "stdio" else shlex.join([profile.command, *profile.args])
        # said, since the file (not a profile the user saved) names what is started
        sys.stderr.write(f"{name}: no saved profile; reached as the collection records it: {visible(how)}\n")
    elif name == demo_profile().name:
        profile = demo_profile()
    else:
        known = ", ".join(store.names()) or "none saved"
        raise UsageError(
            f"no saved server profile named {name!r} ({known}), and the collection records no way to reach it"
        )
    try:
        return resolve_profile(profile, os.environ if values is None else values, {})
    except Unresolved as exc:
        raise UsageError(str(exc)) from None
