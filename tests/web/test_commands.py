"""The one command registry, and that every ``data-cmd`` in web/ is registered."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from source_trees import source_tree

from web.commands import Commands

WEB = Path(__file__).resolve().parents[2] / "web"


def test_scoped_commands_come_first_then_the_apps() -> None:
    ran: list[tuple[str, str]] = []
    commands = Commands()

    def app(cmd: str, element: Any, event: Any) -> None:
        ran.append(("app", cmd))

    def play(cmd: str, element: Any, event: Any) -> None:
        ran.append(("play", cmd))

    commands.register(("undo", "next-step"), app)
    commands.register(["next-step", "pick"], play, scope="play")
    assert commands.run("next-step", scope="play") and commands.run("next-step")
    assert commands.run("undo", scope="play")
    assert not commands.run("pick") and not commands.run("nothing", scope="play")
    assert ran == [("play", "next-step"), ("app", "next-step"), ("app", "undo")]
    assert commands.names() == ["next-step", "undo"] and commands.names("play") == [
        "next-step",
        "pick",
    ]
    with pytest.raises(ValueError, match="already registered"):
        commands.register("pick", app, scope="play")


def registered_names() -> set[str]:
    """Names in ``COMMANDS`` tuples and ``commands.register(...)`` / dict keys of web/."""
    names: set[str] = set()
    for path in WEB.rglob("*.py"):
        if "node_modules" in path.parts:
            continue
        tree = source_tree(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "COMMANDS" for t in node.targets
            ):
                names |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)}
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register"
                and node.args
            ):
                arg = node.args[0]
                names |= {c.value for c in ast.walk(arg) if isinstance(c, ast.Constant)}
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "simple":
                value = node.value
                if isinstance(value, ast.Dict):
                    names |= {k.value for k in value.keys if isinstance(k, ast.Constant)}
    return {n for n in names if isinstance(n, str)}


def test_every_data_cmd_of_the_page_is_registered() -> None:
    used: set[str] = set()
    for path in [*WEB.rglob("*.py"), WEB / "index.html"]:
        if "node_modules" in path.parts:
            continue
        used |= set(re.findall(r'data-cmd="([a-z-]+)"', path.read_text(encoding="utf-8")))
    used.discard("coords")  # the coordinates switch is a checkbox with its own listener
    assert used, "the scan found no commands"
    missing = used - registered_names()
    assert not missing, f"data-cmd without a handler: {sorted(missing)}"
