"""The ``$ hexcombat ...`` examples of the docs' console blocks: each run as the docs show it
(from a folder holding only ``static/``), and the shown output written anew.

``python tests/cli_examples.py`` rewrites every example's output in the docs with what the
command prints now; ``tests/test_docs.py`` checks that each still prints what it shows (with
timings as ``N ms``).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the repository's engine

from hexcombat.cli import main  # noqa: E402

DOCS = sorted(
    [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "CHANGELOG.md",
        *(ROOT / "docs").rglob("*.md"),
    ]
)
"""Every page of the docs."""
BLOCK = re.compile(r"^ *```(\w*)\n(.*?)^ *```", re.S | re.M)
MS = re.compile(r"\d+ ms")


def run(command: str) -> str:
    """What ``command`` (``hexcombat ...``) prints, run from a folder holding ``static/``."""
    words = shlex.split(command)
    if words[0] != "hexcombat":
        raise ValueError(f"a console example runs hexcombat: {command}")
    out = io.StringIO()
    previous = Path.cwd()
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "static").symlink_to(ROOT / "static")
        os.chdir(folder)
        try:
            with (
                contextlib.redirect_stdout(out),
                contextlib.redirect_stderr(out),
                contextlib.suppress(SystemExit),  # --version and --help end as argparse ends
            ):
                main(words[1:])
        finally:
            os.chdir(previous)
    return out.getvalue()


def masked(text: str) -> str:
    """``text`` with every timing written ``N ms``."""
    return MS.sub("N ms", text)


def rewritten(body: str) -> str:
    """A console block's text with each example's output as the command prints it now."""
    lines = body.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("$ ")]
    if not starts:
        return body
    out = lines[: starts[0]]
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        shown = "\n".join(lines[start + 1 : end]) + "\n"
        printed = run(lines[start][2:])
        keep = "..." in shown or masked(shown) == masked(printed)
        out += [lines[start], *(shown if keep else printed).rstrip("\n").split("\n")]
    return "\n".join(out) + "\n"


def main_write() -> None:
    """Rewrite every console example's output in the docs (those with ``...`` are kept)."""
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        new = BLOCK.sub(
            lambda m: (
                m.group(0).replace(m.group(2), rewritten(m.group(2)))
                if m.group(1) == "console"
                else m.group(0)
            ),
            text,
        )
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main_write()
