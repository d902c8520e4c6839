"""The grid finder on the whole set of test maps, and on a 4000x3000 map (the target:
under 2 s on the tablet profile). Run through ``tests/bench --only mapgrid``.

Prints the share of maps whose proposal is within 2% of the hex size and a tenth of a hex
of the offset, the worst errors, the time per picture (CPU, CPython), and the 4000x3000
map's time under CPython and inside Pyodide (Node, the npm files the app ships); the
tablet figure is Pyodide's time four times over, the CPU slow-down of the page benchmark's
tablet profile.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from map_pictures import CASES, MapCase, draw, draw_rgba, error  # noqa: E402

from hexcombat.map_grid import GridProposal, Picture, find_grid  # noqa: E402

BIG = MapCase(
    "flat", 60.0, (97.0, 80.0), 4000, 3000, tilt=1.2, noise=3, blocky=True, board=False, seed=5
)
"""A 4000x3000 map of 60 px hexes, tilted, noisy and blocky, as the page hands it over."""
TABLET_SLOWDOWN = 4


def load() -> float:
    import os

    return round(os.getloadavg()[0], 2)


def timed_ms(case: MapCase, runs: int) -> float:
    """Median CPU milliseconds of finding the grid of ``case`` from its RGBA pixels (drawn
    beforehand, as the page's canvas hands them over)."""
    width, height, rgba = draw_rgba(case)
    times = []
    for _ in range(runs):
        start = time.process_time()
        find_grid(Picture.from_rgba(width, height, rgba), case.scale)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def set_figures(runs: int) -> dict[str, Any]:
    """Share within tolerance, worst errors and time per picture over ``CASES``."""
    within = 0
    worst_size = worst_offset = 0.0
    missed: list[str] = []
    times = []
    for case in CASES:
        times.append(timed_ms(case, runs))
        found = find_grid(draw(case), case.scale)
        if not isinstance(found, GridProposal):
            missed.append(f"{case.name()}: {found.reason}")
            continue
        size_error, offset_error = error(case, found)
        worst_size, worst_offset = max(worst_size, size_error), max(worst_offset, offset_error)
        if size_error <= 0.02 and offset_error <= 0.1:
            within += 1
        else:
            missed.append(f"{case.name()}: size {size_error:.1%}, offset {offset_error:.2f} hex")
    return {
        "maps": len(CASES),
        "within": within,
        "worst_size": worst_size,
        "worst_offset": worst_offset,
        "ms_median": statistics.median(times),
        "ms_max": max(times),
        "missed": missed,
    }


def pyodide_ms(runs: int) -> float | None:
    """Median milliseconds of the big map's finding inside Pyodide under Node."""
    done = subprocess.run(
        ["node", str(HERE / "pyodide_map_grid.mjs"), str(runs)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        print(f"pyodide run failed ({done.returncode}): {done.stderr[-2000:]}")
        return None
    return float(json.loads(done.stdout.strip().splitlines()[-1])["ms"])


def rows(table: Any, runs: int) -> None:
    """Add the grid finder's rows to the benchmark's table."""
    f = set_figures(max(1, runs // 2))
    for line in f["missed"]:
        print(f"  outside tolerance: {line}")
    table.add(
        f"grid finder, {f['maps']} test maps (11 sizes 24-160 px, both orientations, boards "
        "and tilted noisy blocky crops): share within 2% of the size and 0.1 hex of the offset",
        f"{f['within'] / f['maps']:.0%} ({f['within']}/{f['maps']})",
        ">= 90%",
        load(),
    )
    table.add(
        "grid finder, worst error among the maps it proposed a grid for: size / offset",
        f"{f['worst_size']:.2%} / {f['worst_offset']:.3f} hex",
        "-",
        load(),
    )
    table.add(
        "grid finder, time per picture (CPython CPU, median / slowest)",
        f"{f['ms_median']:.0f} / {f['ms_max']:.0f} ms",
        "-",
        load(),
    )
    big = find_grid(draw(BIG), BIG.scale)
    assert isinstance(big, GridProposal), big
    size_error, offset_error = error(BIG, big)
    cpython = timed_ms(BIG, runs)
    pyodide = pyodide_ms(runs)
    where = "Pyodide run failed"
    if pyodide is not None:
        tablet = pyodide * TABLET_SLOWDOWN / 1000
        where = f"Pyodide {pyodide:.0f} ms, tablet (x{TABLET_SLOWDOWN}) {tablet:.2f} s"
    table.add(
        "grid finder, 4000x3000 map of 60 px hexes drawn at 1024x768: CPython / Pyodide / "
        "tablet profile",
        f"{cpython:.0f} ms / {where} (size {size_error:.2%}, offset {offset_error:.3f} hex)",
        "tablet < 2 s",
        load(),
    )


def main() -> None:
    class Printer:
        def add(self, measure: str, figure: str, target: str, load: float) -> None:
            print(f"| {measure} | {figure} | {target} | {load:.2f} |", flush=True)

    rows(Printer(), 3)


if __name__ == "__main__":
    main()
