"""The transport kinds, one table: name → label, what a profile must give, and the factory.

Read by `inspector.core.targets.make_transport` (which transport to build), the CLI (``--transport``
choices, in `inspector.cli.args`, and the app's own ``--transport`` for a URL) and the profile dialog
(its Transport choices). Adding a transport is one entry here plus its test
(tests/transports/test_kinds.py checks every reader offers exactly these entries).

Cheap to import: each factory imports its transport (and the SDK) only when it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import subprocess

    from inspector.traffic.store import TrafficStore

Needs = Literal["command", "url"]


@dataclass(frozen=True)
class TransportKind:
    """One way to reach a server. `make(profile, store, process=…, auth=…)` builds its tapped transport."""

    name: str  # as in a profile's `transport` and the command line's ``--transport``
    label: str  # as the profile dialog offers it
    needs: Needs  # a profile of this kind gives a `command` (stdio) or a `url`
    factory: Callable[..., Any]

    def make(
        self, profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None = None, auth: Any = None
    ) -> Any:
        return self.factory(profile, store, process=process, auth=auth)


def _stdio(profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None, auth: Any) -> Any:
    """A local command over stdin/stdout (`auth` does not apply)."""
    from inspector.transports.process import StdioCommand
    from inspector.transports.stdio import StdioTransport

    return StdioTransport(StdioCommand.from_profile(profile), store, process=process)


def _http(kind: str) -> Callable[..., Any]:
    def make(profile: Any, store: TrafficStore, *, process: subprocess.Popen[bytes] | None, auth: Any) -> Any:
        """A URL through the SDK's HTTP client; `auth` is an `httpx2.Auth` (see `HttpTransport`)."""
        from inspector.transports.http import HttpTransport

        return HttpTransport(
            profile.url,
            store,
            kind=kind,
            headers=dict(profile.headers or {}),
            bearer_token=getattr(profile, "bearer_token", None),
            secret_headers=getattr(profile, "secret_headers", ()),
            secret_values=getattr(profile, "secret_values", ()),
            auth=auth,
        )

    return make


TRANSPORT_KINDS: dict[str, TransportKind] = {
    kind.name: kind
    for kind in (
        TransportKind("stdio", "stdio (local command)", "command", _stdio),
        TransportKind("http", "Streamable HTTP", "url", _http("http")),
        TransportKind("sse", "SSE (legacy)", "url", _http("sse")),
    )
}
URL_KINDS = tuple(name for name, kind in TRANSPORT_KINDS.items() if kind.needs == "url")
DEFAULT_URL_KIND = "http"  # a URL given without --transport


def transport_kind(name: str) -> TransportKind:
    """The kind called `name`; `ValueError` names the known ones."""
    try:
        return TRANSPORT_KINDS[name]
    except KeyError:
        raise ValueError(f"unknown transport {name!r}: use one of {', '.join(TRANSPORT_KINDS)}") from None
