"""The count_tokens provider against a real local HTTP server: the request it builds, caching, errors."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from factories import tool
from lens_support import free_port

from inspector.budget.anthropic import API_VERSION, AnthropicError, AnthropicTokenizer
from inspector.budget.breakdown import ANTHROPIC_TOOL_SYSTEM_PROMPT, BudgetCounter
from inspector.budget.tokenizers import TokenizerError, get_tokenizer

KEY = "sk-ant-test-key"


@dataclass
class FakeAnthropic:
    """What the local server answers; it records every request it receives."""

    url: str = ""
    status: int = 200
    delay: float = 0.0
    raw_answer: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0  # the most requests it was answering at one time
    lock: threading.Lock = field(default_factory=threading.Lock)

    def tokens(self, body: dict[str, Any]) -> int:
        """A deterministic stand-in for Claude's count: 7 + characters of the message (+ tools)."""
        count = 7 + len(body["messages"][0]["content"])
        if "tools" in body:
            count += ANTHROPIC_TOOL_SYSTEM_PROMPT + len(json.dumps(body["tools"]))
        return count


@pytest.fixture
def api() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            raw = self.rfile.read(length)
            body = json.loads(raw)
            fake.requests.append({"path": self.path, "headers": dict(self.headers.items()), "body": body})
            with fake.lock:
                fake.in_flight += 1
                fake.most_in_flight = max(fake.most_in_flight, fake.in_flight)
            if fake.delay:
                time.sleep(fake.delay)
            with fake.lock:
                fake.in_flight -= 1
            if fake.status != 200:
                payload = json.dumps({"type": "error", "error": {"type": "x", "message": f"fake {fake.status}"}})
                data = payload.encode()
            else:
                data = fake.raw_answer or json.dumps({"input_tokens": fake.tokens(body)}).encode()
            try:
                self.send_response(fake.status)
                for name, value in fake.headers.items():
                    self.send_header(name, value)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def log_message(self, *args: Any) -> None:
            pass

    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{port}"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()


def make(api: FakeAnthropic, cache: Path | None = None, **kwargs: Any) -> AnthropicTokenizer:
    return AnthropicTokenizer(KEY, base_url=api.url, model="claude-test", cache_dir=cache, **kwargs)


def test_request_shape(api: FakeAnthropic) -> None:
    tokenizer = make(api)
    assert tokenizer.count("hello") == 5  # (7 + 5) - (7 + 1) + 1: the message minus the one-character baseline
    request = api.requests[0]
    assert request["path"] == "/v1/messages/count_tokens"
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["x-api-key"] == KEY
    assert headers["anthropic-version"] == API_VERSION == "2023-06-01"
    assert headers["content-type"] == "application/json"
    assert request["body"] == {"model": "claude-test", "messages": [{"role": "user", "content": "hello"}]}


def test_tool_list_is_sent_as_tools_minus_the_documented_overhead(api: FakeAnthropic) -> None:
    tools = [tool("echo", "Echo")]
    report = BudgetCounter(make(api)).report(tools, "anthropic")
    sent = [r["body"] for r in api.requests if "tools" in r["body"]]
    assert sent == [
        {
            "model": "claude-test",
            "messages": [{"role": "user", "content": "x"}],
            "tools": [{"name": "echo", "description": "Echo", "input_schema": {"type": "object"}}],
        }
    ]
    assert report.total == len(json.dumps(sent[0]["tools"]))
    assert report.overhead == ANTHROPIC_TOOL_SYSTEM_PROMPT
    assert report.grand_total == api.tokens(sent[0]) - api.tokens({"messages": [{"content": "x"}]})
    assert "count_tokens API" in report.note


def test_answers_are_cached_by_body_hash_in_memory_and_on_disk(api: FakeAnthropic, tmp_path: Path) -> None:
    first = make(api, tmp_path)
    assert first.count("same text") == first.count("same text")
    assert len(api.requests) == 2  # the text once, the baseline once
    assert len(list(tmp_path.glob("*.json"))) == 2
    second = make(api, tmp_path)  # a new process would start like this
    assert second.count("same text") == first.count("same text")
    assert len(api.requests) == 2 and second.requests_sent == 0
    body = second.request_body("same text")
    assert AnthropicTokenizer.cache_key(body) == AnthropicTokenizer.cache_key(json.loads(json.dumps(body)))


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (401, r"rejected the API key \(401\): fake 401; check ANTHROPIC_API_KEY"),
        (403, r"\(403\)"),
        (429, r"rate limit reached \(429\): fake 429; retry after 7 s"),
        (500, r"API error 500: fake 500; the service may be overloaded"),
        (529, r"API error 529"),
        (400, r"refused the request \(400\): fake 400"),
    ],
)
def test_http_errors_are_clear(api: FakeAnthropic, status: int, message: str) -> None:
    api.status = status
    api.headers = {"retry-after": "7"} if status == 429 else {}
    with pytest.raises(AnthropicError, match=message) as caught:
        make(api).count("hello")
    assert caught.value.status == status
    assert KEY not in str(caught.value)


def test_timeout(api: FakeAnthropic) -> None:
    api.delay = 1.5
    with pytest.raises(
        AnthropicError, match=r"no answer from http://127\.0\.0\.1:\d+/v1/messages/count_tokens within 0\.3 s"
    ):
        make(api, timeout=0.3).count("slow")


def test_bad_answer(api: FakeAnthropic) -> None:
    api.raw_answer = b'{"tokens": 3}'
    with pytest.raises(AnthropicError, match="no input_tokens"):
        make(api).count("x y")


def test_unreachable() -> None:
    tokenizer = AnthropicTokenizer(KEY, base_url=f"http://127.0.0.1:{free_port()}", cache_dir=None)
    with pytest.raises(AnthropicError, match="cannot reach"):
        tokenizer.count("anything")


def test_needs_a_key_and_never_sends_without_one(monkeypatch: pytest.MonkeyPatch, api: FakeAnthropic) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", api.url)
    with pytest.raises(TokenizerError, match="set ANTHROPIC_API_KEY"):
        get_tokenizer("anthropic")
    assert api.requests == []
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    tokenizer = get_tokenizer("anthropic", cache_dir=None)
    assert tokenizer.name == "anthropic" and tokenizer.exact
    assert tokenizer.count("four") == 4
    assert {k.lower(): v for k, v in api.requests[0]["headers"].items()}["x-api-key"] == KEY


def test_a_report_prefetches_in_parallel_and_a_second_report_sends_nothing(api: FakeAnthropic) -> None:
    tools = [
        tool(
            f"tool_{i}",
            f"Tool {i} description",
            {"type": "object", "properties": {"q": {"type": "string", "description": f"query {i}"}}},
        )
        for i in range(6)
    ]
    api.delay = 0.2  # each answer waits, so requests sent together are seen together (counted, not timed)
    tokenizer = make(api)
    counter = BudgetCounter(tokenizer)
    first = counter.report(tools, "anthropic")
    sent = len(api.requests)
    assert sent > 20
    assert api.most_in_flight > 1, "several requests were in flight at once"
    bodies = [json.dumps(r["body"], sort_keys=True) for r in api.requests]
    assert len(bodies) == len(set(bodies))  # nothing was asked twice
    second = BudgetCounter(tokenizer).report(tools, "anthropic")
    assert len(api.requests) == sent
    assert second.total == first.total and [t.total for t in second.tools] == [t.total for t in first.tools]


def test_cli_with_the_anthropic_encoding(api: FakeAnthropic, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from lens_support import REPO

    tools = [tool("echo", "Echo the input")]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}))
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "ANTHROPIC_API_KEY": KEY,
        "ANTHROPIC_BASE_URL": api.url,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    command = [sys.executable, "-m", "inspector", "tokens", "--tools-file", str(tmp_path / "tools.json")]
    proc = subprocess.run(
        [*command, "--encoding", "anthropic", "--shape", "anthropic", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)["reports"][0]
    assert report["tokenizer"] == "anthropic" and report["exact"]
    assert report["total"] == len(
        json.dumps([{"name": "echo", "description": "Echo the input", "input_schema": {"type": "object"}}])
    )
    assert "count_tokens API" in report["note"]
    assert list((tmp_path / "cache" / "mcp-lens" / "anthropic-count-tokens").glob("*.json"))
    api.status = 401
    proc = subprocess.run(
        [*command, "--encoding", "anthropic", "--no-lints"], capture_output=True, text=True, env=env, timeout=60
    )
    assert proc.returncode == 10
    assert "rejected the API key (401)" in proc.stderr and KEY not in proc.stderr
