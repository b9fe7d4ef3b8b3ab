"""What the demo's skills cost in a host's context: their names and descriptions as a host lists them."""

from __future__ import annotations

from inspector.budget.host_rules import HOSTS, SKILLS_LISTING
from inspector.budget.skills_cost import (
    SkillsCost,
    host_skills_cost,
    host_skills_words,
    listed_text,
    skills_cost,
    skills_words,
)
from inspector.budget.tokenizers import get_tokenizer
from inspector.demo.skills_demo import DEMO_SKILLS


def test_the_listed_names_and_descriptions_are_counted_and_said_with_the_figure_s_words() -> None:
    entries = [skill.entry() for skill in DEMO_SKILLS]
    assert listed_text(entries) == (
        "- release-notes: Write release notes from the demo's changelog, one line per change.\n"
        "- dice-rolling: Roll dice with the demo's show_dice tool and explain the odds."
    )
    counter = get_tokenizer("o200k_base")
    cost = skills_cost(entries, counter.count)
    assert cost == SkillsCost(2, counter.count(listed_text(entries))) and 20 < cost.tokens < 60
    assert skills_words(cost, "exact (o200k_base tokenizer)") == (
        f"skills: 2 skills listed, {cost.tokens} tokens "
        "(names and descriptions as a host lists them; exact (o200k_base tokenizer))"
    )
    assert skills_cost([{"frontmatter": "broken"}, 3], counter.count) == SkillsCost(0, 0)


def test_a_skill_listed_twice_is_counted_once_and_the_drop_is_said() -> None:
    entries = [skill.entry() for skill in DEMO_SKILLS]
    counter = get_tokenizer("o200k_base")
    once = skills_cost(entries, counter.count)
    repeated = skills_cost(entries * 125, counter.count)
    assert repeated == SkillsCost(2, once.tokens, dropped=248)
    assert skills_words(repeated, "exact").startswith(f"skills: 2 skills listed ({248} duplicates dropped), ")


# Per host view: each host's rule for its skills listing (`host_rules.SKILLS_LISTING`), one test per rule.


def _entry(name: str, description: str) -> dict:
    return {"uri": f"skill://{name}/SKILL.md", "frontmatter": {"name": name, "description": description}}


def test_every_host_has_a_skills_rule_with_its_source_date_and_status_or_is_said_not_known() -> None:
    for name in HOSTS:
        rule = SKILLS_LISTING.get(name)
        if rule is None:
            continue
        assert rule.key == "skills-listing" and rule.source and rule.checked
        assert rule.status in ("confirmed", "unconfirmed")
    assert set(SKILLS_LISTING) <= set(HOSTS)
    counter = get_tokenizer("o200k_base")
    unknown = [name for name in HOSTS if name not in SKILLS_LISTING]
    assert unknown, "some host's way with skills is not known: it is said so"
    for name in unknown:
        cost = host_skills_cost([_entry("a", "b")], counter.count, name, 200_000)
        assert cost.known is False and cost.tokens == 0
        assert host_skills_words(cost, "exact") == (
            f"skills: 1 skill listed; not known how {HOSTS[name].label} loads a server's skills"
        )


def test_claude_code_lists_names_and_descriptions_each_cut_at_its_character_cap() -> None:
    rule = SKILLS_LISTING["claude-code"]
    cap = rule.value["description_chars"]
    counter = get_tokenizer("o200k_base")
    long = "word " * 1000
    cost = host_skills_cost([_entry("big", long), _entry("small", "short")], counter.count, "claude-code", 200_000)
    cut = long.split()
    shown = " ".join(cut)[:cap]
    assert cost.known and cost.skills == 2 and cost.cut == 1
    assert cost.tokens == counter.count(f"- big: {shown}\n- small: short")
    words = host_skills_words(cost, "exact (o200k_base tokenizer)")
    assert words.startswith(f"skills: 2 skills listed, {cost.tokens:,} tokens as Claude Code lists them (1 description")
    assert words.endswith("; exact (o200k_base tokenizer); unconfirmed)")
    assert rule.status == "unconfirmed" and "code.claude.com/docs/en/skills" in rule.source


def test_claude_code_says_when_the_listing_passes_its_share_of_the_window() -> None:
    share = SKILLS_LISTING["claude-code"].value["window_share"]
    counter = get_tokenizer("o200k_base")
    entries = [_entry(f"skill-{i}", "does a thing well " * 20) for i in range(40)]
    roomy = host_skills_cost(entries, counter.count, "claude-code", 10_000_000)
    tight = host_skills_cost(entries, counter.count, "claude-code", 20_000)
    assert roomy.over_budget == 0 and "listing budget" not in host_skills_words(roomy, "exact")
    budget = int(20_000 * share)
    assert tight.over_budget == tight.tokens - budget > 0
    assert f"over Claude Code's listing budget of {budget:,} tokens (1% of the window)" in host_skills_words(
        tight, "exact"
    )


def test_the_anthropic_api_loads_no_skills_from_a_server() -> None:
    rule = SKILLS_LISTING["anthropic"]
    assert rule.value == {"loads": False}
    counter = get_tokenizer("o200k_base")
    cost = host_skills_cost([_entry("a", "b")], counter.count, "anthropic", 200_000)
    assert cost.known and cost.tokens == 0
    assert host_skills_words(cost, "exact") == (
        "skills: 1 skill listed, 0 tokens as Anthropic API loads them (it loads no skills from a server; confirmed)"
    )
