"""Short connections for the doctor, opened from a server's profile as `mcp-lens doctor` opens them
(the lean client for stdio, the SDK's connection for a URL), each recording into its own store: the
doctor never disturbs the live session. No Qt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from inspector.config.profile import ServerProfile
from inspector.doctor.report import ConnectionFactory
from inspector.traffic.store import TrafficStore

GRACE = 0.05  # seconds between closing a stdio server's stdin and SIGTERM, as the CLI gives


class DoctorConnections:
    """`open(era)` is the `ConnectionFactory` `run_doctor` takes; `store_of(conn)` its traffic store."""

    def __init__(
        self,
        profile: ServerProfile,
        *,
        request_timeout: float,
        connect_timeout: float = 30.0,
        auth_for: Callable[[ServerProfile], Any] | None = None,
    ) -> None:
        self.profile = profile
        self.request_timeout = request_timeout
        self.connect_timeout = connect_timeout
        self.auth_for = auth_for
        self.stores: dict[int, TrafficStore] = {}

    @property
    def open(self) -> ConnectionFactory:
        return self._open

    def _open(self, era: str) -> Any:
        profile = replace(self.profile, protocol_era=era if era != "auto" else self.profile.protocol_era)
        store = TrafficStore(source=f"{profile.name} (doctor)")
        from inspector.core.input_required import file_handlers

        handlers = file_handlers({})  # a server's input request is answered "no answer" and named in the report
        timeouts = {
            "connect_timeout": self.connect_timeout,
            "request_timeout": self.request_timeout,
            "era": profile.protocol_era,
        }
        if profile.transport == "stdio":
            from inspector.core.lite import LiteConnection
            from inspector.transports.process import StdioCommand
            from inspector.transports.stdio_pipes import StdioPipes

            conn: Any = LiteConnection(StdioPipes(StdioCommand.from_profile(profile), store, grace=GRACE), **timeouts)
            conn.handlers = handlers
        else:
            from inspector.core.connection import Connection
            from inspector.core.targets import make_transport

            auth = self.auth_for(profile) if self.auth_for is not None else None
            conn = Connection(make_transport(profile, store, auth=auth), handlers=handlers, **timeouts)
        conn.relist_on_change = False
        self.stores[id(conn)] = store
        return conn

    def store_of(self, conn: Any) -> TrafficStore | None:
        return self.stores.get(id(conn))
