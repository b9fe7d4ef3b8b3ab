"""Short connections for the doctor, opened from a server's profile as `mcp-lens doctor` opens them
(the lean client for stdio, the SDK's connection for a URL), each recording into its own store: the
doctor never disturbs the live session. No Qt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from inspector.config.profile import ServerProfile
from inspector.doctor.own_traffic import DoctorTraffic
from inspector.doctor.report import ConnectionFactory
from inspector.traffic.store import TrafficStore

if TYPE_CHECKING:
    from inspector.core.connection import Connection
    from inspector.core.lite import LiteConnection

GRACE = 0.05  # seconds between closing a stdio server's stdin and SIGTERM, as the CLI gives


class DoctorConnections:
    """`open(era)` is the `ConnectionFactory` `run_doctor` takes; `store_of(conn)` its traffic store;
    `traffic` all of them (the Probe traffic window)."""

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
        self.traffic = DoctorTraffic(profile.name)

    @property
    def open(self) -> ConnectionFactory:
        return self._open

    def _open(self, era: str) -> Connection | LiteConnection:
        profile = replace(self.profile, protocol_era=era if era != "auto" else self.profile.protocol_era)
        store = self.traffic.store(era)
        from inspector.core.input_required import file_handlers
        from inspector.core.open_connection import open_connection

        handlers = file_handlers({})  # a server's input request is answered "no answer" and named in the report
        stdio = profile.transport == "stdio"  # the lean client, as `mcp-lens doctor` reaches a command
        auth = self.auth_for(profile) if self.auth_for is not None and not stdio else None
        conn = open_connection(
            profile,
            store,
            lean=stdio,
            auth=auth,
            handlers=handlers,
            connect_timeout=self.connect_timeout,
            request_timeout=self.request_timeout,
            grace=GRACE,
            relist_on_change=False,
        )
        self.stores[id(conn)] = store
        return conn

    def store_of(self, conn: object) -> TrafficStore | None:
        return self.stores.get(id(conn))
