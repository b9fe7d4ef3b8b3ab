"""The URL policy for URL-mode elicitation: only http/https links with a host are ever opened."""

from __future__ import annotations

import pytest

from inspector.core.url_policy import MAX_URL_LENGTH, check_url


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "https://example.com:8443/path?q=1#frag",
        "HTTPS://EXAMPLE.COM/upper",
        "http://127.0.0.1:8080/callback",
        "http://localhost/x",
        "https://[::1]:9000/",
    ],
)
def test_http_and_https_are_allowed(url: str) -> None:
    verdict = check_url(url)
    assert verdict.allowed and verdict.reason == "" and verdict.host
    assert verdict.warnings == ()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("javascript:alert(1)", "'javascript:' links are never opened"),
        ("JavaScript:alert(document.cookie)", "'javascript:'"),
        ("file:///etc/passwd", "'file:'"),
        ("data:text/html,<script>alert(1)</script>", "'data:'"),
        ("vbscript:msgbox", "'vbscript:'"),
        ("ftp://example.com/file", "'ftp:'"),
        ("mailto:someone@example.com", "'mailto:'"),
        ("ssh://host", "'ssh:'"),
        ("//example.com/no-scheme", "no scheme"),
        ("example.com", "no scheme"),
        ("https:///no-host", "no host"),
        ("https://", "no host"),
        ("", "no URL"),
        (None, "no URL"),
        (42, "not text"),
        ("https://exa mple.com/", "spaces or control characters"),
        (" javascript:alert(1)", "spaces or control characters"),
        ("java\tscript:alert(1)", "spaces or control characters"),
        ("https://example.com/\x00", "control characters"),
        ("https://example.com:99999999/", "malformed"),
        ("https://[::1/", "malformed"),
        ("https://example.com/" + "a" * MAX_URL_LENGTH, "characters long"),
    ],
)
def test_everything_else_is_refused_with_a_reason(url: object, says: str) -> None:
    verdict = check_url(url)
    assert not verdict.allowed
    assert says in verdict.reason


def test_credentials_before_the_host_are_flagged_with_the_real_host() -> None:
    verdict = check_url("https://bank.example.com@evil.example/login")
    assert verdict.allowed and verdict.host == "evil.example"
    assert any("really is on evil.example" in warning for warning in verdict.warnings)


def test_international_and_punycode_hosts_are_flagged() -> None:
    assert any("international" in w for w in check_url("https://xn--pple-43d.com/").warnings)
    assert any("international" in w for w in check_url("https://аpple.com/").warnings)


def test_plain_http_to_a_remote_host_is_flagged_but_loopback_is_not() -> None:
    assert any("not encrypted" in w for w in check_url("http://example.com/").warnings)
    assert check_url("http://127.0.0.1/").warnings == ()
