"""Sentence coverage of a ruleset's source text: the splitter, the committed maps and their check.

A source text (``source/<file>.txt`` in the spec folder) is split into numbered sentences:

1. **Blocks.** A text whose lines are all at most ``WRAPPED_WIDTH`` characters is hard-wrapped:
   its lines join into blocks, and a block ends only at a line without letters or digits
   (blank, or a chart's rule such as ``| | |``), before a list item (a line starting ``-``,
   ``*``, ``•`` or a dash), after a heading line (all its letters capitals) and after a line
   ending in a colon. A text with longer lines keeps one paragraph, heading or list item per
   line, so every line with a letter or digit is a block. A list item's marker is not part
   of its sentence.
2. **Sentences.** Within a block, runs of white space become one space, and a sentence ends
   at ``.``, ``!`` or ``?`` (with any closing quote or bracket after it) followed by a space
   and a capital letter, digit, quote or opening bracket, unless the word ending there is an
   abbreviation (``e.g.``, ``i.e.``, ``NB.``, ...); a number inside a word (``3.1``, ``83.2``)
   and a stop before a lower-case word never end one. A numbered item inside a block
   (``1) move ...  2) move ...``, numbered from 1 in sequence; not ``(1)``) starts a
   sentence of its own.
3. **Digest.** A sentence's digest is the first ``DIGEST_LENGTH`` hex digits of the SHA-256
   of its text in NFC form (white space already collapsed).

A ruleset's map is ``tests/rules/sentences/<ruleset>.json``; ``python
tests/rules/sentence_maps.py <ruleset> <source text>`` writes a first one, every sentence
open::

    {"source": "002_12c6a4afc6139cfc.txt",
     "sentences": [
       {"n": 1, "digest": "9c0e41d2", "says": "CS is the top speed with full combat ability",
        "tests": ["tests/rules/test_combat_speed_phase_movement.py::test_csp_1_..."]},
       {"n": 2, "digest": "...", "says": "worked example begins", "no_rule": "heading"},
       {"n": 3, "digest": "...", "says": "...", "open": "being fixed: ..."}]}

``says`` is our own short paraphrase (never the text: the sources are not ours to copy).
Each entry has ``tests`` (``path::function`` of a test function in the tree, the part of the
sentence they check), or ``no_rule`` (why it carries none: flavour, heading, covered by a
neighbouring sentence, ...), or ``open`` (what is missing; ``tests`` may come with it for the
part already checked). A sentence counts as open when it has ``open``, else as covered by
tests when it has ``tests``, else as carrying no rule.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: tests/
from source_trees import source_tree

ROOT = Path(__file__).resolve().parents[2]
MAPS = Path(__file__).with_name("sentences")
WRAPPED_WIDTH = 200
DIGEST_LENGTH = 8
ABBREVIATIONS = frozenset({"e.g.", "i.e.", "nb.", "cf.", "vs.", "viz.", "approx."})

OPENING = "\"'\u201c\u2018(["
"""Quotes and brackets that may open a sentence (or precede an abbreviation)."""
CLOSING = "\"'\u201d\u2019)]"
"""Quotes and brackets that may close a sentence after its stop."""

_LIST_ITEM = re.compile("^\\s*[-*\u2022\u2013\u2014]\\s")
_SENTENCE_END = re.compile(f"[.!?][{re.escape(CLOSING)}]*(?= [A-Z0-9{re.escape(OPENING)}])")
_NUMBERED_ITEM = re.compile(r"(?:^|(?<=\s))(\d{1,2})\)\s")


def _is_heading(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def blocks(text: str) -> list[str]:
    """The text's paragraphs, headings and list items (step 1 of the module's splitting)."""
    lines = [line.rstrip() for line in text.splitlines()]
    if any(len(line) > WRAPPED_WIDTH for line in lines):
        return [_words(line) for line in lines if any(c.isalnum() for c in line)]
    found: list[list[str]] = []
    open_block = False
    for line in lines:
        if not any(c.isalnum() for c in line):
            open_block = False
            continue
        if not open_block or _LIST_ITEM.match(line):
            found.append([])
        found[-1].append(line)
        open_block = not (_is_heading(line) or line.endswith(":"))
    return [_words(" ".join(block)) for block in found]


def _words(block: str) -> str:
    """A block's words: white space collapsed, a list item's marker dropped."""
    return _LIST_ITEM.sub("", " ".join(block.split()), count=1)


def _ends_abbreviation(text: str) -> bool:
    word = text.rsplit(" ", 1)[-1].lstrip(OPENING).lower()
    return word in ABBREVIATIONS


def _numbered_items(text: str) -> list[int]:
    """Where the items ``1)``, ``2)``, ... of a run-in numbered list start (in sequence only:
    "full FIG of 29)" is no item) and at least two of them (a lone "1)" is none)."""
    starts: list[int] = []
    for match in _NUMBERED_ITEM.finditer(text):
        if int(match[1]) == len(starts) + 1:
            starts.append(match.start())
    return starts if len(starts) > 1 else []


def _split_block(block: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(block):
        end = match.end()
        if _ends_abbreviation(block[start : match.start() + 1]):
            continue
        pieces.append(block[start:end])
        start = end + 1
    pieces.append(block[start:])
    sentences: list[str] = []
    for piece in pieces:
        cuts = [0, *_numbered_items(piece), len(piece)]
        sentences += [piece[a:b].strip() for a, b in itertools.pairwise(cuts)]
    return [s for s in sentences if s]


def split(text: str) -> list[str]:
    """The text's sentences in order (the module docstring says how)."""
    return [s for block in blocks(text) for s in _split_block(block)]


def digest(sentence: str) -> str:
    """The short digest a map keys a sentence by."""
    data = unicodedata.normalize("NFC", sentence).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH]


@dataclass(frozen=True)
class Entry:
    """One sentence of a map: its number, digest, paraphrase and how it is covered."""

    n: int
    digest: str
    says: str
    tests: tuple[str, ...] = ()
    no_rule: str = ""
    open: str = ""

    @property
    def status(self) -> str:
        """``open``, ``tested`` or ``no rule`` (the module docstring's order)."""
        if self.open:
            return "open"
        return "tested" if self.tests else "no rule"


@dataclass(frozen=True)
class SentenceMap:
    """A ruleset's committed map of its source text."""

    source: str
    entries: tuple[Entry, ...]

    def count(self, status: str) -> int:
        """How many sentences have ``status``."""
        return sum(1 for e in self.entries if e.status == status)


def map_path(ruleset: str) -> Path:
    """Where the map of ``ruleset`` is committed."""
    return MAPS / f"{ruleset}.json"


def load(ruleset: str) -> SentenceMap | None:
    """The committed map of ``ruleset``, or None when it keeps none."""
    path = map_path(ruleset)
    if not path.is_file():
        return None
    return from_json(json.loads(path.read_text(encoding="utf-8")))


def from_json(data: dict[str, Any]) -> SentenceMap:
    """A map from its JSON form."""
    entries = tuple(
        Entry(
            n=e["n"],
            digest=e["digest"],
            says=e["says"],
            tests=tuple(e.get("tests", ())),
            no_rule=e.get("no_rule", ""),
            open=e.get("open", ""),
        )
        for e in data["sentences"]
    )
    return SentenceMap(data["source"], entries)


def names_a_test(reference: str) -> bool:
    """Whether ``path::function`` (or ``path::Class::method``) names a test in the tree."""
    path, _, name = reference.partition("::")
    file = ROOT / path
    if not name or not file.is_file() or file.suffix != ".py":
        return False
    scope: list[ast.stmt] = source_tree(file).body
    *classes, function = name.split("::")
    for cls in classes:
        found = [n for n in scope if isinstance(n, ast.ClassDef) and n.name == cls]
        if not found:
            return False
        scope = found[0].body
    return function.startswith("test") and any(
        isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function for n in scope
    )


def entry_problems(sentence_map: SentenceMap) -> list[str]:
    """What is wrong with the map's entries themselves (no source text needed)."""
    found: list[str] = []
    numbers = [e.n for e in sentence_map.entries]
    if numbers != sorted(set(numbers)):
        found.append("the map's sentence numbers are repeated or out of order")
    for entry in sentence_map.entries:
        if not entry.says:
            found.append(f"sentence {entry.n} has no paraphrase")
        if bool(entry.no_rule) and (entry.tests or entry.open):
            found.append(f"sentence {entry.n} carries no rule yet names tests or is open")
        if not (entry.tests or entry.no_rule or entry.open):
            found.append(f"sentence {entry.n} has no tests, no reason and is not open")
        found += [f"sentence {entry.n}: no test {t}" for t in entry.tests if not names_a_test(t)]
    return found


def problems(sentence_map: SentenceMap, text: str) -> list[str]:
    """Everything that keeps the map from matching the text and the test tree: each sentence
    missing or changed is named with its new digest."""
    found: list[str] = []
    sentences = split(text)
    by_number = {e.n: e for e in sentence_map.entries}
    for n, sentence in enumerate(sentences, start=1):
        entry = by_number.get(n)
        if entry is None:
            found.append(f"sentence {n} ({digest(sentence)}) is not in the map: {sentence[:60]}")
        elif entry.digest != digest(sentence):
            found.append(f"sentence {n} changed: digest {digest(sentence)}, map {entry.digest}")
    found += [f"sentence {n} is not in the text" for n in by_number if n > len(sentences)]
    return found + entry_problems(sentence_map)


def skeleton(source: str, text: str) -> dict[str, Any]:
    """A first map of ``text`` (the file ``source``): every sentence numbered with its digest
    and open, for the paraphrase and the tests to be written in."""
    sentences = [
        {"n": n, "digest": digest(sentence), "says": "to paraphrase", "open": "not read yet"}
        for n, sentence in enumerate(split(text), start=1)
    ]
    return {"source": source, "sentences": sentences}


def main(argv: list[str]) -> int:
    """``python tests/rules/sentence_maps.py <ruleset> <source text>``: write the ruleset's
    first map (never over a map already committed)."""
    ruleset, source = argv
    path, text = map_path(ruleset), Path(source)
    if path.exists():
        sys.stderr.write(f"{path.relative_to(ROOT)} exists; edit it instead\n")
        return 1
    made = skeleton(text.name, text.read_text(encoding="utf-8"))
    path.write_text(json.dumps(made, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {path.relative_to(ROOT)}: {len(made['sentences'])} sentences\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
