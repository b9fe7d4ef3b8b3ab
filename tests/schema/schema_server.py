"""A stdlib-only MCP server on stdio whose tools carry JSON Schema 2020-12 inputSchemas, written as text.

``python schema_server.py``. The ``tools/list`` result is the literal text ``TOOLS_TEXT`` (keys in the
server's own order, an unknown ``x-`` keyword, numbers spelled ``1.5`` and ``10``), so a test can compare
what the client shows and re-sends with what the server wrote. ``CANARY_URL`` (environment) is the remote
`$ref` of ``lookup_user``: nothing may ever fetch it. Every ``tools/call`` line received is appended to the
file named by ``SCHEMA_CALLS`` (if set), exactly as it arrived.

Tools: ``json_schema_2020_12_tool`` (the conformance suite's focal schema: ``$schema``, ``$defs`` with an
``$anchor``, ``$ref``, ``allOf``/``anyOf``, ``if``/``then``/``else``, ``additionalProperties: false``),
``json_schema_echo`` (echoes its ``schema`` argument), ``lookup_user`` (a local and a remote `$ref`),
``keyword_tour`` (prefixItems, const, dependentSchemas, dependentRequired, unevaluatedProperties,
$dynamicRef, contains, propertyNames, uniqueItems, not, an anchor reference) and ``draft07_tool``
(``$schema`` draft-07: tuple ``items`` and ``dependencies``), ``structured_profile`` (an outputSchema whose
property is the remote `$ref`; its result has structuredContent).
"""

from __future__ import annotations

import json
import os
import sys

FOCAL = """{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "$defs": {"address": {"$anchor": "addressDef", "type": "object",
   "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
 "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
   "phone": {"type": "string"}, "email": {"type": "string"}},
 "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
 "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
 "then": {"required": ["phone"]}, "else": {"required": ["email"]},
 "additionalProperties": false}"""

ECHO = """{"type": "object", "properties": {"schema": {"type": "object",
 "description": "The inputSchema the client observed, passed back verbatim."}}, "required": ["schema"]}"""

LOOKUP = """{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "$defs": {"userId": {"type": "string", "pattern": "^[a-z0-9-]+$"}},
 "properties": {"id": {"$ref": "#/$defs/userId"}, "profile": {"$ref": "CANARY"}}, "required": ["id"]}"""

TOUR = """{"type": "object", "x-vendor": {"keep": [1.5, 10, null]}, "$comment": "every keyword",
 "$defs": {"tag": {"$anchor": "tag", "type": "string", "minLength": 1},
   "node": {"$dynamicAnchor": "node", "type": "object", "properties": {"next": {"$dynamicRef": "#node"}}}},
 "properties": {
   "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
   "mode": {"const": "fast"},
   "tags": {"type": "array", "items": {"$ref": "#tag"}, "uniqueItems": true,
     "contains": {"const": "main"}, "minContains": 1},
   "card": {"type": "string"}, "billing": {"type": "string"},
   "meta": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "minProperties": 1,
     "additionalProperties": {"type": "string"}},
   "chain": {"$ref": "#/$defs/node"},
   "size": {"type": "integer", "not": {"const": 13}}
 },
 "dependentRequired": {"card": ["billing"]},
 "dependentSchemas": {"billing": {"required": ["card"]}},
 "unevaluatedProperties": false}"""

DRAFT07 = """{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
 "properties": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
   "additionalItems": false}, "a": {"type": "string"}, "b": {"type": "string"}},
 "dependencies": {"a": ["b"]}}"""


OUTPUT = """{"type": "object", "properties": {"profile": {"$ref": "CANARY"}}}"""


def tools_text(canary: str) -> str:
    tools = [
        ("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", FOCAL),
        ("json_schema_echo", "Echoes back an arbitrary JSON Schema object.", ECHO),
        ("lookup_user", "Look up a user profile by id", LOOKUP.replace("CANARY", canary)),
        ("keyword_tour", "Every 2020-12 keyword a form meets", TOUR),
        ("draft07_tool", "A draft-07 schema", DRAFT07),
    ]
    parts = [f'{{"name": "{n}", "description": "{d}", "inputSchema": {s}}}' for n, d, s in tools]
    output = OUTPUT.replace("CANARY", canary)
    structured = '"description": "Structured output under a remote $ref", "inputSchema": {"type": "object"}'
    parts.append(f'{{"name": "structured_profile", {structured}, "outputSchema": {output}}}')
    return '{"tools": [' + ", ".join(parts) + "]}"


def main() -> None:
    text = tools_text(os.environ.get("CANARY_URL", "https://canary.invalid/profile-schema.json"))
    calls = os.environ.get("SCHEMA_CALLS")
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") is None:
            continue
        rpc_id, method = json.dumps(message["id"]), message.get("method")
        params = message.get("params") or {}
        if method == "initialize":
            result = json.dumps(
                {
                    "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "schema-2020-12", "version": "1"},
                }
            )
        elif method == "tools/list":
            result = text
        elif method == "tools/call":
            if calls:
                with open(calls, "ab") as out:
                    out.write(raw.rstrip(b"\n") + b"\n")
            echoed = json.dumps(params.get("arguments"), ensure_ascii=False)
            reply: dict = {"content": [{"type": "text", "text": echoed}]}
            if params.get("name") == "structured_profile":
                reply["structuredContent"] = {"profile": {"displayName": "Ada"}}
            result = json.dumps(reply)
        elif method == "ping":
            result = "{}"
        else:
            error = {"code": -32601, "message": f"unknown method {method}"}
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": error}
            sys.stdout.buffer.write(json.dumps(reply).encode() + b"\n")
            sys.stdout.buffer.flush()
            continue
        line = '{"jsonrpc": "2.0", "id": ' + rpc_id + ', "result": ' + " ".join(result.split("\n")) + "}"
        sys.stdout.buffer.write(line.encode() + b"\n")
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
