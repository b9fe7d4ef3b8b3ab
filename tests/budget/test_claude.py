"""Claude counted offline with ctok: model → family, the demo's and server-everything's lists checked
against ctok itself on the same rendered text, the labels every output carries, and count_tokens
beside ctok (a loopback HTTP server speaking the endpoint's shape) saved as a calibration."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ctok
import pytest
from count_tokens_server import count_tokens_server
from lens_support import run_lens

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.claude import FAMILY_VERSIONS, family_of, tool_prompt
from inspector.budget.render import RENDERERS, RenderInput
from inspector.budget.shapes import LIST_FRAMES, dumps, shaped_tool
from inspector.budget.tokenizers import get_tokenizer

FAMILY_MODELS = {"v3": "claude-sonnet-4-5", "v4.7": "claude-opus-4-7", "v4.8": "claude-opus-4-8"}


def test_model_names_choose_the_family() -> None:
    for model in ("claude-3-opus-20240229", "claude-3-5-sonnet-20241022", "claude-sonnet-4-5", "claude-opus-4-6"):
        assert family_of(model) == "v3", model
    assert family_of("claude-opus-4-7") == "v4.7"
    for model in ("claude-opus-4-8", "claude-sonnet-5", "claude-fable-5", "claude-next-9", "", None):
        assert family_of(model) == "v4.8", model
    assert get_tokenizer("claude").family == "v4.8"  # newest by default
    assert tool_prompt("claude-sonnet-4-5").tokens == 346 and tool_prompt("claude-sonnet-4-5").documented
    assert tool_prompt("claude-3-opus-20240229").tokens == 530
    assert not tool_prompt("claude-sonnet-5").documented  # no published figure: said, not guessed


def _ctok_content(text: str, version: str) -> int:
    """ctok's own count of ``text`` minus its one-message frame."""
    frame = ctok.tokenize("a", version).count("⟨pad⟩")
    return ctok.token_count(text, version) - frame


@pytest.mark.parametrize("family", list(FAMILY_VERSIONS))
@pytest.mark.parametrize("server", ["demo_tools", "everything_tools"])
def test_lists_match_ctok_on_the_rendered_text(family: str, server: str, request: pytest.FixtureRequest) -> None:
    tools = request.getfixturevalue(server)
    tokenizer = get_tokenizer("claude", model=FAMILY_MODELS[family])
    assert tokenizer.family == family
    report = BudgetCounter(tokenizer).report(tools, "anthropic")
    version = FAMILY_VERSIONS[family]
    texts = [dumps(shaped_tool(tool, "anthropic")) for tool in tools]
    frame = LIST_FRAMES["anthropic"]
    assert report.total == _ctok_content(frame.prefix + ",".join(texts) + frame.suffix, version)
    assert [cost.total for cost in report.tools] == [_ctok_content(text, version) for text in texts]
    cost = report.tools[0]
    described = dumps("description") + ":" + dumps(tools[0]["description"])
    assert cost.parts["description"] == _ctok_content(described, version)
    assert report.overhead == 346 and report.figure == "reconstructed"
    assert "reconstructed" in report.tokenizer_label and "346" in report.note and "checked 2026-11-25" in report.note


def test_every_output_says_what_the_figure_is(demo_tools: list[dict[str, Any]]) -> None:
    expected = {
        ("o200k_base", "mcp"): "exact",
        ("o200k_base", "anthropic"): "estimate",  # Claude's list counted with an OpenAI encoder
        ("chars4", "mcp"): "estimate",
        ("claude", "mcp"): "reconstructed",
        ("claude", "anthropic"): "reconstructed",
    }
    for (name, shape), figure in expected.items():
        report = BudgetCounter(get_tokenizer(name)).report(demo_tools[:3], shape)
        assert report.figure == figure, (name, shape)
        data = RenderInput("demo", "test", [report], 128_000, "128K", lints=False)
        assert f"· {figure}" in RENDERERS["text"](data).splitlines()[-2 if report.note else -1]
        assert json.loads(RENDERERS["json"](data))["reports"][0]["figure"] == figure
        rows = list(csv.DictReader(io.StringIO(RENDERERS["csv"](data))))
        assert {row["figure"] for row in rows if not row["tool"].startswith("(")} == {figure}
        assert f"({figure})" in RENDERERS["markdown"](data)


@pytest.fixture(scope="module")
def count_tokens_api() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    with count_tokens_server() as served:
        yield served


def test_count_tokens_beside_ctok_saved_as_a_calibration(
    demo_tools: list[dict[str, Any]], count_tokens_api: tuple[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    url, seen = count_tokens_api
    tools_file = tmp_path / "demo.json"
    tools_file.write_text(json.dumps({"tools": demo_tools}), encoding="utf-8")
    env = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": url, "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    base = ["tokens", "--tools-file", str(tools_file), "--encoding", "claude", "--shape", "anthropic"]
    first = run_lens(*base, "--anthropic-api", "--save-calibration", "--format", "json", "--no-lints", env=env)
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    api = out["count_tokens"]
    shaped = [shaped_tool(tool, "anthropic") for tool in demo_tools]
    assert api["api"] == len(json.dumps(shaped)) // 3 + 346  # with tools − without, as the server answered
    assert api["reconstructed"] == BudgetCounter(get_tokenizer("claude")).report(demo_tools, "anthropic").grand_total
    assert api["difference"] == api["api"] - api["reconstructed"] and api["figure"] == "count_tokens API"
    assert {r["path"] for r in seen} == {"/v1/messages/count_tokens"} and seen[0]["key"] == "sk-ant-test"
    assert "calibration saved for demo" in first.stderr
    assert out["reports"][0]["figure"] == "calibrated"

    later = run_lens(*base, "--calibration", "--no-lints", env={**env, "ANTHROPIC_API_KEY": ""})
    assert later.returncode == 0, later.stderr
    assert "· calibrated" in later.stdout and "calibrated: ×" in later.stdout
    total = int(later.stdout.split("total ")[1].split(" tokens")[0].replace(",", ""))
    assert abs(total + 346 - api["api"]) <= 2  # the calibrated list now meets the API's figure
    assert abs(out["reports"][0]["grand_total"] - api["api"]) <= 2  # saved and applied at once
