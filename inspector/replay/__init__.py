"""Replay a traffic record: as a mock server, against another server build, or beside another record.
Pure: no Qt. The API, each documented where it lives:

- `record.open_record(path, server=None) -> Replay`: the record's exchanges through the record index
  (`Replay.request(n)`, `.response(n)`, `.server_messages(n)`, `.warnings`, `.era`); `ReplayError`.
- `matcher.Matcher` (`mock.request_matcher(replay)`): which recorded exchange answers a request, in
  recorded order, and the nearest one for a miss; the rules in `volatile.VOLATILE`.
- `mock.MockServer` / `mock.serve(...)`: the record as a stdio MCP server (`mcp-lens replay RECORD`).
- `against.run_against(replay, argv or URL, ignore=(), run=None) -> Run` (`run_against_async` in a
  running loop): `Run.verdicts`, one `compare.Verdict` per request (identical, equal, different with
  `Change`s by JSON path); `report` writes them as text, JSON or JUnit.
- `diff.diff_records(a, b) -> RecordDiff`: two records lined up by request; text, JSON, Markdown.
"""
