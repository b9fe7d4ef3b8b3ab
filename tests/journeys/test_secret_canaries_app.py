"""Secret canaries through the app as launched (issue 21, point 2): a server from a VS Code config whose
every field holds a unique value (env under known and unknown names, a DSN, flags, headers, URL query,
`${input:…}` answered in the inputs dialog), connected, a tool called, the traffic exported, Copy as
curl and Copy as mcp-lens --cli (the log's and History's), the call saved to a collection, the server
saved, the app quit. Then every file under the fresh HOME/XDG folders and the chosen export and
collection paths is searched for every canary (plain, URL-encoded, JSON-escaped) and checked for
user-only permissions.

Allowed to hold a canary: only `servers.json`, whose job is to keep the user's configuration: the env
and header values the user typed are that configuration (never the values given in the inputs
dialog). It must be 0600.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_support import CANARY_SERVER, Canaries, leaked_text, leaks, loose_permissions
from lens_support import REPO, free_port, serve
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QLineEdit, QTableWidget, QToolButton
from test_collections import save_shown_call
from test_command_line import save_current
from test_servers import SERVERS_FILE, dialog, type_here
from test_tapped_sessions import copy_from_menu
from test_traffic import call, choose_file, click_row
from test_workspace import announced, open_server

DESCRIPTIONS = {"setting": "Plain setting", "custom": "Custom header"}


@pytest.fixture
def canaries() -> Canaries:
    return Canaries.make()


@pytest.fixture
def canary_http() -> Iterator[str]:
    port = free_port()
    for _ in serve([*CANARY_SERVER, "--http", str(port)], port, {"PYTHONPATH": str(REPO)}):
        yield f"http://127.0.0.1:{port}/mcp"


def write_config(path: Path, canaries: Canaries, url: str) -> Path:
    """A VS Code mcp.json with both canary servers and the inputs they use (one a password)."""
    path.parent.mkdir(parents=True)
    inputs = [
        {"type": "promptString", "id": "setting", "description": DESCRIPTIONS["setting"]},
        {"type": "promptString", "id": "custom", "description": DESCRIPTIONS["custom"], "password": True},
    ]
    stdio = {"type": "stdio", **canaries.stdio_entry()}
    servers = {"canary-stdio": stdio, "canary-http": canaries.http_entry(url)}
    path.write_text(json.dumps({"inputs": inputs, "servers": servers}, indent=2))
    return path


def answer_input(lens, description: str, value: str) -> None:
    box = dialog(lens, "Server Inputs")
    lens.type(lens.find(description, QLineEdit, top=box), value)
    lens.click(lens.find("Connect", top=box))


def copied(lens, table: QAbstractItemView, seq: int, item: str) -> str:
    """Click the log row of entry `seq` and pick `item` from the Copy message menu; the clipboard text."""
    lens.wait(lambda: table.model().rowCount() >= seq, what="the request listed")
    row = next(r for r in range(table.model().rowCount()) if table.model().index(r, 0).data() == str(seq))
    click_row(lens, table, row)
    QGuiApplication.clipboard().setText("")
    copy_from_menu(lens, lens.find("Copy message", QToolButton), item)
    lens.wait(lambda: QGuiApplication.clipboard().text() != "", what=f"{item} copied")
    return QGuiApplication.clipboard().text()


@pytest.mark.parametrize("server", ["canary-stdio", "canary-http"])
def test_no_file_the_app_writes_holds_a_secret(lens, server: str, canaries: Canaries, canary_http, tmp_path) -> None:
    config = write_config(tmp_path / "input" / ".vscode" / "mcp.json", canaries, canary_http)
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    lens.start("--config", str(config), "--server", server, connected=False)
    key = "setting" if server == "canary-stdio" else "custom"
    answer_input(lens, DESCRIPTIONS[key], canaries.inputs()[key])
    lens.wait_connected()

    # The user pastes a secret of this server into a tool's argument: known by value, it is hidden in
    # everything written (record, export, History, the collection's step) like any other spelling of it.
    secret = canaries["x-session"] if server == "canary-http" else canaries["env-dbpass"]
    call(lens, "Echo (echo)", message=f"hello-canary {secret}")
    lens.wait(lambda: any(e.direction == "in" and b"hello-canary" in e.raw for e in lens.wire()), what="the answer")
    request = next(e for e in lens.wire() if e.direction == "out" and b"hello-canary" in e.raw)

    clipboard = []
    log = lens.find("Traffic log", QAbstractItemView)
    clipboard.append(copied(lens, log, request.seq, "Copy as mcp-lens --cli"))
    if server == "canary-http":
        curl = copied(lens, log, request.seq, "Copy as curl")
        assert "hello-canary" in curl and "<redacted>" in curl, curl
        clipboard.append(curl)
    lens.tab("History")
    QGuiApplication.clipboard().setText("")
    lens.click_item("Call history", "echo")
    lens.click("Copy as mcp-lens --cli")
    lens.wait(lambda: QGuiApplication.clipboard().text() != "", what="History's Copy as CLI")
    clipboard.append(QGuiApplication.clipboard().text())
    for text in clipboard:
        assert "hello-canary" in text, text
        assert not leaked_text(canaries, text), text

    export = out / "export.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, export)
    lens.wait(export.exists, what="the export")
    collection = out / "collection.json"
    lens.tab("Result")
    save_shown_call(lens, collection)
    save_current(lens)
    kept = lens.home / ".local" / "share" / "mcp-lens" / "history"  # History is kept across restarts
    lens.wait(lambda: list(kept.glob("*.json")), 30_000, what="History saved")
    history = list(kept.glob("*.json"))
    assert lens.quit() == 0

    assert b"hello-canary" in export.read_bytes() and b"hello-canary" in collection.read_bytes()
    assert b"hello-canary" in history[0].read_bytes()
    servers_file = lens.home / SERVERS_FILE
    # The user's configuration: what they typed may stay there, the inputs dialog's answers may not.
    allowed = {servers_file: "the user's own server configuration"}
    assert not leaks(canaries, [lens.home, out], allowed=allowed)
    assert not {"input-env", "input-header"} & set(canaries.found_in(servers_file.read_bytes()))
    assert not loose_permissions([export, collection, servers_file])
    assert not loose_permissions([lens.home / ".config" / "mcp-lens"])


def add_variable(lens, box, name: str, value: str) -> None:
    """The Environment table: Add variable opens the name's editor; Right then F2 edits the value."""
    lens.click(lens.find("Add variable", top=box))
    type_here(box, name)
    table = lens.find("Environment", QTableWidget, top=box)
    row = table.rowCount() - 1
    lens.wait(lambda: table.currentRow() == row and table.currentColumn() == 0, what="the name committed")
    QTest.keyClick(table, Qt.Key.Key_Right)
    QTest.keyClick(table, Qt.Key.Key_F2)
    lens.wait(lambda: box.focusWidget() is not table, what="the value's editor opens")
    type_here(box, value)
    lens.wait(lambda: table.item(row, 1).text() == value, what="the value committed")


def test_a_server_added_in_the_dialog_keeps_its_secrets_to_servers_json(lens, canaries: Canaries, tmp_path) -> None:
    """Values typed into the Add Server dialog (a secret-named and an unknown-named variable, a DSN, flags)
    are the configuration: servers.json (0600) keeps them; nothing else MCP Lens writes may."""
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    entry = canaries.stdio_entry()
    lens.start()
    lens.click("Add server")
    box = dialog(lens, "Add Server")
    lens.type(lens.find("Name", top=box), "added canary")
    lens.type(lens.find("Command", top=box), entry["command"])
    for arg in entry["args"]:
        lens.click(lens.find("Add argument", top=box))
        type_here(box, arg)
    for name in ("DB_PASS", "SERVICE_OPTION", "DATABASE_URL"):
        add_variable(lens, box, name, entry["env"][name])
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Add Server dialog closes")
    servers_file = lens.home / SERVERS_FILE
    lens.wait(lambda: servers_file.exists() and b"DB_PASS" in servers_file.read_bytes(), what="the server saved")
    assert not loose_permissions([servers_file])

    open_server(lens, "added canary")
    lens.wait(lambda: announced(lens, "added canary").startswith("added canary, connected"), 30_000, what="connected")
    call(lens, "Echo (echo)", message="hello-added")
    lens.wait(lambda: any(e.direction == "in" and b"hello-added" in e.raw for e in lens.wire()), what="the answer")
    request = next(e for e in lens.wire() if e.direction == "out" and b"hello-added" in e.raw)
    log = lens.find("Traffic log", QAbstractItemView)
    command = copied(lens, log, request.seq, "Copy as mcp-lens --cli")
    assert "hello-added" in command and not leaked_text(canaries, command), command
    export = out / "added.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, export)
    lens.wait(export.exists, what="the export")
    assert lens.quit() == 0

    assert {"env-dbpass", "env-unknown", "dsn", "arg-apikey"} <= set(canaries.found_in(servers_file.read_bytes()))
    assert b"started pid" in export.read_bytes()
    assert not leaks(canaries, [lens.home, out], allowed={servers_file: "the user's own server configuration"})
    assert not loose_permissions([export, servers_file, lens.home / ".config" / "mcp-lens"])


def test_a_secret_typed_under_a_secret_looking_name_is_written_nowhere(lens, canaries: Canaries, tmp_path) -> None:
    """Issue 21 point 2: what the user types into a tool's `password` field is known to no profile, yet it
    is hidden by value in History, the export and the collection: the field's name says it is a secret
    (the tool says it back, and the answer is hidden too)."""
    config = write_config(tmp_path / "input" / ".vscode" / "mcp.json", canaries, "http://127.0.0.1:9/mcp")
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    lens.start("--config", str(config), "--server", "canary-stdio", connected=False)
    answer_input(lens, DESCRIPTIONS["setting"], canaries.inputs()["setting"])
    lens.wait_connected()
    call(lens, "Sign in (sign_in)", user="ada-lovelace", password=canaries["tool-password"])
    lens.wait(lambda: any(e.direction == "in" and b"signed in ada-lovelace" in e.raw for e in lens.wire()), 30_000)

    export = out / "export.jsonl"
    lens.menu("File", "Export session…")
    choose_file(lens, export)
    lens.wait(export.exists, what="the export")
    kept = lens.home / ".local" / "share" / "mcp-lens" / "history"
    lens.wait(lambda: any(b"ada-lovelace" in p.read_bytes() for p in kept.glob("*.json")), 30_000, "History saved")
    assert lens.quit() == 0

    assert b"ada-lovelace" in export.read_bytes()
    allowed = {lens.home / SERVERS_FILE: "the user's own server configuration"}
    assert not leaks(canaries, [lens.home, out], allowed=allowed)


def test_the_auth_extension_secrets_typed_in_the_auth_tab_stay_in_servers_json(lens, tmp_path) -> None:
    """Issue 26 point 7: enterprise-managed authorization with DPoP set up in the Auth tab, signed in and
    exported: the client secret and the IdP client secret typed there are kept only in servers.json (0600),
    the ID token (a file the user names) and the tokens in no file MCP Lens writes but the token store."""
    import secrets
    import sys
    import time

    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from PySide6.QtWidgets import QComboBox

    key = ec.generate_private_key(ec.SECP256R1())
    (tmp_path / "input").mkdir()
    public = tmp_path / "input" / "trusted.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    now = int(time.time())
    claims = {"iss": "https://idp.example.test", "sub": "canary", "aud": "idp-client", "iat": now, "exp": now + 900}
    canaries = Canaries()
    canaries.values["oauth-client-secret"] = f"canary client secret {secrets.token_hex(8)}"
    canaries.values["idp-client-secret"] = f"canary idp secret {secrets.token_hex(8)}"
    canaries.values["id-token"] = jwt.encode(claims, key, algorithm="ES256")
    (tmp_path / "input" / "id.jwt").write_text(canaries["id-token"])
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    port = free_port()
    server = [sys.executable, str(REPO / "tests/servers/auth_extensions.py"), str(port), str(public), "--dpop"]
    for _ in serve([*server, "--client-secret", canaries["oauth-client-secret"]], port):
        base = f"http://127.0.0.1:{port}"
        lens.start(f"{base}/mcp", connected=False)
        lens.wait_status(lambda text: "connected to" not in text and bool(text), timeout=30_000)
        save_current(lens)
        lens.tab("Auth")
        lens.click("OAuth client…")
        grant = lens.find("OAuth grant", QComboBox)
        grant.setFocus()
        for _step in range(3):
            lens.key("Down", grant)
        assert grant.currentText().startswith("Enterprise-managed")
        lens.type("OAuth client id", "ema-client")
        lens.type("OAuth client secret", canaries["oauth-client-secret"])
        lens.type("Identity provider token endpoint", f"{base}/idp/token")
        lens.type("Identity provider client id", "idp-client")
        lens.type("Identity provider client secret", canaries["idp-client-secret"])
        lens.type("ID token file path", str(tmp_path / "input" / "id.jwt"))
        lens.click("DPoP-bound tokens")
        lens.click("Save to profile")
        lens.click("Keep secrets in a file (user-only, not encrypted)")  # no keyring: so the store is written
        lens.click("Sign in")
        lens.wait_connected(timeout=60_000)
        export = out / "ema.jsonl"
        lens.menu("File", "Export session…")
        choose_file(lens, export)
        lens.wait(export.exists, what="the export")
        assert b"/idp/token" in export.read_bytes()  # the exchange is in the traffic, redacted
        assert lens.quit() == 0
    servers_file = lens.home / SERVERS_FILE
    assert {"oauth-client-secret", "idp-client-secret"} <= set(canaries.found_in(servers_file.read_bytes()))
    assert "id-token" not in canaries.found_in(servers_file.read_bytes())
    assert list(lens.home.rglob("auth/*.json"))  # the token store (tokens, the DPoP key) holds none of them
    assert not leaks(canaries, [lens.home, out], allowed={servers_file: "the user's own server configuration"})
    assert not loose_permissions([export, servers_file, lens.home / ".config" / "mcp-lens"])
