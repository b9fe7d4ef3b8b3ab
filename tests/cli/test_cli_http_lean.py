"""`mcp-lens --cli URL` over Streamable HTTP without the SDK: the lean client (`cli/http_lean.py` on
`transports/http_pipes.py`) answers as the SDK path does, on real servers.

Each case runs the CLI twice as a user would: as is (the lean path: its record's requests carry
`User-Agent: mcp-lens/…`) and with a proxy configured that the server's address bypasses (`http_proxy` +
`NO_PROXY`), which sends the run through the SDK's httpx client as before; exit code and output match.
Servers: the demo in both protocol eras, and `tests/servers/raw_http.py`, whose answers no framework
sends (event frames split across reads, a dropped connection, a cut stream, garbage bodies, 50 MB).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lens_support import REPO, free_port, lens_env, serve

RAW = [sys.executable, str(REPO / "tests/servers/raw_http.py")]
HEADER_LOG = REPO / "tests/servers/header_log.py"
THROUGH_THE_SDK = {"http_proxy": "http://127.0.0.1:9", "NO_PROXY": "127.0.0.1"}  # a proxy httpx bypasses here


def cli(
    tmp_path: Path, url: str, *words: str, sdk: bool = False, record: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    extra = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "MCP_LENS_NO_KEYRING": "1", **(env or {})}
    extra.update(THROUGH_THE_SDK if sdk else {})
    argv = [sys.executable, "-m", "inspector", "--cli", url, *words]  # `url`: the target, or the first flag
    if record:
        argv += ["--record", str(tmp_path / record)]
    full = lens_env(**extra)
    if not sdk:
        full = {k: v for k, v in full.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    return subprocess.run(argv, capture_output=True, text=True, timeout=180, cwd=tmp_path, env=full, check=False)


def entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def user_agents(path: Path) -> set[str]:
    return {
        value
        for entry in entries(path)
        for name, value in (entry.get("http") or {}).get("headers", ())
        if name.lower() == "user-agent" and entry.get("dir") == "out"
    }


def last_json(stderr: str) -> dict:
    """The error: the last JSON line on stderr."""
    return json.loads(stderr.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    port = free_port()
    for _ in serve([sys.executable, "-m", "inspector", "--demo-server", "--http", str(port)], port):
        yield f"http://127.0.0.1:{port}/mcp"


def raw_server(mode: str, big_mb: int = 1) -> Iterator[str]:
    port = free_port()
    for _ in serve([*RAW, mode, str(port)], port, {"BIG_MB": str(big_mb)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.mark.parametrize("era", ["legacy", "modern", "auto"])
@pytest.mark.parametrize(
    "words",
    [["--method", "tools/list"], ["--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"]],
    ids=["list", "call"],
)
def test_the_demo_answers_the_same_in_each_era(tmp_path: Path, demo_url: str, era: str, words: list[str]) -> None:
    lean = cli(tmp_path, demo_url, "--protocol-era", era, *words, record="lean.jsonl")
    sdk = cli(tmp_path, demo_url, "--protocol-era", era, *words, sdk=True, record="sdk.jsonl")
    assert lean.returncode == sdk.returncode == 0, lean.stderr + sdk.stderr
    assert lean.stdout == sdk.stdout
    assert {agent.split("/")[0] for agent in user_agents(tmp_path / "lean.jsonl")} == {"mcp-lens"}
    assert all(agent.startswith("python-httpx") for agent in user_agents(tmp_path / "sdk.jsonl"))
    # the record holds the same exchanges: each message both ways, in the same order
    kinds = [(e["dir"], e["kind"], e.get("method"), e.get("probe")) for e in entries(tmp_path / "lean.jsonl")]
    sdk_kinds = [(e["dir"], e["kind"], e.get("method"), e.get("probe")) for e in entries(tmp_path / "sdk.jsonl")]
    messages = ("request", "response", "notification", "error")
    assert [k for k in kinds if k[1] in messages] == [k for k in sdk_kinds if k[1] in messages]


def test_the_headers_go_as_the_sdk_sends_them(tmp_path: Path) -> None:
    """--header values on every request; the session id and the protocol version once negotiated."""
    port, log = free_port(), tmp_path / "headers.jsonl"
    for _ in serve([sys.executable, str(HEADER_LOG), str(port), str(log)], port, {"PYTHONPATH": str(REPO)}):
        done = cli(
            tmp_path,
            f"http://127.0.0.1:{port}/mcp",
            "--protocol-era",
            "legacy",
            "--header",
            "X-Trace: abc 1",
            "--method",
            "tools/list",
        )
    assert done.returncode == 0, done.stderr
    posts = [
        dict((k.lower(), v) for k, v in line["headers"])
        for line in map(json.loads, log.read_text().splitlines())
        if "headers" in line
    ]
    assert posts and all(headers.get("x-trace") == "abc 1" for headers in posts)
    assert all(headers.get("user-agent", "").startswith("mcp-lens/") for headers in posts)
    last = posts[-1] if "mcp-session-id" in posts[-1] else next(h for h in reversed(posts) if "mcp-session-id" in h)
    assert last["mcp-protocol-version"] and last["accept"] == "application/json, text/event-stream"


@pytest.mark.parametrize(
    "mode, kind, said",
    [
        ("json", None, None),
        ("sse", None, None),
        ("garbage", "protocol", "Failed to parse JSON response"),
        ("sse-garbage", "protocol", "Failed to parse SSE message"),
        ("error500", "protocol", "Server returned an error response"),
        ("accepted", "protocol", "server answered a request with 202 Accepted"),
        ("drop", "connection", "Server disconnected without sending a response"),
        ("cut", "protocol", "SSE stream ended without a response"),
        ("empty", "protocol", "Failed to parse JSON response"),
        ("bad-length", "connection", "bad Content-Length"),
        ("moved", None, None),
        ("elsewhere", "connection", "not followed; use that URL as the endpoint if it is the intended server"),
    ],
)
def test_what_no_framework_sends_is_told_as_the_sdk_path_tells_it(
    tmp_path: Path, mode: str, kind: str | None, said: str | None
) -> None:
    for url in raw_server(mode):
        lean = cli(tmp_path, url, "--method", "tools/list", record="lean.jsonl")
        sdk = cli(tmp_path, url, "--method", "tools/list", sdk=True)
    assert lean.returncode == sdk.returncode, (lean.stderr, sdk.stderr)
    assert "Traceback" not in lean.stderr + lean.stdout
    assert {agent.split("/")[0] for agent in user_agents(tmp_path / "lean.jsonl")} == {"mcp-lens"}
    if kind is None:
        assert lean.returncode == 0 and json.loads(lean.stdout)["tools"][0]["name"] == "big"
        assert lean.stdout == sdk.stdout
        return
    error, sdk_error = last_json(lean.stderr), last_json(sdk.stderr)
    assert error["error"] == sdk_error["error"] == kind
    assert said in error["message"] and said in sdk_error["message"]


@pytest.mark.parametrize("mode", ["json", "sse"])
def test_a_50_mb_result_arrives_whole(tmp_path: Path, mode: str) -> None:
    for url in raw_server(mode, big_mb=50):
        done = cli(tmp_path, url, "--method", "tools/call", "--tool-name", "big", "--format", "json")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["content"][0]["text"] == "x" * (50 * 1024 * 1024)


def test_the_closing_delete_is_marked_teardown_with_its_answer_or_failure(tmp_path: Path) -> None:
    """The server answers tools/list and the GET, then exits: the session's closing DELETE (sent when no
    failure was seen yet) is MCP Lens's own teardown (issue 22), and so is its answer or its failure
    (whichever came: the exit races the DELETE), so "Errors only" never keeps them."""
    for url in raw_server("die-after-answer"):
        done = cli(tmp_path, url, "--method", "tools/list", record="gone.jsonl")
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in (tmp_path / "gone.jsonl").read_text().splitlines()[1:]]
    sent = [e["seq"] for e in entries if (e.get("http") or {}).get("method") == "DELETE" and e["dir"] == "out"]
    assert sent, entries
    ours = [e for e in entries if e["seq"] in sent or (e.get("http") or {}).get("request_seq") in sent]
    assert len(ours) >= 2 and all(e.get("probe") == "teardown" for e in ours), ours


def test_nothing_listening_says_the_server_stopped_answering(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    done = cli(tmp_path, url, "--method", "tools/list")
    assert done.returncode == 3, done.stdout + done.stderr
    error = last_json(done.stderr)
    assert error["error"] == "connection"
    assert f"the server at {url} stopped answering (connection refused)" in error["message"]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_timeout_is_told_as_the_sdk_path_tells_it(tmp_path: Path, demo_url: str, era: str) -> None:
    """The request is given up (legacy: notifications/cancelled POSTed; modern: its stream closed), exit 7."""
    words = ["--protocol-era", era, "--method", "tools/call", "--tool-name", "slow_task"]
    words += ["--tool-arg", "steps=1", "delay=8", "--request-timeout", "1"]
    lean = cli(tmp_path, demo_url, *words, record="lean.jsonl")
    sdk = cli(tmp_path, demo_url, *words, sdk=True)
    assert lean.returncode == sdk.returncode == 7, lean.stderr + sdk.stderr
    assert last_json(lean.stderr) == last_json(sdk.stderr)
    sent = [e.get("method") for e in entries(tmp_path / "lean.jsonl") if e["dir"] == "out"]
    assert ("notifications/cancelled" in sent) == (era == "legacy")


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (openssl), and its key."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    argv = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert)]
    argv += ["-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    try:
        subprocess.run(argv, capture_output=True, check=True, timeout=60)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"no openssl to make a certificate: {exc}")
    return cert, key


def test_https_trusts_what_the_sdk_path_trusts(tmp_path: Path, tls_files: tuple[Path, Path]) -> None:
    """TLS through the stdlib: a certificate the system does not know fails the connection; named in
    SSL_CERT_FILE (which httpx honours too) it is trusted."""
    cert, key = tls_files
    port = free_port()
    for _ in serve([*RAW, "sse", str(port)], port, {"TLS_CERT": str(cert), "TLS_KEY": str(key)}):
        url = f"https://127.0.0.1:{port}/mcp"
        untrusted = cli(tmp_path, url, "--method", "tools/list")
        trusted = cli(tmp_path, url, "--method", "tools/list", record="lean.jsonl", env={"SSL_CERT_FILE": str(cert)})
        sdk = cli(tmp_path, url, "--method", "tools/list", sdk=True, env={"SSL_CERT_FILE": str(cert)})
    assert untrusted.returncode == 3 and "certificate verify failed" in last_json(untrusted.stderr)["message"]
    assert "Traceback" not in untrusted.stderr
    assert trusted.returncode == sdk.returncode == 0, trusted.stderr + sdk.stderr
    assert trusted.stdout == sdk.stdout
    assert {agent.split("/")[0] for agent in user_agents(tmp_path / "lean.jsonl")} == {"mcp-lens"}


def test_auto_on_a_handshake_server_records_its_probe_and_fallback_as_ours(
    tmp_path: Path, everything_http: str
) -> None:
    """server-everything refuses server/discover (HTTP 400): the probe and the initialize after it are marked
    as MCP Lens's own in the record, as the SDK path marks them (the refusal is then no flag)."""
    lean = cli(tmp_path, everything_http, "--method", "tools/list", record="lean.jsonl")
    sdk = cli(tmp_path, everything_http, "--method", "tools/list", sdk=True, record="sdk.jsonl")
    assert lean.returncode == sdk.returncode == 0, lean.stderr + sdk.stderr
    assert lean.stdout == sdk.stdout

    def marked(name: str) -> list[tuple[str, str, str | None, str | None]]:
        found = [(e["dir"], e["kind"], e.get("method"), e.get("probe")) for e in entries(tmp_path / name)]
        return [item for item in found if item[3] is not None]

    assert marked("lean.jsonl") == marked("sdk.jsonl")
    assert ("out", "request", "server/discover", "era probe") in marked("lean.jsonl")
    assert ("out", "request", "initialize", "fallback") in marked("lean.jsonl")


def test_a_url_with_spaces_and_accents_reaches_the_server_as_httpx_sends_it(tmp_path: Path) -> None:
    """The request target is percent-encoded as UTF-8, escapes already there kept, as the SDK path sends it."""
    port, targets = free_port(), {}
    for path in ("lean", "sdk"):
        log = tmp_path / f"{path}.log"
        for _ in serve([sys.executable, str(HEADER_LOG), str(port), str(log)], port, {"PYTHONPATH": str(REPO)}):
            url = f"http://127.0.0.1:{port}/mcp?note=é ü&x=a+b%20c"
            done = cli(tmp_path, url, "--protocol-era", "legacy", "--method", "tools/list", sdk=path == "sdk")
        assert done.returncode == 0, done.stderr
        targets[path] = {json.loads(line)["target"] for line in log.read_text().splitlines() if '"target"' in line}
    assert targets["lean"] == targets["sdk"] == {"/mcp?note=%C3%A9%20%C3%BC&x=a+b%20c"}


def test_a_401_goes_on_through_the_oauth_path(tmp_path: Path) -> None:
    """No OAuth up front: the lean client asks first; the server's 401 loads the OAuth stack, which asks
    again with httpx (here no sign-in can help: --stored-auth-only fails it with the same error as before)."""
    for url in raw_server("unauthorized"):
        lean = cli(tmp_path, url, "--method", "tools/list", "--stored-auth-only", record="lean.jsonl")
        sdk = cli(tmp_path, url, "--method", "tools/list", "--stored-auth-only", sdk=True)
    assert lean.returncode == sdk.returncode != 0, lean.stderr + sdk.stderr
    assert last_json(lean.stderr) == last_json(sdk.stderr)
    assert last_json(lean.stderr)["error"] == "auth-required"
    agents = [
        value.split("/")[0]
        for entry in entries(tmp_path / "lean.jsonl")
        for name, value in (entry.get("http") or {}).get("headers", ())
        if name.lower() == "user-agent" and entry["dir"] == "out"
    ]
    assert agents[0] == "mcp-lens" and "python-httpx2" in agents[1:], agents


def test_a_server_that_never_answers_the_closing_delete_does_not_hold_the_run(tmp_path: Path) -> None:
    """The answer is printed; the session's end is asked once and left unanswered after a few seconds."""
    for url in raw_server("deaf-delete"):
        done = cli(tmp_path, url, "--method", "tools/list", record="lean.jsonl")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"][0]["name"] == "big"
    sent = [(e.get("http") or {}).get("method") for e in entries(tmp_path / "lean.jsonl") if e["dir"] == "out"]
    assert sent[-1] == "DELETE"


def test_a_header_value_with_a_line_break_is_refused_not_smuggled(tmp_path: Path) -> None:
    """A configured header holding CR LF would add a header of its own on the wire: refused before sending,
    as httpx refuses it (exit 3), and nothing of it reaches the server."""
    port, log = free_port(), tmp_path / "headers.jsonl"
    config = tmp_path / "mcp.json"
    server = {"type": "http", "url": f"http://127.0.0.1:{port}/mcp", "headers": {"X-A": "1\r\nX-Injected: 2"}}
    config.write_text(json.dumps({"mcpServers": {"s": server}}))
    for _ in serve([sys.executable, str(HEADER_LOG), str(port), str(log)], port, {"PYTHONPATH": str(REPO)}):
        done = cli(tmp_path, "--config", str(config), "--server", "s", "--method", "tools/list")
    assert done.returncode == 3, done.stdout + done.stderr
    assert "LocalProtocolError" in last_json(done.stderr)["message"]
    assert not log.exists() or "x-injected" not in log.read_text().lower()
