"""The server doctor: one battery of checks that says what a server's users' clients will meet; no Qt.

From the bottom: `sections` (the spec sections findings cite), `report` (finding, report and score,
options); `static_checks` (what the server said at connect time and in its lists) and `state` (what
the live checks share); `listings`, `probes` and `tool_probes` (the checks run against the server);
`table` (`CHECKS`: every check's id, what it checks, its stage and order); `engine.run_doctor` runs
the table; `render` writes a report as text, JSON or JUnit. An import-linter contract keeps that
order. ``mcp-lens doctor`` (`inspector/cli/doctor.py`) and the Doctor tab (`inspector/ui/doctor/`) use it.
"""
