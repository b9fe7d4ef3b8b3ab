"""`mcp-lens --cli` against an OAuth server: `--stored-auth-only` never opens a browser, and uses stored tokens."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

from lens_support import lens_env

from inspector.auth.signin import ServerAuth
from inspector.auth.storage import FileBackend
from inspector.config.profile import ServerProfile
from inspector.traffic.store import TrafficStore


def _cli(url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "inspector", "--cli", "--server-url", url, "--method", "tools/list", *extra]
    # BROWSER=false: if anything tried to open a browser it would fail loudly rather than pop one up.
    env = lens_env(BROWSER="false")
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)


def _sign_in(server, auth_home: Path, browser) -> None:
    profile = ServerProfile(name="oauth", transport="http", url=server.url)
    asyncio.run(ServerAuth(profile, backend=FileBackend(auth_home)).sign_in(TrafficStore(), opener=browser))


def test_stored_auth_only_without_a_token_fails_with_exit_8(oauth_server, auth_home):
    proc = _cli(oauth_server.url, "--stored-auth-only")
    assert proc.returncode == 11, proc.stderr
    error = json.loads(proc.stderr.strip().splitlines()[-1])
    assert error["error"] == "auth-required"
    assert "--stored-auth-only" in error["message"] and "sign" in error["hint"].lower()
    stats = oauth_server.stats()
    assert stats["registrations"] == 0 and stats["authorizations"] == 0  # no registration, no browser
    assert proc.stdout == ""


def test_stored_auth_only_uses_the_stored_token(oauth_server, auth_home, browser):
    _sign_in(oauth_server, auth_home, browser)
    proc = _cli(oauth_server.url, "--stored-auth-only")
    assert proc.returncode == 0, proc.stderr
    assert [t["name"] for t in json.loads(proc.stdout)["tools"]] == ["whoami"]
    assert oauth_server.stats()["authorizations"] == 1


def test_stored_auth_only_refreshes_and_records_the_refresh_redacted(short_token_server, auth_home, browser, tmp_path):
    _sign_in(short_token_server, auth_home, browser)
    stored = json.loads(next(auth_home.glob("*.json")).read_text())["tokens"]
    time.sleep(2.5)
    record = tmp_path / "run.jsonl"
    proc = _cli(short_token_server.url, "--stored-auth-only", "--record", str(record))
    assert proc.returncode == 0, proc.stderr
    assert short_token_server.stats()["refreshes"] == 1
    text = record.read_text()
    assert "grant_type=refresh_token" in text and "refresh_token=<redacted>" in text
    assert stored["refresh_token"] not in text and stored["access_token"] not in text
    fresh = json.loads(next(auth_home.glob("*.json")).read_text())["tokens"]
    assert fresh["access_token"] not in text and fresh["access_token"] != stored["access_token"]


def test_without_the_flag_the_cli_shows_the_url_signs_in_in_the_browser_and_stores_the_token(
    oauth_server, auth_home, tmp_path
):
    log = tmp_path / "browser.log"
    browser = f"{sys.executable} {Path(__file__).with_name('fake_browser.py')} {log} %s"
    argv = [sys.executable, "-m", "inspector", "--cli", "--server-url", oauth_server.url, "--method", "tools/list"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=lens_env(BROWSER=browser))
    assert proc.returncode == 0, proc.stderr
    assert [t["name"] for t in json.loads(proc.stdout)["tools"]] == ["whoami"]
    url, outcome = log.read_text().splitlines()
    assert outcome == "200 True"
    assert f"Authorization URL:\n  {url}\n" in proc.stderr  # shown before the browser opened it
    assert url.startswith(f"http://127.0.0.1:{oauth_server.port}/authorize?")
    assert len(list(auth_home.glob("*.json"))) == 1
    # The next run needs no browser at all.
    again = _cli(oauth_server.url, "--stored-auth-only")
    assert again.returncode == 0, again.stderr
    assert oauth_server.stats()["authorizations"] == 1


def test_a_token_file_an_earlier_version_wrote_still_works_unticked_and_is_said_once(
    oauth_server, auth_home, browser, monkeypatch
):
    _sign_in(oauth_server, auth_home, browser)  # as an earlier MCP Lens did: a 0600 file, no tick asked
    (written,) = auth_home.glob("*.json")
    monkeypatch.delenv("MCP_LENS_SECRETS_FILE", raising=False)  # not ticked, no keyring
    proc = _cli(oauth_server.url, "--stored-auth-only")
    assert proc.returncode == 0, proc.stderr
    assert [t["name"] for t in json.loads(proc.stdout)["tools"]] == ["whoami"]
    assert proc.stderr.count("read from a plain user-only file (0600, not encrypted)") == 1, proc.stderr
    assert list(auth_home.glob("*.json")) == [written]
