"""A collection saved from a server that is not a saved profile still runs (issue 22): `mcp-lens run` knows
the demo, and a collection records how to reach each step's server (its mcp.json entry, secrets redacted)."""

from __future__ import annotations

import json

import pytest

from inspector.checks.collection import Collection, load
from inspector.cli import exit_codes
from inspector.cli.run import main
from inspector.demo.launch import demo_profile


@pytest.fixture
def no_profiles(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


def test_a_step_for_the_demo_runs_without_a_saved_profile(tmp_path, no_profiles, capsys) -> None:
    collection = Collection("from the demo")
    collection.add_step(
        "tools/list", {}, server=demo_profile().name, expect=[{"kind": "tokens_under", "tokens": 1_000_000}]
    )
    path = tmp_path / "c.json"
    collection.save(path)
    assert main([str(path), "--format", "json"]) == exit_codes.OK, capsys.readouterr()
    assert [s["status"] for s in json.loads(capsys.readouterr().out)["steps"]] == ["passed"]


def test_the_collection_records_how_to_reach_an_unsaved_server(tmp_path, no_profiles, everything, capsys) -> None:
    collection = Collection("from the command line")
    entry = {"command": "node", "args": [everything, "stdio"], "env": {"API_TOKEN": "${API_TOKEN}"}}
    collection.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": "hi"}},
        server="server-everything",
        reach=entry,
        expect=[{"kind": "equals", "path": "$.result.content[0].text", "value": "Echo: hi"}],
    )
    path = tmp_path / "c.json"
    collection.save(path)
    assert load(path).servers == {"server-everything": entry}
    assert load(path).dumps() == path.read_text()  # byte-stable
    assert main([str(path), "--format", "json"]) == exit_codes.USAGE  # ${API_TOKEN} is not set: said first
    assert "API_TOKEN" in capsys.readouterr().err
    entry.pop("env")
    collection.servers["server-everything"] = entry
    collection.save(path)
    assert main([str(path), "--format", "json"]) == exit_codes.OK, capsys.readouterr()
    out = capsys.readouterr()
    assert [s["status"] for s in json.loads(out.out)["steps"]] == ["passed"]
    # the file, not a profile the user saved, names what is started: said on stderr
    assert (
        f"server-everything: no saved profile; reached as the collection records it: node {everything} stdio" in out.err
    )


def test_a_collection_without_servers_keeps_its_bytes(tmp_path) -> None:
    collection = Collection("plain")
    collection.add_step("tools/list", {}, server="Somewhere")
    assert "servers" not in json.loads(collection.dumps())


def test_what_the_app_records_keeps_no_secret() -> None:
    from inspector.checks.collection import reach_of
    from inspector.config.profile import ServerProfile

    profile = ServerProfile(
        name="cmd",
        transport="stdio",
        command="node",
        args=["s.js"],
        env={"API_TOKEN": "sk-live-0123456789abcdef", "MODE": "x"},
    )
    entry = reach_of(profile)
    assert entry == {"command": "node", "args": ["s.js"], "env": {"API_TOKEN": "${API_TOKEN}", "MODE": "x"}}
    assert "sk-live" not in json.dumps(reach_of(demo_profile())) and reach_of(demo_profile())["command"]
