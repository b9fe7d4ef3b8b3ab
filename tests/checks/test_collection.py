"""Collections, the JSON path subset and the assertions, without a server."""

from __future__ import annotations

import pytest
from factories import call_result, tool

from inspector.checks.assertions import BadAssertion, Observed, evaluate, parse_assertion
from inspector.checks.collection import Collection, CollectionError, env_references, from_json, load, resolve
from inspector.checks.jsonpath import PathError, get_path, parse_path

DOC = {"result": {"a": {"b": [{"c": 1}, {"c d": "x"}]}} | call_result("hi", is_error=False)}


def test_json_path_subset() -> None:
    assert parse_path('$.a.b[0]["c d"][-1]') == ["a", "b", 0, "c d", -1]
    assert get_path(DOC, "$.result.a.b[0].c") == 1
    assert get_path(DOC, '$.result.a.b[1]["c d"]') == "x"
    assert get_path(DOC, "$") is DOC
    with pytest.raises(PathError, match=r"\$\.result\.a\.b\[2\] does not exist \(\$\.result\.a\.b is a list of 2\)"):
        get_path(DOC, "$.result.a.b[2]")
    with pytest.raises(PathError, match="nope does not exist"):
        get_path(DOC, "$.result.nope")
    for bad in ("a.b", "$.a..b", "$[x]"):
        with pytest.raises(PathError):
            parse_path(bad)


def test_assertions_pass_and_fail_with_reasons() -> None:
    ok = Observed(DOC, 12.0)
    error = Observed({"error": {"code": -32602, "message": "bad"}}, 900.0)
    tool_error = Observed({"result": call_result("Unknown tool: x", is_error=True)}, 1.0)
    cases = [
        ({"kind": "success"}, ok, True, "succeeded"),
        ({"kind": "success"}, error, False, "expected success, got JSON-RPC error -32602: bad"),
        ({"kind": "is_error"}, tool_error, True, "isError is true"),
        ({"kind": "is_error", "value": False}, tool_error, False, 'got isError: true ("Unknown tool: x")'),
        ({"kind": "error_code", "code": -32602}, error, True, "JSON-RPC error -32602"),
        ({"kind": "error_code", "code": -32601}, ok, False, "expected JSON-RPC error -32601, got a successful result"),
        ({"kind": "equals", "path": "$.result.a.b[0].c", "value": 1}, ok, True, "equals 1"),
        ({"kind": "equals", "path": "$.result.a.b[0].c", "value": True}, ok, False, "is 1, expected true"),
        ({"kind": "contains", "path": "$.result.content[0].text", "value": "h"}, ok, True, 'contains "h"'),
        ({"kind": "contains", "path": "$.result.a.b[0]", "value": {"c": 2}}, ok, False, "does not contain"),
        ({"kind": "matches", "path": "$.result.content[0].text", "pattern": "^h.$"}, ok, True, "matches"),
        ({"kind": "content", "type": "text", "count": 1}, ok, True, "1 text block"),
        ({"kind": "content", "type": "image"}, ok, False, "expected image blocks, got text"),
        ({"kind": "latency_under", "ms": 500}, error, False, "took 900 ms, expected under 500 ms"),
        ({"kind": "output_schema"}, ok, False, "declares no outputSchema"),
    ]
    for spec, observed, passed, words in cases:
        got, reason = evaluate(spec, observed)
        assert (got, words in reason) == (passed, True), (spec, reason)
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    wrong = Observed(
        {"result": {"structuredContent": {"n": "1"}}},
        1.0,
        tool=tool("t", description=None, input_schema=None, outputSchema=schema),
    )
    assert evaluate({"kind": "output_schema"}, wrong) == (
        False,
        "structuredContent does not match outputSchema: $.result.structuredContent.n: '1' is not of type 'integer'",
    )
    for bad in ({"kind": "nope"}, {"kind": "equals", "path": "$.a"}, {"kind": "latency_under", "ms": "5"}):
        with pytest.raises(BadAssertion):
            parse_assertion(bad)


def test_file_round_trip_is_byte_stable_and_secrets_become_references(tmp_path) -> None:
    collection = Collection("smoke")
    step, notes = collection.add_step(
        "tools/call",
        {"name": "search", "arguments": {"query": "mcp", "apiKey": "sk-live-123", "auth": {"token": "t0k"}}},
        server="My server",
        expect=[{"kind": "success"}],
    )
    assert step.params["arguments"] == {"query": "mcp", "apiKey": "${API_KEY}", "auth": {"token": "${TOKEN}"}}
    assert [n.split(" looks")[0] for n in notes] == ["arguments.apiKey", "arguments.auth.token"]
    step.save = {"hits": "$.result.structuredContent.hits"}
    collection.add_step("tools/list", {})
    path = tmp_path / "smoke.json"
    collection.save(path)
    text = path.read_text()
    assert "sk-live" not in text and text.endswith("}\n") and text.index('"format"') < text.index('"steps"')
    assert load(path).dumps() == text
    again = tmp_path / "again.json"
    load(path).save(again)
    assert again.read_bytes() == path.read_bytes()
    assert env_references(load(path)) == ["API_KEY", "TOKEN"]
    with pytest.raises(CollectionError, match="version 2 is not supported"):
        from_json({"format": "mcp-lens-collection", "version": 2, "steps": []})
    with pytest.raises(CollectionError, match=r"steps\[0\]\.expect\[0\]: unknown assertion 'eq'"):
        step = {"id": "a", "method": "x", "expect": [{"kind": "eq"}]}
        from_json({"format": "mcp-lens-collection", "version": 1, "steps": [step]})


def test_references_from_environment_and_earlier_steps() -> None:
    saved = {"s1": {"id": 42, "name": "Ada"}}
    params = {"id": "${steps.s1.id}", "text": "hi ${steps.s1.name} ${USER_NAME}", "n": [1, "${steps.s1.id}"]}
    assert resolve(params, {"USER_NAME": "u"}, saved) == {"id": 42, "text": "hi Ada u", "n": [1, 42]}
    with pytest.raises(CollectionError, match=r"\$\{MISSING\} is not set"):
        resolve({"a": "${MISSING}"}, {}, saved)
    with pytest.raises(CollectionError, match="step 's2' saved no value 'id'"):
        resolve("${steps.s2.id}", {}, saved)


def test_a_collection_that_is_not_utf8_is_a_collection_error_naming_the_byte(tmp_path) -> None:
    import pytest

    from inspector.checks.collection import CollectionError, load

    path = tmp_path / "c.json"
    path.write_bytes('{"format": "mcp-lens-collection", "version": 1, "name": "café", "steps": []}'.encode("latin-1"))
    with pytest.raises(CollectionError, match="not UTF-8 text: byte 0xE9 at line 1"):
        load(path)


SAVER = """
import sys
from inspector.checks.collection import Collection
collection = Collection("big")
for n in range(4000):
    collection.add_step("tools/call", {"name": "echo", "arguments": {"message": "x" * 200}})
print("ready", flush=True)
while True:
    collection.save(sys.argv[1])
"""


def test_a_save_killed_at_any_moment_leaves_the_old_file_or_the_new_one(tmp_path) -> None:
    """kill -9 (TerminateProcess on Windows) while a collection is being saved: never a 0-byte or cut file
    (a plain write left one)."""
    import os
    import subprocess
    import sys
    import time

    from inspector.checks.collection import load

    path = tmp_path / "c.json"
    for attempt in range(3):
        child = subprocess.Popen([sys.executable, "-c", SAVER, str(path)], stdout=subprocess.PIPE)
        assert child.stdout is not None and child.stdout.readline().rstrip() == b"ready"
        time.sleep(0.2 + 0.07 * attempt)
        child.kill()
        child.wait()
        if path.exists():
            assert len(load(path).steps) == 4000
            assert os.name != "posix" or os.stat(path).st_mode & 0o777 == 0o600
    assert not [p.name for p in tmp_path.iterdir() if p.name != "c.json" and not p.name.endswith(".tmp")]
