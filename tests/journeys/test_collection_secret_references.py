"""A call to a server whose URL and headers hold secrets, saved with Save to collection… and run with Run
all, driven in the app as launched against a loopback server that logs every request: the file holds
``${…}`` references (no secret, no `<redacted>`), and Run all sends the real values, never `<redacted>`."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lens_support import REPO, free_port, serve
from PySide6.QtWidgets import QLabel
from test_traffic import call, choose_file

SERVER = str(REPO / "tests" / "servers" / "header_log.py")
PW, TOKEN, REGION, SESSION = "pw-Secret-9x7", "tok-Secret-4k2q", "eu-Region-77", "sess-Secret-abc123"


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port, log = free_port(), tmp_path / "wire.jsonl"
    for _ in serve([sys.executable, SERVER, str(port), str(log)], port):
        yield port, log


def test_a_saved_call_keeps_references_and_run_all_sends_the_real_values(lens, listener, tmp_path: Path) -> None:
    port, log = listener
    url = f"http://user:{PW}@127.0.0.1:{port}/mcp?token={TOKEN}&region={REGION}"
    config = tmp_path / "mcp.json"
    entry = {"type": "http", "url": url, "headers": {"X-Session": SESSION}}
    config.write_text(json.dumps({"mcpServers": {"shop": entry}}))
    lens.start("--config", str(config), "--server", "shop")
    message = f"pasted {TOKEN} and {SESSION}"
    call(lens, "echo", message=message)
    lens.wait(lambda: any(message.encode() in line for line in log.read_bytes().splitlines()), what="the call sent")
    path = tmp_path / "shop.json"
    lens.click("Save the shown call to a collection")
    lens.click("Choose a collection file")
    choose_file(lens, path)
    lens.click("Save the step")
    said = lens.find("Save to collection message", QLabel)
    lens.wait(lambda: "${URL_TOKEN}" in said.text() and "${X_SESSION}" in said.text(), what="the references said")
    confirmation = said.text()
    lens.click("Save the step")  # Done
    lens.wait(lambda: not lens.has("Save the step"), what="the dialog closed")
    text = path.read_text()
    assert "<redacted>" not in text and not [s for s in (PW, TOKEN, REGION, SESSION) if s in text], text
    saved = json.loads(text)
    assert saved["steps"][0]["params"]["arguments"]["message"] == "pasted ${URL_TOKEN} and ${X_SESSION}"
    assert saved["servers"]["shop"]["url"].endswith("/mcp?token=${URL_TOKEN}&region=${URL_REGION}")
    # the confirmation names every reference the file needs to run, the server's entry's too (h11 point 5)
    needed = set(re.findall(r"\$\{([A-Za-z0-9_]+)\}", text))
    assert {"URL_TOKEN", "URL_REGION", "X_SESSION"} <= needed, needed
    assert not [n for n in needed if f"${{{n}}}" not in confirmation], (needed, confirmation)

    sent_before = log.read_bytes().count(message.encode())
    lens.tab("Collections")
    lens.click("Run all steps")
    lens.wait_text("1 of 1 passed", timeout=60_000)
    wire = log.read_bytes()
    assert wire.count(message.encode()) == sent_before + 1  # the real values went again
    assert b"redacted" not in wire and b"${" not in wire


def test_a_cut_collection_opens_with_its_intact_steps_in_the_collections_tab(lens, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QListWidget

    from inspector.checks.collection import Collection

    collection = Collection("cut")
    for number in range(5):
        params = {"name": "echo", "arguments": {"message": f"m{number}"}}
        collection.add_step("tools/call", params, server="Demo server")
    data = collection.dumps().encode()
    path = tmp_path / "cut.json"
    path.write_bytes(data[: data.index(b'"id": "s4"') + 20])  # three whole steps, then part of the fourth
    lens.start()
    lens.tab("Collections")
    lens.click("Open a collection")
    choose_file(lens, path)
    steps = lens.find("Collection steps", QListWidget)
    lens.wait(lambda: steps.count() == 3, what="the three intact steps")
    status = lens.find("Run status", QLabel).text()
    assert "3 intact steps shown" in status and "what followed step s3 is lost" in status, status
    lens.click("Run all steps")
    lens.wait_text("3 of 3 passed", timeout=60_000)
    assert lens.quit() == 0
