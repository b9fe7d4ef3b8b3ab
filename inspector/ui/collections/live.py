"""The runner's connections in the app: a step goes to the workspace's open session of the server it
names, so its traffic lands in that server's traffic log too; a server not connected is connected for
the run only, as ``mcp-lens run`` does."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from inspector.checks.runner import Opener
from inspector.checks.secret_references import reference_values
from inspector.cli.run_servers import profile_opener
from inspector.core.errors import ConnectFailed


class LiveConnection:
    """An open session as the runner's connection: entering and leaving it neither opens nor closes it."""

    tools = None  # the runner lists tools when an assertion needs the tool

    def __init__(self, session: Any) -> None:
        self.session = session
        self.live_store = session.store  # the runner reads the step's bytes there

    async def __aenter__(self) -> LiveConnection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def list_tools(self) -> Any:
        return await self.session.core.list_tools()

    def new_handle(self, method: str) -> None:
        return None  # the session's own request timeout applies

    async def request_rounds(self, method: str, params: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return await self.session.request_rounds(method, params, with_progress=bool(kwargs.get("with_progress")))


def workspace_opener(spaces: Mapping[str, Any]) -> Opener:
    """Each step to the workspace's connected session of its server; a server not connected is connected
    for the run only, as ``mcp-lens run`` connects it (its workspace profile, else the saved one)."""
    headless = profile_opener(LiveProfiles(spaces))

    def open_session(name: str, store: Any) -> Any:
        if not name:
            raise ConnectFailed("the step names no server: save it from a connected server's call")
        space = spaces.get(name)
        if space is not None and space.session.live:
            return LiveConnection(space.session)
        return headless(name, store)

    return open_session


def reference_env(spaces: Mapping[str, Any]) -> dict[str, str]:
    """What fills a collection's ``${NAME}`` references in Run all: the environment, else the secrets of
    the workspace's connected servers under the names Save to collection gave them (`secret_references`)."""
    profiles = [space.session.profile for space in spaces.values() if getattr(space.session, "profile", None)]
    return {**reference_values(profiles), **os.environ}


class LiveProfiles(Mapping[str, Any]):
    """The workspace's servers' profiles by name (as the spaces hold them now)."""

    def __init__(self, spaces: Mapping[str, Any]) -> None:
        self.spaces = spaces

    def __getitem__(self, name: str) -> Any:
        return self.spaces[name].profile

    def __iter__(self) -> Any:
        return iter(self.spaces)

    def __len__(self) -> int:
        return len(self.spaces)
