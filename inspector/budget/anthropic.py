"""Anthropic's ``count_tokens`` API as a tokenizer: exact Claude counts, online and opt-in.

Used only when ``ANTHROPIC_API_KEY`` is set *and* the user picks it (``--encoding anthropic``, or the
pane's picker). Requests go to ``POST {base}/v1/messages/count_tokens``; the base URL can be changed
(``ANTHROPIC_BASE_URL`` or ``base_url=``), which the tests use to talk to a local HTTP server.
Answers are cached by the SHA-256 of the request body, in memory and on disk (``cache_dir``), so a
list that did not change is never sent twice.

Claude's tokenizer is not public, so a text is counted as a one-message conversation minus the same
conversation with a one-character message; a whole tool list is counted as the ``tools`` parameter
(with vs without it), minus Anthropic's documented tool-use system prompt (reported separately as
the overhead).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from inspector.budget.tokenizers import TokenizerError
from inspector.config.files import private_folder, write_atomic

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-sonnet-4-5"
API_VERSION = "2023-06-01"
ENDPOINT = "/v1/messages/count_tokens"
_PROBE = "x"  # the one-character message of the baseline request


class AnthropicError(TokenizerError):
    """The count_tokens API could not answer; the message says why and what to do. ``status`` is the HTTP status."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mcp-lens" / "anthropic-count-tokens"


class AnthropicTokenizer:
    name = "anthropic"
    exact = True
    figure = "count_tokens API"
    segmentable = False

    def __init__(
        self,
        api_key: str,
        *,
        model: str = DEFAULT_MODEL,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 30.0,
        cache_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        if not api_key:
            raise AnthropicError("no Anthropic API key: set ANTHROPIC_API_KEY to use the count_tokens API")
        self._api_key = api_key
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.requests_sent = 0
        self._memory: dict[str, int] = {}
        self._lock = threading.Lock()
        self.label = f"Anthropic count_tokens API — {model} (exact, online)"

    @classmethod
    def from_environment(cls, **options: Any) -> AnthropicTokenizer:
        """Key from ``api_key=`` or ANTHROPIC_API_KEY; base URL from ``base_url=`` or ANTHROPIC_BASE_URL;
        model from ``model=`` or MCP_LENS_ANTHROPIC_MODEL. Raises `AnthropicError` without a key."""
        key = options.pop("api_key", None) or os.environ.get("ANTHROPIC_API_KEY", "")
        if not key:
            raise AnthropicError(
                "the anthropic tokenizer needs an API key: set ANTHROPIC_API_KEY (nothing is sent without it); "
                "offline tokenizers: o200k_base, cl100k_base, claude (reconstructed), chars4"
            )
        options.setdefault("base_url", os.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL)
        options.setdefault("model", os.environ.get("MCP_LENS_ANTHROPIC_MODEL") or DEFAULT_MODEL)
        options.setdefault("cache_dir", default_cache_dir())
        return cls(key, **options)

    # ------------------------------------------------------------------------------------- requests

    def request_body(self, text: str = _PROBE, tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": [{"role": "user", "content": text}]}
        if tools is not None:
            body["tools"] = tools
        return body

    def request_headers(self) -> dict[str, str]:
        return {"x-api-key": self._api_key, "anthropic-version": API_VERSION, "content-type": "application/json"}

    @staticmethod
    def cache_key(body: dict[str, Any]) -> str:
        data = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(data).hexdigest()

    def input_tokens(self, body: dict[str, Any]) -> int:
        """``input_tokens`` the API reports for ``body``, from the cache when this body was counted before."""
        key = self.cache_key(body)
        cached = self._memory.get(key)
        if cached is None:
            cached = self._read_disk(key)
        if cached is None:
            cached = self._post(body)
            self._write_disk(key, cached)
        with self._lock:
            self._memory[key] = cached
        return cached

    def _post(self, body: dict[str, Any]) -> int:
        url = self.base_url + ENDPOINT
        data = json.dumps(body, ensure_ascii=False).encode()
        request = urllib.request.Request(url, data=data, headers=self.request_headers(), method="POST")
        self.requests_sent += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise _http_error(exc) from None
        except TimeoutError as exc:
            raise AnthropicError(
                f"no answer from {url} within {self.timeout:g} s; try again or raise the timeout"
            ) from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise AnthropicError(f"no answer from {url} within {self.timeout:g} s; try again") from exc
            raise AnthropicError(f"cannot reach {url}: {exc.reason}; check the network or ANTHROPIC_BASE_URL") from exc
        except OSError as exc:
            raise AnthropicError(f"cannot reach {url}: {exc}") from exc
        try:
            answer = json.loads(raw)
            tokens = answer["input_tokens"]
        except (ValueError, KeyError, TypeError):
            raise AnthropicError(f"unexpected answer from {url} (no input_tokens): {raw[:200]!r}") from None
        if not isinstance(tokens, int) or tokens < 0:
            raise AnthropicError(f"unexpected answer from {url}: input_tokens = {tokens!r}")
        return tokens

    def _read_disk(self, key: str) -> int | None:
        if self.cache_dir is None:
            return None
        try:
            value = json.loads((self.cache_dir / f"{key}.json").read_text(encoding="utf-8"))["input_tokens"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return value if isinstance(value, int) else None

    def _write_disk(self, key: str, tokens: int) -> None:
        if self.cache_dir is None:
            return
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs a request next time
            write_atomic(private_folder(self.cache_dir) / f"{key}.json", json.dumps({"input_tokens": tokens}))

    def prefetch(self, texts: list[str], workers: int = 4) -> None:
        """Count many texts with a few requests in flight at once, filling the cache (the first error is raised)."""
        from concurrent.futures import ThreadPoolExecutor

        self.input_tokens(self.request_body())  # the baseline, once
        todo = list(dict.fromkeys(t for t in texts if t))
        todo = [t for t in todo if self.cache_key(self.request_body(t)) not in self._memory]
        if not todo:
            return
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="count-tokens") as pool:
            for future in [pool.submit(self.count, text) for text in todo]:
                future.result()

    # ------------------------------------------------------------------------------------- counting

    def count(self, text: str) -> int:
        """Tokens of ``text`` as Claude sees it: a one-message request minus the one-character baseline."""
        if not text:
            return 0
        return max(0, self.input_tokens(self.request_body(text)) - self.input_tokens(self.request_body()) + 1)

    def count_tool_list(self, texts: list[str], shape: str) -> int:
        """Tokens of a whole serialised list. In the Anthropic shape it is sent as ``tools`` (what Claude is
        charged), minus the documented tool-use system prompt, which the report adds as its overhead."""
        from inspector.budget.breakdown import ANTHROPIC_TOOL_SYSTEM_PROMPT
        from inspector.budget.shapes import LIST_FRAMES

        if shape != "anthropic" or not texts:
            frame = LIST_FRAMES[shape]
            return self.count(frame.prefix + ",".join(texts) + frame.suffix)
        tools = [json.loads(text) for text in texts]
        with_tools = self.input_tokens(self.request_body(tools=tools))
        without = self.input_tokens(self.request_body())
        return max(0, with_tools - without - ANTHROPIC_TOOL_SYSTEM_PROMPT)


def _http_error(exc: urllib.error.HTTPError) -> AnthropicError:
    status = exc.code
    detail = ""
    try:
        body = json.loads(exc.read() or b"{}")
        detail = str((body.get("error") or {}).get("message") or "")
    except (ValueError, AttributeError, OSError):
        pass
    suffix = f": {detail}" if detail else ""
    if status == 401:
        return AnthropicError(f"Anthropic rejected the API key (401){suffix}; check ANTHROPIC_API_KEY", status)
    if status == 403:
        return AnthropicError(f"the API key may not use count_tokens (403){suffix}", status)
    if status == 429:
        retry = exc.headers.get("retry-after") if exc.headers else None
        wait = f"; retry after {retry} s" if retry else "; wait a little and retry"
        return AnthropicError(f"Anthropic rate limit reached (429){suffix}{wait}", status)
    if status >= 500:
        return AnthropicError(
            f"Anthropic API error {status}{suffix}; the service may be overloaded, retry later", status
        )
    return AnthropicError(f"Anthropic refused the request ({status}){suffix}", status)
