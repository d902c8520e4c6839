"""The performance table of the page against a bare Pyodide page, the engine against
a peer pure-Python hex library, CPython against Pyodide. Run through ``tests/bench``.

Usage: ``tests/bench [--runs N] [--json PATH] [--only PARTS]`` (PARTS: see ``--help``)

Prints the table (medians of N runs; the 1-minute load average beside each figure, since
the machine is shared) and writes it as JSON (default ``dist/bench.json``). Builds
``dist/site`` first. The peer rows need ``hexutil`` in the venv
(``.venv/bin/pip install hexutil==0.2.2``; never an app dependency): without it they are
skipped with a message and our figures are still printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE), str(ROOT / "tests")]

import engine  # noqa: E402
from browser.chromium_flags import COMMON  # noqa: E402

SITE = ROOT / "dist" / "site"
CHROMIUM_ARGS = COMMON
"""Chromium's defaults but for background work: a player's browser (the browser tests'
start-up switches would change what is measured)."""


def site_build() -> Any:
    """Web/build.py as a module."""
    return _web_module("build")


def site_server() -> Any:
    """Web/site_server.py (the site's server and policy) as a module."""
    return _web_module("site_server")


def _web_module(name: str) -> Any:
    """``web.<name>``, imported with the repository on ``sys.path``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(f"web.{name}")


def machine() -> str:
    """One line about the machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b else "n/a"


class Table:
    """Rows of (measure, figure, target, load), printed as they come and kept for JSON."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, measure: str, figure: str, target: str, load: float, **data: Any) -> None:
        row = {"measure": measure, "figure": figure, "target": target, "load": load, **data}
        self.rows.append(row)
        print(f"| {measure} | {figure} | {target} | {load:.2f} |", flush=True)

    def markdown(self) -> str:
        lines = ["| measure | figure | target | load avg |", "|---|---|---|---|"]
        lines += [
            f"| {r['measure']} | {r['figure']} | {r['target']} | {r['load']:.2f} |"
            for r in self.rows
        ]
        return "\n".join(lines)


def page_rows(
    table: Table, runs: int, parts: set[str], *, tablet: bool = True, options: Any = None
) -> None:
    """Start-up, bytes, first paint, taps and board drawing in headless Chromium."""
    import page as pg
    from playwright.sync_api import sync_playwright

    build = site_build()
    build.build(SITE)
    (SITE / pg.BARE_NAME).write_text(pg.BARE_HTML, encoding="utf-8")
    (SITE / pg.BARE_SCRIPT_NAME).write_text(pg.BARE_SCRIPT, encoding="utf-8")
    server, url, count = pg.serve(site_server(), SITE)
    executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            if "startup" in parts:
                startup_rows(table, pg, browser, url, count, runs, tablet=tablet)
            if "taps" in parts:
                tap_rows(table, pg, browser, url, runs)
            if "longlog" in parts:
                long_log_rows(table, pg, browser, url, runs)
            if "table" in parts:
                table_rows(table, browser, url)
            if "mappage" in parts:
                import map_page

                map_page.rows(table, browser, url, runs)
            if "responsiveness" in parts:
                import responsiveness

                responsiveness.rows(table, browser, url, runs, options)
            if "memory" in parts:
                import memory

                memory.rows(table, browser, url, runs, pg.BARE_NAME)
            browser.close()
    finally:
        server.shutdown()
        (SITE / pg.BARE_NAME).unlink(missing_ok=True)
        (SITE / pg.BARE_SCRIPT_NAME).unlink(missing_ok=True)


def startup_rows(
    table: Table, pg: Any, browser: Any, url: str, count: Any, runs: int, *, tablet: bool = True
) -> None:
    """Cold and warm start, first paint and bytes, against the bare page; then as a tablet."""
    s = pg.startup(browser, url, count, runs)
    load = s["load"]
    for kind, target in (("cold", "<= 1.10x"), ("warm", "< 1.0x")):
        app, bare = s[f"app {kind}"], s[f"bare {kind}"]
        table.add(
            f"time to ready, {kind}, app / bare",
            f"{ratio(app, bare)} ({app / 1000:.2f} s / {bare / 1000:.2f} s)",
            target,
            load,
            app=app,
            bare=bare,
        )
    app, bare = s["app warm plain"], s["bare warm"]
    table.add(
        "time to ready, warm before the Python snapshot is made (second visit), app / bare",
        f"{ratio(app, bare)} ({app / 1000:.2f} s / {bare / 1000:.2f} s)",
        "<= 1.10x",
        load,
        app=app,
        bare=bare,
    )
    painted = s["app cold board painted"]
    table.add(
        "first board on screen, cold first visit (hexcombat:board-painted) / bare cold ready",
        f"{ratio(painted, s['bare cold'])} ({painted:.0f} ms / {s['bare cold'] / 1000:.2f} s)",
        "<= 0.30x",
        load,
    )
    painted = s["share link board painted"]
    table.add(
        "first board on screen, cold share link (the board, not its figures) / bare cold ready",
        f"{ratio(painted, s['bare cold'])} ({painted:.0f} ms / {s['bare cold'] / 1000:.2f} s)",
        "<= 0.30x",
        load,
    )
    table.add(
        "cold start, where the app's time goes: Python up (hexcombat:python-up) "
        "/ unpacking the start's archives / PyScript's set-up (to hexcombat:main) / the "
        "page's own Python (web/start.py's run to ready), ms",
        f"{s['app cold python up'] / 1000:.2f} s / {s['app cold unpacking']:.0f} / "
        f"{s['app cold pyscript']:.0f} / {s['app cold own python']:.0f} ms "
        f"(bare ready {s['bare cold'] / 1000:.2f} s)",
        "-",
        load,
    )
    paint = s["app warm first paint"]
    table.add(
        "first board paint, warm visit (stored snapshot) / bare warm ready",
        f"{ratio(paint, s['bare warm'])} ({paint:.0f} ms)",
        "keep",
        load,
    )
    app, bare = s["app bytes before ready"], s["bare bytes before ready"]
    table.add(
        "bytes before ready, first visit, app - bare",
        f"{(app - bare) / 1000:+.0f} kB ({app / 1e6:.2f} / {bare / 1e6:.2f} MB)",
        "<= +400 kB",
        load,
    )
    app, bare = s["app bytes in all"], s["bare bytes in all"]
    table.add(
        "bytes downloaded on a first visit in all, app / bare",
        f"{ratio(app, bare)} ({app / 1e6:.2f} / {bare / 1e6:.2f} MB)",
        "<= 1.05x",
        load,
    )
    if not tablet:
        return
    t = pg.startup(browser, url, count, runs, throttle=4)
    words = []
    for kind, name in (("cold", "cold"), ("warm", "warm"), ("warm plain", "second visit")):
        app, bare = t[f"app {kind}"], t[f"bare {kind.split()[0]}"]
        words.append(f"{name} {ratio(app, bare)} ({app / 1000:.1f} s / {bare / 1000:.1f} s)")
    painted = t["app cold board painted"]
    words.append(f"first board {ratio(painted, t['bare cold'])} ({painted / 1000:.2f} s)")
    painted = t["share link board painted"]
    words.append(f"share link's board {ratio(painted, t['bare cold'])} ({painted / 1000:.2f} s)")
    table.add(
        "time to ready, tablet 820x1180 touch, CPU 4x slower, app / bare",
        ", ".join(words),
        "cold, second visit <= 1.10x; warm < 1.0x; board <= 0.30x",
        t["load"],
    )


def tap_rows(table: Table, pg: Any, browser: Any, url: str, runs: int) -> None:
    """Tap to form in each ruleset's demo, tap-to-reach latency and board drawing."""
    for r in pg.demo_taps(browser, url, runs):
        what = (
            f"{r['kind']} form ({r['fields']} fields)"
            if r["case"] == "form"
            else f"prompt's {r['answer']} form"
        )
        table.add(
            f"tap to form, {r['ruleset']} demo: {what}",
            f"{r['tap_ms']:.0f} ms (first tap {r['first_ms']:.0f} ms)",
            "< 50 ms",
            r["load"],
        )
    for r in pg.board_and_taps(browser, url, runs):
        size, move = r["size"], r["move"]
        if r["tap_ms"] is not None:
            table.add(
                f"tap a figure to reach drawn, {size}x{size}, 20 figures, movement {move}",
                f"{r['tap_ms']:.0f} ms",
                "< 50 ms",
                r["load"],
            )
        if move == 4:
            table.add(
                f"board draw / one-hex redraw, {size}x{size}",
                f"{r['draw_ms']:.0f} ms / {r['redraw_ms']:.1f} ms",
                "linear or better",
                r["load"],
            )


def long_log_rows(table: Table, pg: Any, browser: Any, url: str, runs: int) -> None:
    """Undo, redo and opening a random skirmish fight of 1,000 and 5,000 actions in the page."""
    rows = pg.long_fight_rows(browser, url, runs)
    demo = rows[0]
    for r in rows[1:]:
        n = r["actions"]
        for what in ("undo", "redo"):
            table.add(
                f"tap {what.capitalize()} to board redrawn, skirmish fight of {n} actions "
                f"({r['kb']} kB)",
                f"{r[f'{what}_ms']:.0f} ms "
                f"(save {r['save_ms']:.1f} ms, board {r['board_ms']:.0f} ms)",
                "< 50 ms + board",
                r["load"],
                ms=r[f"{what}_ms"],
                actions=n,
            )
        table.add(
            f"open a skirmish fight of {n} actions (time to ready) / the skirmish demo "
            f"({demo['actions']} actions)",
            f"{ratio(r['open_ms'], demo['open_ms'])} "
            f"({r['open_ms'] / 1000:.2f} s / {demo['open_ms'] / 1000:.2f} s)",
            "< 1.5x",
            r["load"],
        )


def table_rows(table: Table, browser: Any, url: str) -> None:
    """Six devices at one table: a phone's action to every screen showing it."""
    import table_devices

    for r in table_devices.six_devices(browser, url):
        table.add(
            f"six devices at one table (a GM, {table_devices.PLAYERS} phones), a round of "
            f"{r['ruleset']}: a phone's action to all six screens showing it, median / worst "
            f"({r['actions']} actions)",
            f"{r['median_ms']:.0f} / {r['worst_ms']:.0f} ms",
            "-",
            r["load"],
            median_ms=r["median_ms"],
            worst_ms=r["worst_ms"],
        )


def engine_rows(table: Table, runs: int) -> None:
    """The hot paths under CPython, then inside Pyodide (Node), against the peer."""
    inputs = engine.make_inputs()
    if engine.hexutil is None:
        print(engine.PEER_MISSING)
    cpython = engine.rows(inputs, runs)
    for r in cpython:
        show(table, r, "CPython " + platform.python_version())
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(inputs, f)
    peer_dir = str(Path(engine.hexutil.__file__).parent) if engine.hexutil else ""
    started = time.monotonic()
    done = subprocess.run(
        ["node", str(HERE / "pyodide_engine.mjs"), f.name, str(runs), peer_dir],
        capture_output=True,
        text=True,
        check=False,
    )
    os.unlink(f.name)
    if done.returncode != 0:
        print(f"pyodide run failed ({done.returncode}): {done.stderr[-2000:]}")
        return
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"(pyodide run took {time.monotonic() - started:.0f} s)")
    for r in result["rows"]:
        show(table, r, f"Pyodide (Python {result['python']})")
    for c, p in zip(cpython, result["rows"], strict=True):
        table.add(
            f"Pyodide / CPython: {c['measure']}",
            ratio(p["ours_ms"], c["ours_ms"]),
            "<= 2.5x",
            p["load"],
        )


def show(table: Table, r: dict[str, Any], where: str) -> None:
    figure = f"{r['ours_ms']:.2f} ms {r['clock']}"
    target = "-"
    if "peer_ms" in r:
        figure = (
            f"{r['ratio']:.2f}x the peer ({r['ours_ms']:.1f} / {r['peer_ms']:.1f} ms {r['clock']})"
        )
        target = "< 1.0x (ahead)" if r["measure"].startswith("reach") else "<= 1.0x"
    elif r.get("note"):
        figure += f" ({r['note']})"
    table.add(f"{r['measure']}, {where}", figure, target, r["load"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measure (median)")
    parser.add_argument("--json", type=Path, default=ROOT / "dist" / "bench.json")
    parser.add_argument(
        "--only",
        default="engine,longengine,mapgrid,startup,taps,longlog,table",
        help="comma-separated: engine, longengine (a long fight, CPython), mapgrid (the grid "
        "finder on the test maps), startup, taps, longlog (a long fight in the page), table "
        "(six devices at one table), responsiveness (main-thread tasks and taps while the "
        "engine works; not in the default run), mappage (a 4000x3000 map picture in the "
        "page on the tablet profile; not in the default run), memory (the renderer's, "
        "against the bare page; not in the default run)",
    )
    parser.add_argument(
        "--scenarios",
        default="",
        help="responsiveness scenarios, comma-separated (default all): taps, app-one, "
        "app-both, open-long, device",
    )
    parser.add_argument(
        "--profiles", default="", help="responsiveness profiles (default both): desktop, tablet"
    )
    parser.add_argument(
        "--seconds", type=float, default=40, help="length of a responsiveness scenario"
    )
    parser.add_argument(
        "--no-tablet", action="store_true", help="start-up rows of the desktop profile only"
    )
    args = parser.parse_args()
    parts = set(args.only.split(","))
    table = Table()
    print(f"machine: {machine()}; load average before: {os.getloadavg()}")
    print("| measure | figure | target | load avg |\n|---|---|---|---|")
    if "engine" in parts:
        engine_rows(table, args.runs)
    if "longengine" in parts:
        import long_fight

        long_fight.long_rows(table, args.runs)
    if "mapgrid" in parts:
        import map_grid

        map_grid.rows(table, args.runs)
    if parts & {"startup", "taps", "longlog", "table", "responsiveness", "mappage", "memory"}:
        page_rows(table, args.runs, parts, tablet=not args.no_tablet, options=args)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "machine": machine(),
                "when": time.strftime("%Y-%m-%d %H:%M"),
                "runs": args.runs,
                "rows": table.rows,
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"\n{table.markdown()}\n\nwritten to {args.json}")


if __name__ == "__main__":
    main()
