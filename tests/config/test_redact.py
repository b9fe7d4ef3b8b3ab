"""Redaction: by value first (`Redactor`), by name as the fallback."""

from __future__ import annotations

import json

import pytest

from inspector.config.profile import ServerProfile
from inspector.config.redact import (
    REDACTED,
    Redactor,
    is_secret_header,
    is_secret_name,
    looks_secret,
    redact_args,
    redact_dsn,
    redact_url,
)
from inspector.config.references import resolve_profile


@pytest.mark.parametrize(
    "name", ["DB_PASS", "GH_PAT", "X-Session", "sig", "apiKey", "ACCESS_TOKEN", "authToken", "SENTRY_DSN", "dbPassword"]
)
def test_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "PATH",
        "PWD",
        "OLDPWD",
        "author",
        "compass",
        "region",
        "LANG",
        "PYTHONPATH",
        "XDG_SESSION_TYPE",
        "DESKTOP_SESSION",
        "SSH_AUTH_SOCK",
    ],
)
def test_plain_names(name: str) -> None:
    assert not is_secret_name(name)


def test_a_taps_environment_gives_its_secrets_not_the_desktops() -> None:
    environ = {"GH_PAT": "pat value 123", "DESKTOP_SESSION": "ubuntu", "XDG_SESSION_TYPE": "wayland", "HOME": "/h"}
    r = Redactor.for_environment(environ, ["server", "--api-key", "flag value 456"])
    assert r.text("pat value 123 ubuntu wayland /h flag value 456") == f"{REDACTED} ubuntu wayland /h {REDACTED}"


def test_session_header_is_secret() -> None:
    assert is_secret_header("X-Session") and is_secret_header("X-Tenant", ["x-tenant"])


@pytest.mark.parametrize("value", ["ghp_abcdefghijkl0123", "CANARY-ENV-0123456789abcdef", "Bearer x", "sk-012345678"])
def test_credential_shaped_values(value: str) -> None:
    assert looks_secret(value)


@pytest.mark.parametrize(
    "value",
    [
        "production",
        "/usr/local/bin/server2024",
        "1.2.3",
        "hello world 12345678",
        "",
        "gpt-4o-mini-2024-07-18",
        "--max-old-space-size=4096",
    ],
)
def test_plain_values(value: str) -> None:
    assert not looks_secret(value)


def test_url_query_secrets_are_redacted_by_name() -> None:
    url = redact_url("https://h/mcp?token=abc&sig=def&apikey=ghi&region=eu")
    assert "abc" not in url and "def" not in url and "ghi" not in url and "region=eu" in url


def test_dsn_password_is_redacted() -> None:
    assert redact_dsn("postgres://u:pw123@h/db and more") == f"postgres://u:{REDACTED}@h/db and more"
    assert redact_args(["--db", "mysql://root:hunter22@localhost/x"]) == [
        "--db",
        f"mysql://root:{REDACTED}@localhost/x",
    ]


def test_redactor_hides_every_spelling() -> None:
    secret = 'pass word "with" quotes/and+plus'
    r = Redactor([secret])
    for spelling in (secret, json.dumps(secret)[1:-1], "pass%20word%20%22with%22%20quotes%2Fand%2Bplus"):
        assert r.text(f"x {spelling} y") == f"x {REDACTED} y"
    assert r.data(json.dumps({"v": secret}).encode()) == b'{"v": "<redacted>"}'


def test_short_numeric_and_date_values_are_not_redacted_by_value() -> None:
    r = Redactor(["json", "12345678", "2025-06-18", "1.2.3-4"])
    assert not r and r.text("json 12345678 2025-06-18") == "json 12345678 2025-06-18"


def test_the_protocols_session_ids_stay_readable() -> None:
    assert not is_secret_header("Mcp-Session-Id") and is_secret_header("X-Session-Id")
    assert redact_url("http://h/messages/?session_id=abc123") == "http://h/messages/?session_id=abc123"


def test_profile_values_are_known_whatever_their_name() -> None:
    profile = ServerProfile(
        "s",
        transport="http",
        url="https://h/mcp?region=europe-west&sig=abcdef123",
        headers={"X-Session": "sessionvalue1", "X-Tenant": "CANARY-TENANT-0123456789abcdef"},
        env={"DATABASE_URL": "postgres://u:dsnpassword@h/db"},
    )
    r = Redactor.for_profile(profile)
    for value in ("europe-west", "abcdef123", "sessionvalue1", "CANARY-TENANT-0123456789abcdef", "dsnpassword"):
        assert r.text(f"<{value}>") == f"<{REDACTED}>"


def test_reference_values_are_secret_values() -> None:
    profile = ServerProfile("s", command="srv", env={"PLAIN_SETTING": "${input:opt}"}, args=["--x", "${env:THING}"])
    resolved = resolve_profile(profile, {"THING": "thing value one"}, {"opt": "opt value two"})
    r = Redactor.for_profile(resolved)
    assert r.text("thing value one / opt value two") == f"{REDACTED} / {REDACTED}"
    safe = resolved.redacted()
    assert safe.env == {"PLAIN_SETTING": REDACTED} and safe.args == ["--x", REDACTED]
    assert "secret_values" not in json.dumps(resolved.to_entry())


def test_a_references_default_is_no_secret_value() -> None:
    profile = ServerProfile("s", command="srv", env={"MODE": "${MODE:-production}", "KEY_ID": "${KEY_ID}"})
    resolved = resolve_profile(profile, {"KEY_ID": "key id value"}, {})
    assert resolved.secret_values == ("key id value",)


def test_redacted_profile_hides_unknown_names_by_shape() -> None:
    profile = ServerProfile("s", command="srv", env={"SERVICE_OPTION": "CANARY-ENV-0123456789abcdef", "MODE": "fast"})
    assert profile.redacted().env == {"SERVICE_OPTION": REDACTED, "MODE": "fast"}


def test_http_meta_url_and_headers() -> None:
    r = Redactor(["sessionvalue1"])
    meta = {"url": "http://h/mcp?token=abc", "headers": [["X-Other", "a sessionvalue1 b"], ["Cookie", "c=1"]]}
    out = r.http(meta)
    assert out == {
        "url": f"http://h/mcp?token={REDACTED}",
        "headers": [["X-Other", f"a {REDACTED} b"], ["Cookie", REDACTED]],
    }


def test_a_query_value_that_is_one_plain_word_is_not_hidden_everywhere() -> None:
    """`?format=markdown` must not turn every "markdown" in the traffic into <redacted>; a value under a
    secret-looking name is hidden whatever its shape."""
    profile = ServerProfile("s", transport="http", url="https://h/mcp?format=markdown&view=Compact&key=hunter")
    r = Redactor.for_profile(profile)
    assert r.text("markdown Compact hunter") == f"markdown Compact {REDACTED}"


def test_tool_arguments_under_secret_names_are_found_and_hidden_but_numbers_are_not_secrets() -> None:
    """h13 point 3: what the user typed under `password` or a nested `apiToken` is learned for redaction by
    value and hidden by name in History; `max_tokens: 200` is a number, not a secret."""
    from inspector.config.redact import hide_secret_arguments, secret_arguments

    arguments = {"message": "hi", "max_tokens": 200, "password": "pw", "auth": {"apiToken": "tok-123456"}}
    assert secret_arguments(arguments) == ["pw", "tok-123456"]
    assert hide_secret_arguments(arguments) == {
        "message": "hi",
        "max_tokens": 200,
        "password": "<redacted>",
        "auth": {"apiToken": "<redacted>"},
    }


def test_a_short_secret_argument_is_hidden_as_a_whole_json_string_in_its_message() -> None:
    """The tap's by-name fallback: a typed value too short to learn is hidden in its own request, in
    either spelling a host's JSON encoder may use, and only where it is a whole string."""
    from inspector.config.redact import hide_json_strings

    raw = b'{"arguments":{"user":"pwd","password":"pwd","pin":"\\u00e9t\\"e","note":"pwd2 pwd"}}'
    hidden = hide_json_strings(raw, ["pwd", 'ét"e'])
    assert json.loads(hidden)["arguments"] == {
        "user": REDACTED,  # the same string in that one message goes with it
        "password": REDACTED,
        "pin": REDACTED,
        "note": "pwd2 pwd",
    }
    assert hide_json_strings('{"p":"ét"}'.encode(), ["ét"]) == f'{{"p":"{REDACTED}"}}'.encode()
    assert hide_json_strings(b'{"p":""}', [""]) == b'{"p":""}'
