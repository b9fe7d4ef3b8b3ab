"""A collection saved in the app from the demo, and from a server opened on the command line and never
saved, runs headless with no target and no saved profile (issue 22: "no saved server profile named
'Demo server'")."""

from __future__ import annotations

import json
from pathlib import Path

from lens_support import run_lens
from test_collections import save_shown_call
from test_traffic import call


def test_steps_from_the_demo_and_an_unsaved_server_run_headless(lens, tmp_path: Path, everything: str) -> None:
    path = tmp_path / "reach.json"
    lens.start()
    call(lens, "Echo (echo)", message="from-the-demo")
    lens.wait(lambda: any(b"from-the-demo" in e.raw and e.direction == "in" for e in lens.wire()))
    save_shown_call(lens, path)
    assert lens.quit() == 0

    lens.start("node", everything, "stdio")
    call(lens, "echo", message="from-everything")
    lens.wait(lambda: any(b"from-everything" in e.raw and e.direction == "in" for e in lens.wire()))
    save_shown_call(lens, None)
    assert lens.quit() == 0

    saved = json.loads(path.read_text())
    servers = [step["server"] for step in saved["steps"]]
    assert servers[0] == "Demo server" and servers[1] in saved["servers"]
    assert saved["servers"][servers[1]]["args"] == [everything, "stdio"]
    done = run_lens("run", str(path), "--format", "json")  # the fresh home: no saved profile at all
    assert done.returncode == 0, done.stdout + done.stderr
    assert [s["status"] for s in json.loads(done.stdout)["steps"]] == ["passed", "passed"]
