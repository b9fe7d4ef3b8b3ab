"""What the demo's skills cost in a host's context: their names and descriptions as a host lists them."""

from __future__ import annotations

from inspector.budget.skills_cost import SkillsCost, listed_text, skills_cost, skills_words
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
