"""Arguments are validated in the schema's own dialect (`$schema`; 2020-12 when absent or unknown), and
no reference or meta-schema is ever fetched over the network (a loopback canary records any attempt)."""

from __future__ import annotations

import json

from inspector.schema import build, schema_findings, validate
from tests.schema.schema_server import DRAFT07, TOUR
from tests.schema.schema_support import canary

# Keywords whose failure jsonschema reports as the inner keyword that failed.
INNER = {"$dynamicRef": "type", "propertyNames": "pattern", "dependentSchemas": "required"}
TUPLE = {"type": "object", "properties": {"p": {"prefixItems": [{"type": "integer"}], "items": False}}}


def test_2020_12_is_the_default_dialect() -> None:
    assert [i.keyword for i in validate(TUPLE, {"p": ["x"]})] == ["type"]
    assert [i.keyword for i in validate(TUPLE, {"p": [1, 2]})] == ["items"]


def test_schema_keyword_picks_the_dialect() -> None:
    draft07 = json.loads(DRAFT07)
    assert validate(draft07, {"pair": ["a", 1]}) == []
    assert [i.keyword for i in validate(draft07, {"pair": ["a", "b"]})] == ["type"]
    assert [i.keyword for i in validate(draft07, {"pair": ["a", 1, 2]})] == ["additionalItems"]
    assert [i.keyword for i in validate(draft07, {"a": "x"})] == ["dependencies"]
    # draft-07 knows no prefixItems: the same tuple schema checks nothing there
    loose = {"type": "object", "properties": {"p": {"prefixItems": [{"type": "integer"}]}}}
    assert [i.keyword for i in validate(loose, {"p": ["x"]})] == ["type"]
    assert validate({"$schema": "http://json-schema.org/draft-07/schema#", **loose}, {"p": ["x"]}) == []


def test_every_2020_12_keyword_is_enforced() -> None:
    tour = json.loads(TOUR)
    good = {"point": [1, 2.5], "mode": "fast", "tags": ["main", "b"], "meta": {"ab": "x"}, "size": 3}
    assert validate(tour, good) == []
    cases = {
        "type": {"point": ["x", 1]},  # prefixItems: the first slot is a number
        "items": {"point": [1, 2, 3]},
        "const": {"mode": "slow"},
        "uniqueItems": {"tags": ["main", "main"]},
        "contains": {"tags": ["b"]},
        "minLength": {"tags": ["main", ""]},  # through the "#tag" anchor
        "propertyNames": {"meta": {"A1": "x"}},
        "minProperties": {"meta": {}},
        "not": {"size": 13},
        "dependentRequired": {"card": "4111"},
        "dependentSchemas": {"billing": "here"},
        "unevaluatedProperties": {"surprise": 1},
        "$dynamicRef": {"chain": {"next": {"next": 5}}},  # a type error found through $dynamicRef
    }
    for keyword, arguments in cases.items():
        found = [i.keyword for i in validate(tour, arguments)]
        reported = INNER.get(keyword, keyword)
        assert reported in found, (keyword, found)


def test_unknown_dialect_and_remote_ids_fetch_nothing() -> None:
    with canary() as trap:
        base = trap.url.rsplit("/", 1)[0]
        custom = {"$schema": trap.url, "type": "object", "properties": {"n": {"type": "integer"}}}
        assert schema_findings(custom) == []
        assert [i.keyword for i in validate(custom, {"n": "x"})] == ["type"]  # 2020-12 rules
        relative = {"$id": f"{base}/root.json", "type": "object", "properties": {"q": {"$ref": "other.json"}}}
        issues = validate(relative, {"q": 1})
        assert [(i.path, i.keyword) for i in issues] == [(("q",), "$ref")]
        assert f"{base}/other.json" in issues[0].message
        model = build(relative)
        assert model.fallback_reason is None
        q = model.root.property("q")
        assert q is not None and q.is_fallback and "not fetched" in (q.fallback_reason or "")
        assert trap.hits == []
