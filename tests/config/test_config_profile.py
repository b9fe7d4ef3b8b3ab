"""ServerProfile: entries in every dialect, validation messages, secrets and redaction."""

from __future__ import annotations

import pytest

from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.redact import REDACTED, is_placeholder, redact_headers


def test_stdio_entry_round_trip_omits_empty_fields() -> None:
    entry = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]}
    profile = ServerProfile.from_entry("everything", entry)
    assert profile.transport == "stdio"
    assert profile.args == ["-y", "@modelcontextprotocol/server-everything"]
    assert profile.to_entry() == entry  # no empty "env", no "cwd": None
    profile.env = {"DEBUG": "1"}
    profile.cwd = "/srv"
    assert profile.to_entry() == {**entry, "env": {"DEBUG": "1"}, "cwd": "/srv"}


@pytest.mark.parametrize(
    ("entry", "transport"),
    [
        ({"type": "http", "url": "https://example.com/mcp"}, "http"),
        ({"type": "sse", "url": "https://example.com/events"}, "sse"),
        ({"type": "streamable-http", "url": "https://example.com/mcp"}, "http"),
        ({"url": "https://example.com/mcp"}, "http"),  # Cursor: no type
        ({"url": "https://example.com/sse"}, "sse"),
        ({"url": "https://example.com/v1/sse/"}, "sse"),
        ({"url": "https://example.com/sse-proxy/mcp"}, "http"),
        ({"serverUrl": "https://example.com/mcp"}, "http"),  # Windsurf spelling
        ({"type": "stdio", "command": "uvx", "args": ["mcp-server-time"]}, "stdio"),
    ],
)
def test_transport_from_every_dialect(entry: dict, transport: str) -> None:
    assert ServerProfile.from_entry("s", entry).transport == transport


def test_bearer_header_becomes_token_and_back() -> None:
    entry = {"type": "http", "url": "https://x.test/mcp", "headers": {"authorization": "Bearer abc.def", "X-A": "1"}}
    profile = ServerProfile.from_entry("remote", entry)
    assert profile.bearer_token == "abc.def"
    assert profile.headers == {"X-A": "1"}
    assert profile.to_entry() == {
        "type": "http",
        "url": "https://x.test/mcp",
        "headers": {"X-A": "1", "Authorization": "Bearer abc.def"},
    }


def test_basic_auth_header_stays_a_header() -> None:
    profile = ServerProfile.from_entry("r", {"url": "https://x.test/mcp", "headers": {"Authorization": "Basic Zm9v"}})
    assert profile.bearer_token is None
    assert profile.headers == {"Authorization": "Basic Zm9v"}


@pytest.mark.parametrize(
    ("entry", "field", "fragment"),
    [
        ({"command": "npx", "args": ["-y", 3]}, "args[1]", "expected a string, got int"),
        ({"command": "npx", "args": "-y pkg"}, "args", "expected a list of strings"),
        ({"command": "npx", "env": {"PORT": 8080}}, "env.PORT", "expected a string, got int"),
        ({"type": "stdio", "url": "https://x.test"}, "command", "needs a 'command'"),
        ({"type": "websocket", "url": "wss://x.test"}, "type", "unknown type 'websocket'"),
        ({"type": "http", "url": "ftp://x.test/mcp"}, "url", "expected an http:// or https:// URL"),
        ({"type": "http"}, "url", "needs a 'url'"),
        ({"command": ""}, "command", "needs a 'command'"),
    ],
)
def test_validation_errors_say_what_and_where(entry: dict, field: str, fragment: str) -> None:
    with pytest.raises(ProfileError) as info:
        ServerProfile.from_entry("my-server", entry, source="/tmp/mcp.json")
    err = info.value
    assert (err.source, err.server, err.field) == ("/tmp/mcp.json", "my-server", field)
    assert fragment in str(err)
    assert str(err).startswith(f"/tmp/mcp.json, server 'my-server', field '{field}': ")


def test_entry_without_command_or_url_is_rejected() -> None:
    with pytest.raises(ProfileError, match="neither 'command' nor 'url'"):
        ServerProfile.from_entry("x", {"args": []})
    with pytest.raises(ProfileError, match="expected an object, got list"):
        ServerProfile.from_entry("x", ["npx"])


def test_url_with_unexpanded_variable_is_allowed() -> None:
    profile = ServerProfile.from_entry("x", {"type": "http", "url": "${BASE}/mcp"})
    assert profile.url == "${BASE}/mcp"


@pytest.mark.parametrize(
    ("profile", "secret"),
    [
        (ServerProfile("a", command="npx"), False),
        (ServerProfile("a", command="npx", env={"GITHUB_TOKEN": "ghp_123"}), True),
        (ServerProfile("a", command="npx", env={"OPENAI_API_KEY": "sk-1"}), True),
        (ServerProfile("a", command="npx", env={"DB_PASSWORD": "hunter2"}), True),
        (ServerProfile("a", command="npx", env={"CLIENT_SECRET": "s"}), True),
        (ServerProfile("a", command="npx", env={"LOG_LEVEL": "debug"}), False),
        (ServerProfile("a", command="npx", env={"GITHUB_TOKEN": "${GITHUB_TOKEN}"}), False),
        (ServerProfile("a", command="npx", env={"API_KEY": "${input:key}"}), False),
        (ServerProfile("a", command="npx", env={"API_KEY": ""}), False),
        (ServerProfile("a", command="npx", args=["--api-key", "sk-1"]), True),
        (ServerProfile("a", command="npx", args=["--token=abc"]), True),
        (ServerProfile("a", command="npx", args=["--token", "${T}"]), False),
        (ServerProfile("a", "http", url="https://x.test/mcp", bearer_token="t0k"), True),
        (ServerProfile("a", "http", url="https://x.test/mcp", bearer_token="${TOKEN}"), False),
        (ServerProfile("a", "http", url="https://x.test/mcp", headers={"X-Api-Key": "k"}), True),
        (ServerProfile("a", "http", url="https://x.test/mcp", headers={"Cookie": "sid=1"}), True),
        (ServerProfile("a", "http", url="https://x.test/mcp", headers={"X-Team": "core"}), False),
        (ServerProfile("a", "http", url="https://x.test/mcp", headers={"X-Sig": "s"}, secret_headers=["x-sig"]), True),
        (ServerProfile("a", "http", url="https://x.test/mcp?api_key=abc"), True),
        (ServerProfile("a", "http", url="https://u:pw@x.test/mcp"), True),
    ],
)
def test_has_secrets(profile: ServerProfile, secret: bool) -> None:
    assert profile.has_secrets() is secret


def test_redacted_hides_every_secret_and_leaves_the_original() -> None:
    profile = ServerProfile(
        "r",
        "http",
        url="https://u:pw@x.test/mcp?token=abc&page=2",
        headers={"Authorization": "Basic Zm9v", "X-Sig": "sig", "X-Team": "core", "X-Api-Key": "${KEY}"},
        bearer_token="t0k",
        secret_headers=["X-Sig"],
        env={"API_KEY": "k", "MODE": "fast"},
        args=["--api-key", "sk-1", "--password=pw", "--verbose"],
    )
    red = profile.redacted()
    assert red.bearer_token == REDACTED
    assert red.headers == {
        "Authorization": f"Basic {REDACTED}",
        "X-Sig": REDACTED,
        "X-Team": "core",
        "X-Api-Key": "${KEY}",
    }
    assert red.env == {"API_KEY": REDACTED, "MODE": "fast"}
    assert red.args == ["--api-key", REDACTED, f"--password={REDACTED}", "--verbose"]
    assert "pw" not in red.url and "abc" not in red.url and "page=2" in red.url
    assert not red.has_secrets()
    assert profile.bearer_token == "t0k" and profile.env["API_KEY"] == "k"  # original untouched


def test_placeholder_detection() -> None:
    assert is_placeholder("${X}")
    assert is_placeholder("Bearer ${input:token}")
    assert not is_placeholder("prefix-${X}")
    assert not is_placeholder("plain")
    assert redact_headers({"Proxy-Authorization": "Bearer zz"}) == {"Proxy-Authorization": f"Bearer {REDACTED}"}


def test_clone_is_deep() -> None:
    profile = ServerProfile("a", command="npx", args=["x"], env={"A": "1"})
    copy = profile.clone(name="b")
    copy.args.append("y")
    copy.env["B"] = "2"
    assert (profile.name, profile.args, profile.env) == ("a", ["x"], {"A": "1"})


def test_the_auth_extension_secrets_are_redacted_kept_private_and_saved_round_trip(tmp_path) -> None:
    from inspector.config.redact import Redactor
    from inspector.config.store import ProfileStore

    secret = "idp secret value 5f1c2a9d"
    profile = ServerProfile(
        name="ema",
        transport="http",
        url="https://mcp.example.test/mcp",
        oauth_grant="enterprise",
        oauth_client_id="ema-client",
        oauth_idp_token_endpoint="https://idp.example.test/token",
        oauth_idp_client_id="idp-client",
        oauth_idp_client_secret=secret,
        oauth_assertion_env="ID_TOKEN",
        oauth_issuer="https://as.example.test",
        oauth_dpop=True,
    )
    assert profile.has_secrets()
    assert profile.redacted().oauth_idp_client_secret == REDACTED
    assert profile.oauth_idp_client_secret == secret
    assert secret not in Redactor.for_profile(profile).text(f"Authorization: {secret}")
    store = ProfileStore(tmp_path / "servers.json")
    store.load()
    store.add(profile)
    store.save()
    assert (tmp_path / "servers.json").stat().st_mode & 0o777 == 0o600
    again = ProfileStore(tmp_path / "servers.json")
    again.load()
    loaded = again.get("ema")
    fields = ("oauth_grant", "oauth_idp_token_endpoint", "oauth_idp_client_id", "oauth_idp_client_secret")
    fields += ("oauth_assertion_env", "oauth_issuer", "oauth_dpop")
    assert [getattr(loaded, f) for f in fields] == [getattr(profile, f) for f in fields]
