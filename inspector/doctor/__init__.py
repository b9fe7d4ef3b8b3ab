"""The server doctor: one battery of checks that says what a server's users' clients will meet; no Qt.

`engine.run_doctor` runs the checks: `static_checks` (what the server said at connect time and in its
lists), `probes` and `tool_probes` (the live checks) over `state` (what the live checks share);
`render` writes a report as text, JSON or JUnit. ``mcp-lens doctor`` and the Doctor tab
(`inspector/ui/doctor/`) use it.
"""
