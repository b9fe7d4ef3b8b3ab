"""The HTTP exchange of a recorded entry and the protocol's words for its headers, results and errors."""

from __future__ import annotations

from factories import request

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.http_exchange import (
    cache_words,
    decode_header_value,
    exchange_text,
    find_exchange,
    message_words,
    protocol_header_lines,
)

REQUEST_HEADERS = [
    ["content-type", "application/json"],
    ["mcp-protocol-version", "2026-07-28"],
    ["mcp-method", "tools/call"],
    ["mcp-name", "=?base64?w6lsw6h2ZQ==?="],
    ["mcp-param-region", "eu-west"],
]


def recorded() -> tuple[TrafficStore, list]:
    """A POST, its status line and its JSON body, as the HTTP tap records them."""
    store = TrafficStore()
    body = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\xc3\xa9l\xc3\xa8ve"}}'
    meta = {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": REQUEST_HEADERS}
    sent = store.record_message(Direction.OUT, "http", body, http=meta)
    response = {"status": 200, "reason": "OK", "headers": [["content-type", "text/json"]], "request_seq": sent.seq}
    status = store.record(Direction.IN, "http", Kind.HTTP_META, b"HTTP 200 OK", http=response)
    answer = b'{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete","ttlMs":300000}}'
    reply = store.record_message(Direction.IN, "http", answer, http={"status": 200, "request_seq": sent.seq})
    return store, [sent, status, reply]


def test_every_entry_of_an_exchange_finds_the_request_and_the_response_headers() -> None:
    store, entries = recorded()
    for entry in entries:
        exchange = find_exchange(store, entry)
        assert exchange is not None and exchange.request_seq == entries[0].seq
        assert exchange.response is not None and exchange.response["status"] == 200
    text = exchange_text(find_exchange(store, entries[2]))
    assert "Mcp-Method: tools/call — the JSON-RPC method of the body" in text
    assert "Mcp-Name: =?base64?w6lsw6h2ZQ==?= (decoded: élève)" in text
    assert "Mcp-Param-region: eu-west — a tool argument whose schema says x-mcp-header 'region'" in text
    assert "stateless" in text and "Request #" in text and "HTTP 200 OK" in text


def test_a_stdio_entry_has_no_exchange() -> None:
    store = TrafficStore()
    entry = request(store, 1, "tools/list")
    assert find_exchange(store, entry) is None


def test_header_words_and_values() -> None:
    assert decode_header_value("=?base64?aGk=?=") == "hi"
    assert decode_header_value("plain") is None and decode_header_value("=?base64?***?=") is None
    lines = protocol_header_lines([["Mcp-Session-Id", "abc"], ["accept", "*/*"]])
    assert lines == ["  Mcp-Session-Id: abc — the session of the handshake era (a 2026-07-28 exchange is stateless)"]


def test_result_types_cache_hints_and_modern_error_codes_in_words() -> None:
    words = message_words({"result": {"resultType": "input_required", "ttlMs": 0, "cacheScope": "private"}})
    assert words[0].startswith("resultType input_required: the server asks for input")
    assert words[1] == "cache hint: not to be reused (ttlMs 0), for this user only (cacheScope private)"
    assert cache_words({"ttlMs": 300_000, "cacheScope": "public"}) == (
        "cache hint: fresh for 5 min (ttlMs 300000), shareable between users (cacheScope public)"
    )
    assert cache_words({"ttlMs": -1}) == "cache hint: ttlMs -1 is not a non-negative integer"
    assert cache_words({}) is None
    error = {"error": {"code": -32022, "message": "no", "data": {"supported": ["2026-07-28"], "requested": "1999"}}}
    assert message_words(error) == [
        "-32022 means the server does not speak the protocol version this request declared; "
        "it supports 2026-07-28 (requested 1999)."
    ]
    assert "Mcp-Method" in message_words({"error": {"code": -32020, "message": "bad headers"}})[0]
    assert message_words({"error": {"code": -32601, "message": "nope"}}) == []


def test_the_headers_tab_fills_in_the_response_when_it_arrives(qtbot) -> None:
    from inspector.ui.traffic.detail import TAB_HEADERS, EntryDetail

    store = TrafficStore()
    detail = EntryDetail(store=store)
    qtbot.addWidget(detail)
    meta = {"method": "POST", "url": "http://127.0.0.1:9/mcp", "headers": REQUEST_HEADERS}
    sent = request(store, 7, "tools/list", transport="http", http=meta)
    detail.tabs.setCurrentIndex(TAB_HEADERS)
    detail.set_entry(sent)
    assert "no status line recorded" in detail.headers_view.toPlainText()
    response = {"status": 202, "reason": "Accepted", "headers": [], "request_seq": sent.seq}
    store.record(Direction.IN, "http", Kind.HTTP_META, b"HTTP 202", http=response)
    qtbot.waitUntil(lambda: "HTTP 202 Accepted" in detail.headers_view.toPlainText(), timeout=2_000)
