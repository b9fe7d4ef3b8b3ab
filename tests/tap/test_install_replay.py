"""`mcp-lens tap --install CONFIG --server NAME --replay RECORD`: the host's entry runs `mcp-lens replay
RECORD` instead of its server (a recorded server while its author is offline), as an argument list of our
own launcher; the host's client gets the recorded answers from it; --uninstall puts the entry back."""

from __future__ import annotations

import json
from pathlib import Path

from lens_support import DEMO, run_lens

from inspector.tap.install import tap_launcher

CONFIG = """{
  // the user's own comment
  "mcpServers": {
    "demo": {"command": "python3", "args": ["-m", "inspector.demo"], "env": {"TOKEN": "kept"}}
  }
}
"""


def test_an_entry_installed_with_replay_serves_the_record_and_uninstalls_byte_identical(tmp_path: Path) -> None:
    record = tmp_path / "demo.jsonl"
    done = run_lens("--cli", "--record", str(record), "--method", "tools/list", "--", *DEMO, timeout=120)
    assert done.returncode == 0, done.stderr
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(CONFIG)
    installed = run_lens("tap", "--install", str(config), "--server", "demo", "--replay", str(record), "--yes")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    text = config.read_text()
    assert "// the user's own comment" in text and '"TOKEN": "kept"' in text
    entry = json.loads("\n".join(line for line in text.splitlines() if "//" not in line))["mcpServers"]["demo"]
    assert [entry["command"], *entry["args"]] == [*tap_launcher(), "replay", str(record.absolute())]
    served = run_lens("--cli", "--method", "tools/list", "--", entry["command"], *entry["args"], timeout=120)
    assert served.returncode == 0, served.stderr
    recorded = run_lens("--cli", "--method", "tools/list", "--", *DEMO, timeout=120)
    assert json.loads(served.stdout)["tools"] == json.loads(recorded.stdout)["tools"]
    again = run_lens("tap", "--install", str(config), "--server", "demo", "--replay", str(record), "--yes")
    assert again.returncode != 0 and "already" in again.stderr
    undone = run_lens("tap", "--uninstall", str(config), "--server", "demo", "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert config.read_text() == CONFIG


def test_replay_needs_install_and_a_record_that_exists(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(CONFIG)
    missing = run_lens("tap", "--install", str(config), "--server", "demo", "--replay", str(tmp_path / "no.jsonl"))
    assert missing.returncode == 2 and "no.jsonl" in missing.stderr
    alone = run_lens("tap", "--replay", str(config), "--", "true")
    assert alone.returncode == 2 and "--replay goes with --install" in alone.stderr
    assert config.read_text() == CONFIG
