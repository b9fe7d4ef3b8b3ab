"""The Collections tab (saved calls with assertions, run against the workspace's live sessions) and
"Save to collection…" from the Tools tab's history."""
