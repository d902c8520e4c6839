"""README.md stays what a newcomer needs: short, with the board's picture, the two commands,
the engine's example (run as a doctest by tests/test_docs.py) and every ruleset by name,
each with its page in the players' guide; each such page names its id and links its
coverage table."""

from __future__ import annotations

import re
from pathlib import Path

from hexcombat.rulesets import all_rulesets

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide" / "rulesets"


def test_the_readme_is_short_and_shows_the_board() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert pictures and all((ROOT / p).is_file() for p in pictures)
    assert "web/serve" in text and "tests/run" in text and "(LICENSE)" in text


def test_the_engine_example_ends_with_the_saved_fight_replayed() -> None:
    example = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)[0]
    assert example.rstrip().endswith('loads(dumps(enc)).state.figures["bo"].pools["hp"].current\n6')


def test_every_built_in_ruleset_is_named_and_has_a_guide_page() -> None:
    text = README.read_text(encoding="utf-8")
    for ruleset in all_rulesets():
        assert f"`{ruleset.id}`" in text, ruleset.id
        page = GUIDE / f"{ruleset.id}.md"
        assert f"(docs/guide/rulesets/{ruleset.id}.md)" in text, ruleset.id
        prose = page.read_text(encoding="utf-8").split("<!--", 1)[0]
        assert prose.startswith(f"# {ruleset.id}\n"), ruleset.id
        if ruleset.manifest.prefix:
            assert f"(../../rules/{ruleset.id}.md)" in prose, ruleset.id
