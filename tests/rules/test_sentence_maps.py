"""Every ruleset with a source text keeps a map of its sentences (``tests/rules/sentences/``):
every sentence is in it with a matching digest, and every test it names exists. The splitter
itself is checked on the shapes the texts have (abbreviations, numbered and bulleted lists,
headings, chart rules, wrapped and very long lines)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import sentence_maps
from test_rule_docs import COVERAGE

SPECS = COVERAGE.spec_dir()
HERE = "tests/rules/test_sentence_maps.py"


def _source_of(spec: Path) -> str | None:
    """The source text's file name a spec's header table names (None: it names none)."""
    found = re.search(r"^\| Source text \| `([^`]+)`", spec.read_text(encoding="utf-8"), re.M)
    return found[1] if found else None


def _with_source() -> list[str]:
    """Every ruleset whose spec is in the spec folder and names a source text."""
    return [
        name
        for name, target in COVERAGE.targets().items()
        if SPECS is not None
        and target.manifest.spec
        and (SPECS / target.manifest.spec).is_file()
        and _source_of(SPECS / target.manifest.spec) is not None
    ]


@pytest.mark.parametrize("name", _with_source() or ["(no spec folder)"])
def test_every_source_text_is_mapped_sentence_by_sentence(name: str) -> None:
    if SPECS is None:
        pytest.skip("the spec folder (../shared/rules or HEXCOMBAT_SPECS) is not on this machine")
    source = _source_of(SPECS / COVERAGE.targets()[name].manifest.spec)
    assert source is not None
    found = sentence_maps.load(name)
    assert found is not None, f"no map: {sentence_maps.map_path(name)}"
    assert found.source == source
    text = (SPECS / "source" / source).read_text(encoding="utf-8")
    assert sentence_maps.problems(found, text) == []


@pytest.mark.parametrize("name", sorted(p.stem for p in sentence_maps.MAPS.glob("*.json")))
def test_every_committed_map_belongs_to_a_ruleset_and_names_only_real_tests(name: str) -> None:
    """Also where the spec folder is missing: the entries and the tests they name."""
    assert name in COVERAGE.targets()
    found = sentence_maps.load(name)
    assert found is not None and sentence_maps.entry_problems(found) == []


def test_a_first_map_numbers_every_sentence_open_and_matches_its_text() -> None:
    text = "BRACE\n\nA figure may move. It may strike; the foe may brace.\n"
    made = sentence_maps.from_json(sentence_maps.skeleton("brace.txt", text))
    assert made.source == "brace.txt" and [e.n for e in made.entries] == [1, 2, 3]
    assert made.count("open") == 3 and sentence_maps.problems(made, text) == []
    assert sentence_maps.problems(made, text.replace("move", "run"))[0].startswith(
        "sentence 2 changed"
    )


# ---- the splitter ----------------------------------------------------------------------------
def test_a_wrapped_text_joins_its_lines_and_ends_sentences_at_stops() -> None:
    text = "The CS is the top speed\nat full ability. It is on the sheet.\n\nhe must stop.\n"
    assert sentence_maps.split(text) == [
        "The CS is the top speed at full ability.",
        "It is on the sheet.",
        "he must stop.",
    ]


def test_abbreviations_numbers_and_lower_case_after_a_stop_end_no_sentence() -> None:
    text = (
        "A save (e.g. active, prone) applies, i.e. Both. Rolls of 99 or 100. the weapon breaks "
        "(see 83.2) at 3.1 hexes, etc. The next one.\nNB. Keep modifiers handy.\n"
    )
    assert sentence_maps.split(text) == [
        "A save (e.g. active, prone) applies, i.e. Both.",
        "Rolls of 99 or 100. the weapon breaks (see 83.2) at 3.1 hexes, etc.",
        "The next one.",
        "NB. Keep modifiers handy.",
    ]


def test_closing_quotes_and_brackets_stay_with_their_sentence() -> None:
    text = 'He said "stop." Then (it ended.) Later!\n'
    assert sentence_maps.split(text) == ['He said "stop."', "Then (it ended.)", "Later!"]


def test_a_run_in_numbered_list_gives_one_sentence_per_item() -> None:
    text = (
        "A figure can:\n\n1) move 3 hexes 2) turn, then\nmove 3) stop\n\n"
        "Exceptions: (1) a bow; (2) a lance.\nIt takes D10 (minimum of\n1) damage. "
        "Lengths 12) and 29) too.\n"
    )
    assert sentence_maps.split(text) == [
        "A figure can:",
        "1) move 3 hexes",
        "2) turn, then move",
        "3) stop",
        "Exceptions: (1) a bow; (2) a lance.",
        "It takes D10 (minimum of 1) damage.",
        "Lengths 12) and 29) too.",
    ]


def test_headings_colon_lines_list_items_and_chart_rules_end_a_block() -> None:
    text = (
        "the last attack:\nTrip. The attacker must\nhold a spear.\nMOUNTED COMBAT\nIn mounted\n"
        "combat the rider\n |  |  |  |\nstays put\n- first item\n- second\nitem\n"
    )
    assert sentence_maps.split(text) == [
        "the last attack:",
        "Trip.",
        "The attacker must hold a spear.",
        "MOUNTED COMBAT",
        "In mounted combat the rider",
        "stays put",
        "first item",
        "second item",
    ]


def test_a_text_with_very_long_lines_keeps_each_line_a_block() -> None:
    long_line = "Movement: a figure moves " + "far " * 60 + "away. It stops"
    text = f"Basics\n- Each has two actions\n{long_line}\nNB. Keep it short\n"
    assert len(long_line) > sentence_maps.WRAPPED_WIDTH
    assert sentence_maps.split(text) == [
        "Basics",
        "Each has two actions",
        "Movement: a figure moves " + "far " * 59 + "far away.",
        "It stops",
        "NB. Keep it short",
    ]


def test_the_digest_is_the_sha256_prefix_of_the_nfc_sentence() -> None:
    assert sentence_maps.digest("Cafe\u0301.") == sentence_maps.digest("Caf\u00e9.")
    assert sentence_maps.digest("Trip.") == "5f7502cd"
    assert len(sentence_maps.digest("x")) == sentence_maps.DIGEST_LENGTH


# ---- the check -------------------------------------------------------------------------------
def _map(*entries: sentence_maps.Entry) -> sentence_maps.SentenceMap:
    return sentence_maps.SentenceMap("x.txt", entries)


def _entry(n: int, sentence: str, **kind: str | tuple[str, ...]) -> sentence_maps.Entry:
    return sentence_maps.Entry(n, sentence_maps.digest(sentence), "paraphrase", **kind)  # type: ignore[arg-type]


TEST = f"{HERE}::test_the_digest_is_the_sha256_prefix_of_the_nfc_sentence"


def test_a_map_that_matches_the_text_has_no_problems_and_counts_its_kinds() -> None:
    found = _map(
        _entry(1, "One rule.", tests=(TEST,)),
        _entry(2, "Two.", no_rule="flavour"),
        _entry(3, "Three.", tests=(TEST,), open="the rest"),
    )
    assert sentence_maps.problems(found, "One rule. Two. Three.") == []
    assert [found.count(k) for k in ("tested", "no rule", "open")] == [1, 1, 1]


def test_a_missing_sentence_a_changed_one_and_an_extra_entry_are_problems() -> None:
    found = _map(_entry(1, "One rule.", no_rule="flavour"), _entry(2, "Two.", no_rule="x"))
    assert sentence_maps.problems(found, "One rule! Two. Three.") == [
        f"sentence 1 changed: digest {sentence_maps.digest('One rule!')}, "
        f"map {sentence_maps.digest('One rule.')}",
        f"sentence 3 ({sentence_maps.digest('Three.')}) is not in the map: Three.",
    ]
    assert sentence_maps.problems(found, "One rule.") == ["sentence 2 is not in the text"]


@pytest.mark.parametrize(
    "reference",
    [
        f"{HERE}::test_no_such_test",
        "tests/rules/no_such_file.py::test_x",
        f"{HERE}::_map",
        HERE,
        "tests/rules/sentence_maps.py::problems",
    ],
)
def test_a_named_test_that_does_not_exist_is_a_problem(reference: str) -> None:
    found = _map(_entry(1, "One.", tests=(reference,)))
    assert sentence_maps.problems(found, "One.") == [f"sentence 1: no test {reference}"]


def test_an_entry_must_say_something_and_carry_tests_a_reason_or_an_open_note() -> None:
    empty = sentence_maps.Entry(1, sentence_maps.digest("One."), "")
    both = _entry(2, "Two.", tests=(TEST,), no_rule="flavour")
    assert sentence_maps.problems(_map(empty, both), "One. Two.") == [
        "sentence 1 has no paraphrase",
        "sentence 1 has no tests, no reason and is not open",
        "sentence 2 carries no rule yet names tests or is open",
    ]


def test_repeated_or_unordered_sentence_numbers_are_a_problem() -> None:
    one, two = _entry(1, "One.", no_rule="flavour"), _entry(2, "Two.", no_rule="flavour")
    for entries in ((one, one, two), (two, one)):
        assert sentence_maps.entry_problems(_map(*entries)) == [
            "the map's sentence numbers are repeated or out of order"
        ]
