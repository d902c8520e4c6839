"""Build the skirmish demo encounter through the engine and write ``static/demos/skirmish.json``.

Run ``python tests/web/demo_skirmish.py`` after changing it; ``test_demos.py``
checks that the committed file is exactly what this script builds.
"""

from __future__ import annotations

from pathlib import Path

from hexcombat import Encounter, dumps
from hexcombat.layout import from_offset

ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "static" / "demos" / "skirmish.json"

# Terrain in offset (column, row) coordinates on a 12 x 9 board.
TERRAIN = {
    "woods": [(2, 1), (3, 1), (2, 2), (3, 2), (2, 3), (8, 5), (9, 5), (9, 6), (8, 6)],
    "water": [(5, 0), (5, 1), (6, 2), (6, 3), (5, 4), (6, 5), (6, 6), (5, 7), (5, 8)],
    "hill": [(8, 1), (9, 2), (3, 6)],
    "wall": [(7, 3), (7, 4), (4, 5)],
}
# id, name, side, (column, row), facing, stats that differ from the defaults.
FIGURES: list[tuple[str, str, str, tuple[int, int], int, dict[str, int | str]]] = [
    ("warden-ash", "Ash the Warden", "Wardens", (1, 3), 2, {"attack": 4, "defence": 13, "hp": 12}),
    ("warden-bryn", "Bryn Spear", "Wardens", (2, 5), 1, {"move": 5, "damage": "d8"}),
    ("warden-cole", "Cole Archer", "Wardens", (1, 6), 2, {"attack": 5, "defence": 11, "hp": 8}),
    ("raider-dax", "Dax the Red", "Raiders", (10, 3), 5, {"attack": 5, "hp": 14, "damage": "d8"}),
    ("raider-eve", "Eve Quickblade", "Raiders", (10, 5), 4, {"move": 6, "defence": 13}),
    ("raider-fenn", "Fenn Brute", "Raiders", (11, 7), 5, {"move": 3, "hp": 16, "damage": "2d4"}),
]


def skirmish_demo() -> Encounter:
    """Three wardens hold a stream crossing against three raiders, among woods, hills and walls."""
    enc = Encounter.new("skirmish", 12, 9, name="Skirmish at the ford", seed=20250501)
    enc = enc.with_setup(
        notes=(
            "Three wardens hold the stream against three raiders. Woods cost 2 movement "
            "points, shallow water 3; hills and walls block sight, and no one can cross a wall."
        )
    )
    for terrain, cells in TERRAIN.items():
        enc = enc.painted([from_offset(col, row) for col, row in cells], terrain)
    for fig_id, name, side, (col, row), facing, stats in FIGURES:
        figure = enc.ruleset.new_figure(fig_id, name, side, from_offset(col, row), facing)
        figure.stats.update(stats)
        enc = enc.with_figure(figure)
    return enc


def main() -> None:
    """Write the demo file."""
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(dumps(skirmish_demo()) + "\n", encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
