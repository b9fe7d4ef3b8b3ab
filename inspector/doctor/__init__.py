"""The server doctor: one battery of checks that says what a server's users' clients will meet; no Qt.

From the bottom: `sections` (the spec sections findings cite), `report` (finding, report and score,
each check's outcome, options); `static_checks` (what the server said at connect time and in its
lists) and `state` (what the live checks share); `listings`, `probes` and `tool_probes` (the checks
run against the server); `table` (`CHECKS`: every check's id, what it checks, its stage, order and
section); `engine.run_doctor` runs the table and says of each check whether it ran, and if not why;
`render` writes a report as text, JSON or JUnit, and the table as `--list-checks` and the README
print it. An import-linter contract keeps that order. ``mcp-lens doctor`` (`inspector/cli/doctor.py`)
and the Doctor tab (`inspector/ui/doctor/`) use it.
"""
