"""Property-based (issue 21 point 3): the auth extension fields MCP Lens keeps in servers.json
(``x-mcp-lens``: oauthGrant, oauthAssertionFile, oauthIdp…, oauthIssuer, oauthDpop) edited by hand into
any JSON value: the file is read (each server it can) or refused naming the file and the field, never with
another exception, and a server read from it holds only values of the field's type."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore

SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
FIELDS = (
    "oauthGrant",
    "oauthAssertionFile",
    "oauthAssertionEnv",
    "oauthIdpTokenEndpoint",
    "oauthIdpIssuer",
    "oauthIdpClientId",
    "oauthIssuer",
    "oauthDpop",
    "oauthScopes",
    "oauthClientId",
)
_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def saved(folder: Path) -> dict:
    (folder / "made.json").unlink(missing_ok=True)
    store = ProfileStore(folder / "made.json")
    store.load()
    store.add(
        ServerProfile(
            "workload ✓",
            "http",
            url="https://x.test/mcp",
            oauth_client_id="client",
            oauth_scopes="read write",
            oauth_grant="workload",
            oauth_assertion_file="/home/zoë/jwt",
            oauth_assertion_env="WORKLOAD_JWT",
            oauth_idp_token_endpoint="https://idp.test/token",
            oauth_idp_issuer="https://idp.test",
            oauth_idp_client_id="idp-client",
            oauth_issuer="https://as.test",
            oauth_dpop=True,
        )
    )
    store.add(ServerProfile("plain", command="python", args=["-m", "demo"]))
    store.save()
    return json.loads(store.path.read_text(encoding="utf-8"))


@SETTINGS
@given(edits=st.dictionaries(st.sampled_from(FIELDS), _json, min_size=1, max_size=4))
def test_auth_fields_of_any_json_value_are_read_or_refused_naming_the_field(tmp_path: Path, edits) -> None:
    data = saved(tmp_path)
    data["x-mcp-lens"]["servers"]["workload ✓"].update(edits)
    path = tmp_path / "servers.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    store = ProfileStore(path)
    try:
        profiles = store.load()
    except ProfileError as exc:
        assert str(path) in str(exc) and any(field in str(exc) for field in edits), str(exc)
        return
    assert "plain" in [p.name for p in profiles]
    for profile in profiles:
        assert isinstance(profile.oauth_dpop, bool)
        for name in (
            "oauth_grant",
            "oauth_assertion_file",
            "oauth_assertion_env",
            "oauth_idp_token_endpoint",
            "oauth_idp_issuer",
            "oauth_idp_client_id",
            "oauth_issuer",
            "oauth_scopes",
            "oauth_client_id",
        ):
            value = getattr(profile, name)
            assert value is None or isinstance(value, str), (name, value)
