"""`mcp-lens tap --install CONFIG --server NAME --replay RECORD`: the host's entry runs `mcp-lens replay
RECORD` instead of its server (a recorded server while its author is offline), as an argument list of our
own launcher; the host's client gets the recorded answers from it; --uninstall puts the entry back."""

from __future__ import annotations

import json
from pathlib import Path

from factories import request, response, tool
from lens_support import DEMO, run_lens

from inspector.tap.install import tap_launcher
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore

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


def two_servers(path: Path) -> Path:
    """A record of two servers (as File › Export session of a workspace writes), each with its own tools."""
    store = TrafficStore()
    for n, name in enumerate(("alpha", "beta")):
        hello = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": name}}
        request(store, 10 * n + 1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}, source=name)
        response(store, 10 * n + 1, hello, source=name)
        request(store, 10 * n + 2, "tools/list", {}, source=name)
        response(store, 10 * n + 2, {"tools": [tool(f"{name}_tool")]}, source=name)
    jsonl.save(path, store)
    return path


def test_install_checks_the_record_as_replay_does_and_writes_the_chosen_server(tmp_path: Path) -> None:
    """OT7 #8: a record replay refuses (several servers and none chosen, also re-saved as UTF-16, a server it
    lacks) is refused before the host's config is touched, in replay's words; a chosen server goes into the
    entry's command line."""
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(CONFIG)
    multi = two_servers(tmp_path / "multi.jsonl")
    wide = tmp_path / "utf16.jsonl"
    wide.write_bytes(multi.read_text().encode("utf-16"))
    for record, extra, said in (
        (multi, [], "holds 2 servers; choose one with --replay-server NAME: 'alpha', 'beta'"),
        (multi, ["--replay-server", "gamma"], "no server 'gamma'"),
        (wide, [], "utf16.jsonl holds 2 servers"),  # a UTF-16 record is read as such (finding 7 of issue 21)
    ):
        refused = run_lens(
            "tap", "--install", str(config), "--server", "demo", "--replay", str(record), *extra, "--yes"
        )
        assert refused.returncode == 2 and said in refused.stderr, refused.stdout + refused.stderr
        replayed = run_lens("replay", str(record), *(["--server", extra[1]] if extra else []))
        assert replayed.returncode == 2 and said.replace("--replay-server", "--server") in replayed.stderr
        assert config.read_text() == CONFIG
    installed = run_lens(
        "tap", "--install", str(config), "--server", "demo", "--replay", str(multi), "--replay-server", "beta", "--yes"
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "'beta' of" in installed.stdout, installed.stdout
    entry = json.loads("\n".join(line for line in config.read_text().splitlines() if "//" not in line))
    argv = [entry["mcpServers"]["demo"]["command"], *entry["mcpServers"]["demo"]["args"]]
    assert argv == [*tap_launcher(), "replay", str(multi.absolute()), "--server", "beta"]
    served = run_lens("--cli", "--method", "tools/list", "--", *argv, timeout=120)
    assert served.returncode == 0, served.stderr
    assert [t["name"] for t in json.loads(served.stdout)["tools"]] == ["beta_tool"]
    assert run_lens("tap", "--uninstall", str(config), "--server", "demo", "--yes").returncode == 0
    assert config.read_text() == CONFIG
    alone = run_lens("tap", "--install", str(config), "--server", "demo", "--replay-server", "beta", "--yes")
    assert alone.returncode == 2 and "--replay-server goes with --replay" in alone.stderr
