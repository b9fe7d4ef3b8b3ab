"""Remote icons are fetched from public internet addresses only (issue 21): loopback, link-local, private,
multicast and unspecified hosts are refused before any connection, in every spelling, after a redirect
too, and the refusal says why. Real loopback listeners must see no connection."""

from __future__ import annotations

import datetime
import http.server
import socket
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx2
import pytest

from inspector.core.icon_fetch import fetch_icon
from inspector.core.icons import IconRefused, never_fetched, remote_hosts
from inspector.core.public_address import host_refusal, literal_address, literal_refusal, resolve

PUBLIC = "93.184.215.14"


def public(_host: str, _port: int) -> list[str]:
    return [PUBLIC]


@contextmanager
def loopback_listener(family: socket.AddressFamily = socket.AF_INET) -> Iterator[tuple[int, list[object]]]:
    """A TCP listener on loopback that counts the connections it is offered (a TLS client's included)."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.bind(("::1" if family == socket.AF_INET6 else "127.0.0.1", 0))
    sock.listen()
    sock.settimeout(0.2)
    accepted: list[object] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            accepted.append(conn)
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1], accepted
    finally:
        stop.set()
        thread.join(2)
        sock.close()


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "127.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1"])
def test_no_connection_reaches_a_loopback_listener(host: str) -> None:
    with loopback_listener() as (port, accepted), pytest.raises(IconRefused, match="public internet") as refused:
        fetch_icon(f"https://{host}:{port}/icon.png", timeout=2, deadline=3)
    assert accepted == []
    assert "this computer" in str(refused.value) or "loopback" in str(refused.value)


def test_no_connection_reaches_an_ipv6_loopback_listener() -> None:
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    with loopback_listener(socket.AF_INET6) as (port, accepted):
        for host in ("[::1]", "[::ffff:127.0.0.1]", "[0:0:0:0:0:0:0:1]"):
            with pytest.raises(IconRefused, match="loopback"):
                fetch_icon(f"https://{host}:{port}/icon.png", timeout=2, deadline=3)
    assert accepted == []


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("LOCALHOST.", "this computer"),
        ("icons.localhost", "this computer"),
        ("[::1]", "a loopback address"),
        ("[::ffff:127.0.0.1]", "a loopback address"),
        ("0.0.0.0", "an unspecified address"),
        ("0", "an unspecified address"),
        ("[::]", "an unspecified address"),
        ("169.254.169.254", "a link-local address"),
        ("[fe80::1]", "a link-local address"),
        ("10.0.0.1", "a private address"),
        ("172.16.5.4", "a private address"),
        ("192.168.1.1", "a private address"),
        ("0xc0.0xa8.1.1", "a private address"),
        ("[fd00::1]", "a private address"),
        ("224.0.0.1", "a multicast address"),
        ("[ff02::1]", "a multicast address"),
        ("100.64.0.1", "not a public address"),
    ],
)
def test_non_public_hosts_are_refused_with_the_reason(host: str, kind: str) -> None:
    asked: list[str] = []
    transport = httpx2.MockTransport(lambda request: asked.append(str(request.url)) or httpx2.Response(200))
    with pytest.raises(IconRefused, match=kind):
        fetch_icon(f"https://{host}/i.png", transport=transport, resolver=public)
    assert asked == []


def test_every_address_a_name_resolves_to_is_checked() -> None:
    asked: list[str] = []
    transport = httpx2.MockTransport(lambda request: asked.append(str(request.url)) or httpx2.Response(200))

    def split(_host: str, _port: int) -> list[str]:
        return [PUBLIC, "127.0.0.1"]

    with pytest.raises(IconRefused, match=r"cdn.example \(127.0.0.1\) is a loopback address"):
        fetch_icon("https://cdn.example/i.png", transport=transport, resolver=split)
    assert asked == []

    def unknown(host: str, _port: int) -> list[str]:
        raise socket.gaierror(f"no such host {host}")

    with pytest.raises(IconRefused, match="could not be resolved"):
        fetch_icon("https://cdn.example/i.png", transport=transport, resolver=unknown)
    assert asked == []


@pytest.mark.parametrize("target", ["https://127.0.0.1/i.png", "https://[::1]/i.png", "https://intranet.example/i.png"])
def test_a_redirect_to_a_non_public_address_is_not_followed(target: str) -> None:
    asked: list[str] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        asked.append(str(request.url))
        return httpx2.Response(302, headers={"Location": target})

    def resolver(host: str, _port: int) -> list[str]:
        return ["10.1.2.3"] if host == "intranet.example" else [PUBLIC]

    with pytest.raises(IconRefused, match="only public internet addresses"):
        fetch_icon("https://cdn.example/i.png", transport=httpx2.MockTransport(handle), resolver=resolver)
    assert asked == ["https://cdn.example/i.png"]


def test_ip_literals_in_every_spelling_the_resolver_reads() -> None:
    assert literal_address("2130706433") == "127.0.0.1"
    assert literal_address("0177.0.0.1") == "127.0.0.1"
    assert literal_address("0x7f.1") == "127.0.0.1"
    assert literal_address("[::1]") == "::1"
    assert literal_address("cafe.example") is None and literal_address("deadbeef") is None
    assert host_refusal("cdn.example", 443, public) == ""


def self_signed(name: str, folder: Path) -> tuple[Path, Path]:
    """A certificate for `name` (and its key), signed by itself: the client trusts exactly it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def test_the_address_the_connection_reached_is_checked_too(tmp_path: Path) -> None:
    """A name that resolved to a public address when checked and reaches loopback when connected (DNS
    rebinding): the answer is refused. Here the machine's own name plays it, with a real TLS server."""
    name = socket.gethostname()
    try:
        reached = resolve(name, 443)
    except OSError:
        pytest.skip(f"{name} does not resolve here")
    if name == "localhost" or reached != ["127.0.0.1"]:
        pytest.skip(f"{name} resolves to {reached}, not to 127.0.0.1 alone")
    cert, key = self_signed(name, tmp_path)
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    served: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "8")
            self.end_headers()
            self.wfile.write(b"\x89PNG\r\n\x1a\n")

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = server_context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        transport = httpx2.HTTPTransport(verify=ssl.create_default_context(cafile=str(cert)))
        url = f"https://{name}:{server.server_address[1]}/i.png"
        with pytest.raises(IconRefused, match=r"the connection reached 127\.0\.0\.1, a loopback address"):
            fetch_icon(url, transport=transport, resolver=public, timeout=10, deadline=20)
    finally:
        server.shutdown()
        server.server_close()
    assert served == ["/i.png"], "the server was reached (the check is the connection's own address)"


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("localhost", "loopback"),
        ("a.localhost", "loopback"),
        ("127.1", "loopback"),
        ("0x7f000001", "loopback"),
        ("[::1]", "loopback"),
        ("10.0.0.1", "private"),
        ("192.168.1.2", "private"),
        ("0.0.0.0", "unspecified"),
        ("169.254.1.1", "link-local"),
        ("8.8.8.8", ""),
        ("icons.example", ""),  # a name: only resolving it can tell
    ],
)
def test_a_host_is_never_offered_when_its_form_alone_refuses_it(host: str, kind: str) -> None:
    assert literal_refusal(host) == kind
    icons = [{"icons": [{"src": f"https://{host}/i.png"}]}]
    assert remote_hosts(icons) == ([] if kind else [host.strip("[]")])
    assert never_fetched(icons) == ([kind] if kind else [])
