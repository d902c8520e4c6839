"""The hexcombat command line: validate, replay, render, rulesets."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from factories import skirmish_duel

from hexcombat import Action
from hexcombat.cli import main
from hexcombat.document import dumps, to_document


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.perform(Action("attack", "ann", {"target": "bo"}), faces=[15, 4])
    path = tmp_path / "duel.json"
    path.write_text(dumps(enc), encoding="utf-8")
    return path


def test_validate_accepts_a_good_file(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "ok: 'Duel', skirmish, 8x6 board, 2 figures, 3 of 3 actions applied" in out


def test_validate_lists_every_problem_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = to_document(skirmish_duel())
    doc["figures"][0]["facing"] = 9
    doc["figures"][1]["side"] = ""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "figures[0].facing: must be a whole number 0-5, got 9" in err
    assert "figures[1].side: must be a non-empty string" in err


def test_validate_reports_unreadable_and_non_json_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.json"
    junk.write_text("not json", encoding="utf-8")
    assert main(["validate", str(junk)]) == 1
    assert "not valid JSON" in capsys.readouterr().err


def test_replay_prints_the_combat_log(saved: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(saved), "--details"]) == 0
    out = capsys.readouterr().out
    assert "[round 1] Ann Archer moves B2 → D3 (3 MP)" in out
    assert "Ann Archer hits Bo Brute for 4" in out
    assert "rolled d20: [15]" in out
    assert out.rstrip().endswith("now: Round 1 · Attacks")


def test_replay_prints_the_whole_log_of_a_file_saved_at_its_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    enc = skirmish_duel()
    enc.perform(Action("move", "ann", {"to": "3,1"}))
    enc.perform(Action("next_step"))
    enc.undo()
    enc.undo()
    path = tmp_path / "rewound.json"
    path.write_text(dumps(enc), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "[round 1] Ann Archer moves B2 → D3 (3 MP)" in out[1]
    assert out[-1] == "saved at action 0 of 2 (the app opens it there); --saved stops there"
    assert main(["replay", str(path), "--saved"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [
        "now: Round 1 · Movement",
        "saved at action 0 of 2 (the app opens it there); without --saved the whole log is printed",
    ]


def test_replay_names_each_rule_once_beside_a_text_that_cites_some_itself(
    capsys: pytest.CaptureFixture[str],
) -> None:
    demo = Path(__file__).resolve().parents[1] / "static" / "demos" / "fig-percentile.json"
    assert main(["replay", str(demo)]) == 0
    out = capsys.readouterr().out
    assert "(FP-6, FP-7)" in out and "(FP-6, FP-7)  (FP-6, FP-7)" not in out
    assert "Barclay the Black picks the attack to dodge (G-3)  (G-19)" in out
    for line in out.splitlines():
        cited = re.findall(r"\b(?:FP|G|I)-\d+\b", line)
        assert len(cited) == len(set(cited)), line


def test_render_writes_an_svg_board(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert main(["render", str(saved), "-o", str(out)]) == 0
    root = ElementTree.fromstring(out.read_text(encoding="utf-8"))
    hexes = [e for e in root.iter() if e.get("data-hex")]
    figures = [e for e in root.iter() if e.get("data-figure")]
    assert len(hexes) == 48 and {f.get("data-figure") for f in figures} == {"ann", "bo"}


def test_rulesets_lists_ids_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    assert "skirmish: Skirmish (engine demo)" in capsys.readouterr().out
    assert main(["rulesets", "--json"]) == 0
    views = json.loads(capsys.readouterr().out)
    assert any(v["id"] == "skirmish" and v["options"] for v in views)


def test_python_dash_m_runs_the_cli(saved: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "hexcombat", "validate", str(saved)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "ok:" in result.stdout


HOSTILE_FILES = {
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "digits.json": '{"format": "hexcombat-encounter", "version": ' + "9" * 5000 + "}",
    "surrogate.json": json.dumps({**to_document(skirmish_duel()), "name": "\ud800"}),
    "list-param.json": json.dumps(
        {
            **to_document(skirmish_duel()),
            "log": [{"action": {"kind": "move", "figure": "ann", "params": {"to": ["3,1"]}}}],
        }
    ),
    "seed.json": json.dumps({**to_document(skirmish_duel()), "dice": {"seed": 2**64}}),
    "binary.json": "\x00\x01{",
}


HOSTILE_DRIVER = """
import io, json, sys
from hexcombat.cli import main
results = {}
for command, name, path in json.loads(sys.argv[1]):
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdout = io.TextIOWrapper(out, encoding="ascii")
    sys.stderr = io.TextIOWrapper(err, encoding="ascii")
    code = main([command, path])
    sys.stdout.flush()
    sys.stderr.flush()
    results[f"{command} {name}"] = [code, err.getvalue().decode("ascii"), path]
sys.__stdout__.write(json.dumps(results))
"""
"""Runs the command line's ``main`` on each (command, file) in one Python whose streams are
ASCII, as a terminal that cannot show the file's text would be (one start, not twelve)."""


@pytest.fixture(scope="module")
def hostile_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, str]]:
    """Each command's exit code, error output and file path by "command name"."""
    folder = tmp_path_factory.mktemp("hostile")
    cases = []
    for name, text in HOSTILE_FILES.items():
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        cases += [(command, name, str(folder / name)) for command in ("validate", "replay")]
    done = subprocess.run(
        [sys.executable, "-c", HOSTILE_DRIVER, json.dumps(cases)],
        capture_output=True,
        text=True,
        env={"PYTHONIOENCODING": "ascii", "PATH": ""},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return {key: (code, err, path) for key, (code, err, path) in json.loads(done.stdout).items()}


@pytest.mark.parametrize("command", ["validate", "replay"])
@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files_get_a_clear_refusal_and_exit_1(
    hostile_runs: dict[str, tuple[int, str, str]], name: str, command: str
) -> None:
    code, err, path = hostile_runs[f"{command} {name}"]
    assert code == 1
    assert "Traceback" not in err and err.startswith(f"{path}: ")


def test_autoplay_pits_two_policies_and_prints_the_score(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["autoplay", str(saved), "--games", "2", "--b", "rush", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "aggressive against rush: 2 games of 'Duel'" in out
    line = next(x for x in out.splitlines() if x.startswith("aggressive: "))
    won, lost, drawn = (int(w) for w in line.replace(",", "").split()[1::2][:3])
    assert won + lost + drawn == 2
    assert "decision time, aggressive: median" in out and "decision time, rush" in out


def test_autoplay_from_a_symmetric_start_with_an_option(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["autoplay", str(saved), "--games", "1", "--start", "symmetric"]
    assert main([*args, "--option", "skirmish.rear_bonus=3", "--a", "careful"]) == 0
    assert "careful: " in capsys.readouterr().out


def test_autoplay_watch_prints_each_move_with_its_reason(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["autoplay", str(saved), "--games", "1", "--b", "rush", "--watch"]) == 0
    moves = [x for x in capsys.readouterr().out.splitlines() if x.startswith("game 1, ")]
    assert any("Rush: " in x for x in moves) and any("the table: End the step" in x for x in moves)


def test_autoplay_refuses_bad_input_with_exit_1(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["autoplay", str(saved), "--games", "0"]) == 1
    assert "--games and --max-actions must be at least 1" in capsys.readouterr().out
    assert main(["autoplay", str(saved), "--option", "no.such=1"]) == 1
    assert "no.such" in capsys.readouterr().out
    assert main(["autoplay", str(saved), "--option", "novalue"]) == 1
    assert "NAME=VALUE" in capsys.readouterr().out
