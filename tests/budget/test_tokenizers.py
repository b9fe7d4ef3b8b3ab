"""The shipped encoders against tiktoken's own reference, offline; the hash check; the estimate."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import tiktoken
from factories import tool
from lens_support import REPO

from inspector.budget import tokenizers
from inspector.budget.tokenizers import (
    ENCODINGS,
    EncodingSpec,
    TokenizerError,
    get_tokenizer,
    load_encoding,
    offline_tokenizers,
    rank_file_bytes,
)

RANKS = REPO / "resources/tokenizers"
BLOB = "https://openaipublic.blob.core.windows.net/encodings/{}.tiktoken"

SAMPLES = [
    "",
    "hello world",
    "  leading and trailing  \n\n\t",
    "Ünïcödé — naïve café, Straße, ΑΒΓ, русский текст, 日本語のテキスト, 한국어, עברית, العربية",
    "emoji 😀🎉👩‍👩‍👧‍👦🏳️‍🌈 flags 🇫🇷🇯🇵 and skin tones 👍🏽",
    "numbers 1234567890 3.14159 -42 1e-9 0x1F",
    "contractions: it's we'll they've I'M you'D",
    "code: def f(x):\n    return {'a': [1, 2, 3]}  # comment\r\n",
    "<|endoftext|> special-token text counts as ordinary text <|fim_prefix|>",
    "\u200b zero width \u00ad soft hyphen \ufeff bom \U0001f9ea",
    json.dumps(
        {
            "tools": [
                tool(
                    f"tool_{i}",
                    "Fetch the weather ☀️ for a city — température, humidité. " * 3,
                    {"type": "object", "properties": {"city": {"type": "string"}}},
                )
                for i in range(200)
            ]
        },
        ensure_ascii=False,
    ),
]


@pytest.fixture(scope="module")
def reference_encodings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tiktoken.Encoding]:
    """tiktoken's own encodings, built by its own constructors (tiktoken_ext.openai_public), which verify
    the file against their expected hash. The files come from tiktoken's cache directory, filled here with
    the shipped files under tiktoken's cache names (sha1 of the download URL): no network involved."""
    cache = tmp_path_factory.mktemp("tiktoken-cache")
    for name in ENCODINGS:
        url = BLOB.format(name)
        raw = gzip.decompress((RANKS / f"{name}.tiktoken.gz").read_bytes())
        (cache / hashlib.sha1(url.encode()).hexdigest()).write_bytes(raw)
    from tiktoken_ext import openai_public

    previous = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        built = {}
        for name in ENCODINGS:
            params = getattr(openai_public, name)()
            built[name] = tiktoken.Encoding(**params)
        return built
    finally:
        if previous is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = previous


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_same_token_ids_as_tiktoken_reference(name: str, reference_encodings: dict[str, tiktoken.Encoding]) -> None:
    ours = get_tokenizer(name)
    reference = reference_encodings[name]
    for text in SAMPLES:
        assert ours.encode(text) == reference.encode_ordinary(text), text[:60]
        assert ours.count(text) == len(reference.encode_ordinary(text))
    assert ours.exact


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_pattern_and_special_tokens_match_tiktoken(
    name: str, reference_encodings: dict[str, tiktoken.Encoding]
) -> None:
    ours = load_encoding(name)
    reference = reference_encodings[name]
    assert ours._pat_str == reference._pat_str
    assert ours._special_tokens == reference._special_tokens
    assert ours.n_vocab == reference.n_vocab


def test_known_counts() -> None:
    # Spot values that do not depend on any reference build.
    o200k = get_tokenizer("o200k_base")
    cl100k = get_tokenizer("cl100k_base")
    assert o200k.encode("hello world") == [24912, 2375]
    assert cl100k.encode("hello world") == [15339, 1917]


def test_hash_mismatch_is_a_clear_error() -> None:
    bad = EncodingSpec(name="o200k_base", file="o200k_base.tiktoken.gz", sha256="0" * 64, pat_str="")
    with pytest.raises(TokenizerError, match=r"corrupt: SHA-256 446a9538.* does not match"):
        rank_file_bytes(bad)


def test_missing_file_is_a_clear_error() -> None:
    bad = EncodingSpec(name="x", file="nope.tiktoken.gz", sha256="0" * 64, pat_str="")
    with pytest.raises(TokenizerError, match="missing from the installation"):
        rank_file_bytes(bad)


def test_unknown_tokenizer() -> None:
    with pytest.raises(KeyError, match="unknown tokenizer 'gpt2'"):
        get_tokenizer("gpt2")
    assert offline_tokenizers() == ["o200k_base", "cl100k_base", "claude", "chars4"]


def test_chars4_is_an_estimate() -> None:
    chars = get_tokenizer("chars4")
    assert not chars.exact
    assert "estimate" in chars.label
    assert [chars.count(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]


def test_loaded_once_per_process_under_threads() -> None:
    tokenizers._loaded.pop("cl100k_base", None)
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(load_encoding("cl100k_base"))) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 6 and all(r is results[0] for r in results)


OFFLINE = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("network disabled by the test")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from inspector.budget.tokenizers import get_tokenizer
for name in ("o200k_base", "cl100k_base"):
    print(name, get_tokenizer(name).count("héllo wörld 😀"))
import urllib.request
try:
    urllib.request.urlopen("https://openaipublic.blob.core.windows.net/", timeout=2)
except OSError as exc:
    print("network really off:", exc)
"""


def test_loads_with_the_network_unavailable(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "TIKTOKEN_CACHE_DIR": str(tmp_path),  # empty: tiktoken's own cache cannot help
        "DATA_GYM_CACHE_DIR": str(tmp_path),
        "HTTPS_PROXY": "http://127.0.0.1:9",
    }
    proc = subprocess.run([sys.executable, "-c", OFFLINE], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "o200k_base " in proc.stdout and "cl100k_base " in proc.stdout
    assert "network really off" in proc.stdout
    assert not list(tmp_path.iterdir())  # nothing written to a tiktoken cache either


def _can_unshare() -> bool:
    import shutil

    if not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _can_unshare(), reason="needs unshare -rn (user and network namespaces)")
def test_loads_in_a_network_namespace_without_network(tmp_path: Path) -> None:
    """A stronger version of the test above: the process has no network interface at all but loopback-down."""
    code = OFFLINE.split("from inspector.budget", 1)[1]
    env = {**os.environ, "PYTHONPATH": str(REPO), "TIKTOKEN_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run(
        ["unshare", "-rn", sys.executable, "-c", "from inspector.budget" + code],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "o200k_base " in proc.stdout and "network really off" in proc.stdout


def test_parse_ranks() -> None:
    from inspector.budget.tokenizers import parse_ranks

    assert parse_ranks(b"YQ== 0\nYg== 1\n") == {b"a": 0, b"b": 1}
    for bad in (b"YQ== 0 1\n", b"YQ==\n", b"YQ== x\n", b"YQ== 0\nYg==1\n"):
        with pytest.raises(TokenizerError, match="malformed"):
            parse_ranks(bad)
