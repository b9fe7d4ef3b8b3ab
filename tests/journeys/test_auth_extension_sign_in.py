"""A workload's server: the user picks the workload identity grant in the Auth tab, names the JWT file, ticks
DPoP-bound tokens, signs in without a browser, and the app connects through DPoP proofs and both servers'
nonces (issue 26, point 7; the server is tests/servers/auth_extensions.py)."""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, serve
from PySide6.QtWidgets import QComboBox

SERVER = Path(__file__).parents[1] / "servers" / "auth_extensions.py"


def test_workload_identity_with_dpop_from_the_auth_tab(lens, tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    now = int(time.time())
    workload = jwt.encode({"sub": "journey", "aud": base, "iat": now, "exp": now + 900}, key, algorithm="ES256")
    (tmp_path / "workload.jwt").write_text(workload)
    for _ in serve([sys.executable, str(SERVER), str(port), str(public), "--dpop", "--nonce"], port):
        lens.start(f"{base}/mcp", connected=False)
        lens.wait_status(lambda text: "connected to" not in text and bool(text), timeout=30_000)
        lens.tab("Auth")
        lens.click("OAuth client…")
        grant = lens.find("OAuth grant", QComboBox)
        grant.setFocus()
        lens.key("Down", grant)
        lens.key("Down", grant)
        assert grant.currentText().startswith("Workload identity")
        assert not lens.has("OAuth client secret") or not lens.find("OAuth client secret").isVisible()
        lens.type("OAuth client id", "journey-workload")
        lens.type("Workload JWT file path", str(tmp_path / "workload.jwt"))
        lens.click("DPoP-bound tokens")
        lens.click("Save to profile")
        lens.click("Sign in")
        lens.wait_connected(timeout=60_000)
        lens.tab("Tools")
        lens.wait_text("whoami", timeout=30_000)
        with urllib.request.urlopen(f"{base}/stats", timeout=10) as response:
            stats = json.loads(response.read())
        assert [t["dpop"] for t in stats["token_requests"]][-2:] == ["nonce asked", "ok"]
        assert {r["scheme"] for r in stats["resource"] if r["scheme"]} == {"DPoP"}
        assert not [r for r in stats["resource"] if "problem" in r]
        assert lens.quit() == 0


def test_the_auth_tab_follows_a_selected_http_server_before_any_connect(lens) -> None:
    """A grant can be set before the first Connect: the Auth tab shows the selected (never connected) server."""
    folder = lens.home / ".config" / "mcp-lens"
    folder.mkdir(parents=True, exist_ok=True)
    servers = {"workload": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}
    (folder / "servers.json").write_text(json.dumps({"mcpServers": servers}))
    lens.start()
    lens.click_item("Servers", "workload")
    lens.tab("Auth")
    lens.wait(lambda: lens.shows("http://127.0.0.1:9/mcp"), what="the Auth tab names the selected server")
    assert not lens.shows("runs over stdio") and not lens.shows("No server selected"), lens.texts()
    button = lens.find("OAuth client…")
    assert button.isEnabled()
    lens.click(button)
    assert lens.find("OAuth grant", QComboBox).isVisible()
    assert lens.quit() == 0
