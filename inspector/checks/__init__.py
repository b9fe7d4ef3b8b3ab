"""Collections: a server author's saved steps with assertions, run against servers (``mcp-lens run`` is
`inspector/cli/run.py`; the doctor is `inspector/doctor/`). No Qt."""
