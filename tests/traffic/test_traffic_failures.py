"""Failures are never "ok": recorded failures, requests left without a response, results found wrong later."""

from __future__ import annotations

from factories import call_result, request, response, rpc
from lens_support import posix_only

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.store import TrafficStore
from inspector.transports.stdio_pipes import exit_failure

OUT, IN = Direction.OUT, Direction.IN


def test_a_recorded_failure_is_flagged_with_its_reason_and_survives_a_round_trip(tmp_path) -> None:
    store = TrafficStore()
    crash = store.record_failure("stdio", "process exited with code 3", "exit code 3")
    assert (crash.direction, crash.kind, crash.raw) == (Direction.META, Kind.LIFECYCLE, b"process exited with code 3")
    assert crash.status == "exit code 3" and crash.flagged
    assert TrafficFilter(errors_only=True).matches(crash)
    path = tmp_path / "s.jsonl"
    jsonl.save(path, store)
    (again,), _ = jsonl.load(path)
    assert again.status == "exit code 3" and again.flagged


def test_abandon_pending_notes_our_requests_only_and_tells_listeners() -> None:
    store = TrafficStore()
    changed: list[int] = []
    store.subscribe(lambda _: None, on_change=lambda e: changed.append(e.seq))
    call = request(store, 1, "tools/call", {"name": "work"})
    answered = request(store, 2, "ping")
    response(store, 2)
    theirs = request(store, 7, "roots/list", direction=IN)
    assert store.abandon_pending("no response: the process exited") == [call]
    assert call.status == "no response: the process exited" and call.flagged
    assert answered.status == "ok" and not theirs.notes
    assert changed == [call.seq]
    assert store.pending_requests() == [theirs]
    assert store.abandon_pending("again") == [], "each request is abandoned once"


def test_flag_response_finds_the_response_by_its_result() -> None:
    store = TrafficStore()
    request(store, 1, "tools/call", {"name": "a"})
    store.record_message(IN, "stdio", rpc(id=1, result=call_result("fine")))
    since = store.next_seq
    request(store, 2, "tools/call", {"name": "b"})
    bad = {"content": [{"type": "hologram"}]}
    response = store.record_message(IN, "stdio", rpc(id=2, result=bad))  # the name is this test's
    changed: list[Entry] = []
    store.subscribe(lambda _: None, on_change=changed.append)
    assert store.flag_response("tools/call", {"content": []}, "finding", since_seq=since) is None
    assert store.flag_response("tools/call", bad, "finding: unknown type", since_seq=since) is response
    assert response.status == "finding: unknown type" and response.flagged and changed == [response]
    assert store.flag_response("tools/call", bad, "finding: unknown type", since_seq=since) is response
    assert response.notes == ("finding: unknown type",) and changed == [response], "a note is added once"


@posix_only("signals (a negative exit status is a signal's number only there)")
def test_exit_failure_reads_as_the_status_of_a_failed_exit() -> None:
    assert exit_failure(0, closing=False) is None and exit_failure(0, closing=True) is None
    assert exit_failure(3, closing=False) == "exit code 3"
    assert exit_failure(1, closing=True) == "exit code 1", "a non-zero exit on a clean close is still a failure"
    assert exit_failure(-9, closing=False) == "killed by SIGKILL"
    assert exit_failure(-15, closing=True) is None, "our own SIGTERM while closing"
