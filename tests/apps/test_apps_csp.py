"""The app's content-security policy: nothing declared is no network; declared origins open their directive only."""

from __future__ import annotations

from inspector.apps import csp

DECLARED = {
    "connectDomains": ["https://api.example.com", "wss://live.example.com:8443"],
    "resourceDomains": ["https://*.cdn.example.com"],
    "frameDomains": ["https://player.example.org"],
}


def directives(policy: str) -> dict[str, str]:
    return {d.split(" ", 1)[0]: d.split(" ", 1)[1] for d in policy.split("; ")}


def test_nothing_declared_is_no_network() -> None:
    for meta in (None, {}, {"connectDomains": []}):
        rules = directives(csp.policy(meta))
        assert rules["default-src"] == rules["connect-src"] == rules["frame-src"] == "'none'"
        assert rules["script-src"] == "'unsafe-inline'" and rules["img-src"] == "data: blob:"
        assert csp.summary(meta) == "Network: none"
    assert not csp.allowed("http://127.0.0.1:1/steal", None, "connect")
    assert csp.allowed("data:image/png;base64,AAAA", None, "resource")
    assert not csp.allowed("data:text/html,x", None, "frame")


def test_declared_origins_open_their_directive_only() -> None:
    rules = directives(csp.policy(DECLARED))
    assert rules["connect-src"] == "https://api.example.com wss://live.example.com:8443"
    assert rules["script-src"] == "'unsafe-inline' https://*.cdn.example.com"
    assert rules["frame-src"] == "https://player.example.org" and rules["base-uri"] == "'self'"
    assert csp.summary(DECLARED).splitlines() == [
        "Connects to: https://api.example.com, wss://live.example.com:8443",
        "Loads resources from: https://*.cdn.example.com",
        "Frames: https://player.example.org",
    ]
    allowed = [
        ("https://api.example.com/v1/data?q=1", "connect"),
        ("https://API.example.com:443/", "connect"),
        ("wss://live.example.com:8443/socket", "connect"),
        ("https://a.cdn.example.com/app.js", "resource"),
        ("https://player.example.org/embed/1", "frame"),
    ]
    refused = [
        ("http://api.example.com/", "connect"),  # another scheme
        ("https://api.example.com:8443/", "connect"),  # another port
        ("https://api.example.com.evil.net/", "connect"),
        ("https://api.example.com/", "resource"),  # declared for connect, not resources
        ("https://cdn.example.com/app.js", "resource"),  # the wildcard needs a subdomain
        ("wss://live.example.com/socket", "connect"),  # default port 443, 8443 declared
        ("https://player.example.org/", "connect"),
    ]
    assert all(csp.allowed(url, DECLARED, kind) for url, kind in allowed)
    assert not any(csp.allowed(url, DECLARED, kind) for url, kind in refused)


def test_a_malformed_origin_cannot_smuggle_a_directive() -> None:
    meta = {"connectDomains": ["https://ok.example.com", "https://x.com; script-src *", "*", 7], "frameDomains": "x"}
    rules = directives(csp.policy(meta))
    assert rules["connect-src"] == "https://ok.example.com" and rules["script-src"] == "'unsafe-inline'"
    assert len(csp.policy(meta).split("; ")) == len(csp.policy(None).split("; "))
    assert csp.findings(meta) == [
        "_meta.ui.csp.connectDomains: 'https://x.com; script-src *' is not an origin; ignored",
        "_meta.ui.csp.connectDomains: '*' is not an origin; ignored",
        "_meta.ui.csp.connectDomains: 7 is not an origin; ignored",
        "_meta.ui.csp.frameDomains is not a list; ignored",
    ]
