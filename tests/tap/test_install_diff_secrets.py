"""`tap --install` shows the change it will make: the diff's lines hold no secret of the entry (its
env, flags, headers), while the file it writes keeps them (they are the host's configuration)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.tap.install import plan_install, plan_uninstall


def test_the_diff_shown_redacts_the_entrys_secrets_and_the_file_keeps_them(tmp_path: Path) -> None:
    config = tmp_path / ".cursor" / "mcp.json"
    config.parent.mkdir()
    entry = {
        "command": "node",
        "args": ["server.js", "--api-key=flag secret 1", "--token", "flag secret 2"],
        "env": {"DB_PASS": "db secret 3", "GH_PAT": "pat secret 4", "OTHER": "CANARY-k0123456789abcdef9"},
    }
    config.write_text(json.dumps({"mcpServers": {"s": entry}}, indent=2))
    plan = plan_install(config, "s")
    secrets = ("flag secret 1", "flag secret 2", "db secret 3", "pat secret 4", "CANARY-k0123456789abcdef9")
    assert "DB_PASS" in plan.diff and "--api-key" in plan.diff and "<redacted>" in plan.diff
    assert not [s for s in secrets if s in plan.diff], plan.diff
    assert all(s in plan.new_text for s in secrets)  # what is written is the host's configuration, whole
    config.write_text(plan.new_text)
    again = plan_uninstall(config, "s")
    assert not [s for s in secrets if s in again.diff], again.diff
