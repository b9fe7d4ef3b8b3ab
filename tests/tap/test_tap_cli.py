"""`mcp-lens tap`'s own options: --install / --uninstall go to the installer, misuse exits 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tap_support import TAP, tap_env

CONFIG = """{
  // a host's config, with a comment
  "mcpServers": {
    "weather": {"command": "npx", "args": ["-y", "@acme/weather-mcp"], "env": {"KEY": "sk-secret"}}
  }
}
"""


def _tap(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**tap_env(tmp_path), "HOME": str(tmp_path / "home")}
    return subprocess.run([*TAP, *args], capture_output=True, text=True, env=env, timeout=60, stdin=subprocess.DEVNULL)


def test_install_then_uninstall_from_the_command_line_round_trips(tmp_path: Path) -> None:
    config = tmp_path / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text(CONFIG)
    done = _tap(tmp_path, "--install", str(config), "--server", "weather", "--name", "wx", "--yes")
    assert done.returncode == 0, done.stderr
    text = config.read_text()
    assert '"tap"' in text and '"wx"' in text and "sk-secret" in text
    args = json.loads("\n".join(line for line in text.splitlines() if "//" not in line))["mcpServers"]["weather"]
    assert args["args"][args["args"].index("--") + 1 :] == ["npx", "-y", "@acme/weather-mcp"]
    done = _tap(tmp_path, "--uninstall", str(config), "--server", "weather", "--yes")
    assert done.returncode == 0, done.stderr
    assert config.read_text() == CONFIG


def test_misuse_exits_2_and_says_why(tmp_path: Path) -> None:
    cases = {
        ("--install", "x.json"): "--server NAME is required",
        ("--install", "x.json", "--server", "s", "--", "cat"): "take no command",
        ("--server", "s", "--", "cat"): "go with --install/--uninstall",
        ("--install", "a", "--uninstall", "b", "--server", "s"): "not allowed with",
        ("--max-bytes", "12", "--", "cat"): "at least 4096 bytes",
        ("--name",): "expected one argument",
    }
    for args, said in cases.items():
        done = _tap(tmp_path, *args)
        assert done.returncode == 2, (args, done)
        assert said in done.stderr, (args, done.stderr)
