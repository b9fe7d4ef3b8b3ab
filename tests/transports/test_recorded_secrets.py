"""What the transports record holds no secret of the profile: the started-pid line's flags, every HTTP
entry's URL (query values by name and by value) and headers, and so Copy as curl."""

from __future__ import annotations

import asyncio
import json
import sys

from factories import request

from inspector.config.profile import ServerProfile
from inspector.config.references import resolve_profile
from inspector.core.connection import Connection
from inspector.core.targets import make_transport
from inspector.traffic.commands import curl_for_entry
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

WAIT = "import sys; sys.stdin.read()"


def everything(store: TrafficStore) -> str:
    return "\n".join(e.raw.decode(errors="replace") + json.dumps(e.http or {}) + " ".join(e.notes) for e in store)


def test_started_pid_line_hides_secret_flags() -> None:
    store = TrafficStore()
    command = StdioCommand(sys.executable, ["-c", WAIT, "--api-key=key value 1", "--token", "token value 2"])

    async def main() -> None:
        pipes = StdioPipes(command, store, grace=0.1)
        await pipes.start()
        await pipes.close()

    asyncio.run(main())
    started = store[0].raw.decode()
    assert started.startswith("started pid") and "--api-key=<redacted>" in started and "--token <redacted>" in started
    assert "value 1" not in everything(store) and "value 2" not in everything(store)


def test_http_entries_and_curl_hide_query_and_header_secrets(demo_http: str) -> None:
    profile = ServerProfile(
        "s",
        transport="http",
        url=demo_http + "?token=query-token-1&region=region-value-2&sig=${env:SIG}",
        headers={"X-Session": "session-value-3", "X-Plain": "${input:plain}"},
        protocol_era="legacy",
    )
    resolved = resolve_profile(profile, {"SIG": "signature-value-4"}, {"plain": "plain-input-5"})
    store = TrafficStore()

    async def main() -> None:
        async with Connection(make_transport(resolved, store)) as conn:
            await conn.list_tools()

    asyncio.run(main())
    text = everything(store)
    curls = "\n".join(filter(None, (curl_for_entry(e, store.by_seq) for e in store)))
    assert "tools/list" in text and "curl" in curls and "<redacted>" in curls
    for secret in ("query-token-1", "region-value-2", "session-value-3", "signature-value-4", "plain-input-5"):
        assert secret not in text and secret not in curls, secret


def test_a_message_recorded_with_a_secret_hidden_says_so_without_being_flagged() -> None:
    """The log shows exact bytes; where a profile's secret was replaced, the entry says the wire differed."""
    from inspector.config.redact import Redactor
    from inspector.traffic.entry import SECRETS_HIDDEN

    store = TrafficStore()
    store.protect(Redactor(["canary-secret-value-7"]))
    plain = request(store, 1, "tools/list")
    hidden = request(store, 2, "tools/call", {"k": "canary-secret-value-7"})
    assert plain.notes == ()
    assert hidden.notes == (SECRETS_HIDDEN,) and b"canary-secret-value-7" not in hidden.raw
    assert not hidden.flagged
