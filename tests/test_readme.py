"""README.md stays true: its engine example runs as written and its CLI lines name real commands."""

from __future__ import annotations

import re
from pathlib import Path

from hexcombat.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_engine_example_runs_as_written() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README.md has no python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    enc = namespace["same"]
    assert enc.state.figures["bo"].pools["hp"].current == 6  # type: ignore[attr-defined]


def test_every_cli_command_in_the_readme_exists(capsys: object) -> None:
    text = README.read_text(encoding="utf-8")
    commands = set(re.findall(r"^hexcombat (\w+) .*#", text, re.M))  # the CLI block's lines
    assert commands == {"validate", "replay", "render", "rulesets", "autoplay"}
    for command in commands:
        try:
            main([command, "--help"])
        except SystemExit as exc:
            assert exc.code == 0


def test_the_readme_lists_every_built_in_ruleset_with_its_coverage_table() -> None:
    from hexcombat.rulesets import all_rulesets

    text = README.read_text(encoding="utf-8")
    intro = text.split("## What it does", 1)[1].split("\n## ", 1)[0]
    for ruleset in all_rulesets():
        assert f"`{ruleset.id}`" in intro, ruleset.id
        if ruleset.manifest.prefix:
            assert f"(docs/rules/{ruleset.id}.md)" in intro, ruleset.id
