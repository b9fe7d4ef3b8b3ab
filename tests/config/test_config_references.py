"""References kept in profiles (`${VAR}`, `${env:VAR}`, `${input:ID}`) and their resolution at connect."""

from __future__ import annotations

import pytest

from inspector.config.profile import ServerProfile
from inspector.config.references import (
    Unresolved,
    describe_input,
    has_references,
    needed_inputs,
    resolve_profile,
    resolve_text,
)
from inspector.config.store import ProfileStore

DECL = {"id": "api-key", "type": "promptString", "description": "API key", "password": True}


def stdio(**changes) -> ServerProfile:
    base = ServerProfile(
        name="s",
        command="${HOME}/bin/server",
        args=["--region", "${REGION:-eu}", "--key=${input:api-key}"],
        env={"TOKEN": "${env:TOKEN}", "PLAIN": "x", "BOTH": "${input:api-key}-${input:other}"},
        inputs=[dict(DECL)],
    )
    return base.clone(**changes)


def test_resolve_text_forms() -> None:
    env = {"A": "1", "EMPTY": ""}
    assert resolve_text("${A}|${env:A}|${B:-two}|${EMPTY:-x}|${input:k}", env, {"k": "v"}) == ("1|1|two||v", [], [])
    text, missing, problems = resolve_text("${input:k} ${env:NOPE} ${NOPE} ${command:pick}", env, {})
    assert text == "${input:k} ${env:NOPE} ${NOPE} ${command:pick}" and missing == ["k"]
    assert [p.split()[0] for p in problems] == ["environment", "environment", "${command:pick}"]


def test_an_input_value_is_never_expanded_again() -> None:
    assert resolve_text("${input:k}", {"X": "no"}, {"k": "${X}"})[0] == "${X}"


def test_needed_inputs_and_descriptions() -> None:
    profile = stdio()
    assert has_references(profile) and needed_inputs(profile) == ["api-key", "other"]
    assert describe_input(profile, "api-key") == "api-key ('API key')" and describe_input(profile, "other") == "other"
    assert not has_references(ServerProfile(name="p", command="node"))


def test_resolve_profile_makes_a_copy_and_keeps_the_original() -> None:
    profile = stdio()
    resolved = resolve_profile(profile, {"HOME": "/h", "TOKEN": "t0k"}, {"api-key": "K", "other": "O"})
    assert resolved.command == "/h/bin/server"
    assert resolved.args == ["--region", "eu", "--key=K"]
    assert resolved.env == {"TOKEN": "t0k", "PLAIN": "x", "BOTH": "K-O"}
    assert profile.env["TOKEN"] == "${env:TOKEN}" and resolved is not profile
    plain = ServerProfile(name="p", command="node")
    assert resolve_profile(plain, {}) is plain


def test_http_fields_resolve() -> None:
    profile = ServerProfile(
        name="h",
        transport="http",
        url="${BASE:-http://127.0.0.1:1}/mcp",
        headers={"X": "${env:X}"},
        bearer_token="${input:t}",
    )
    resolved = resolve_profile(profile, {"X": "x"}, {"t": "tok"})
    assert (resolved.url, resolved.headers, resolved.bearer_token) == ("http://127.0.0.1:1/mcp", {"X": "x"}, "tok")


def test_unresolved_names_every_missing_input_and_variable() -> None:
    with pytest.raises(Unresolved) as info:
        resolve_profile(stdio(), {"HOME": "/h"}, {"other": "O"})
    assert info.value.inputs == ["api-key"]
    assert any("TOKEN" in p for p in info.value.problems)
    assert "api-key ('API key')" in str(info.value) and "server 's'" in str(info.value)


def test_store_keeps_references_and_input_declarations(tmp_path) -> None:
    store = ProfileStore(tmp_path / "servers.json")
    store.load()
    store.add(stdio())
    store.save()
    text = (tmp_path / "servers.json").read_text()
    assert "${input:api-key}" in text and '"password": true' in text
    again = ProfileStore(tmp_path / "servers.json")
    assert again.load()[0] == stdio()
