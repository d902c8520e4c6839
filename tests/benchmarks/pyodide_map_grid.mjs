// The grid finder (tests/benchmarks/map_grid.py) inside Pyodide under Node: the npm `pyodide`
// files the app ships, the engine and the test maps copied into its file system.
//
// Usage: node tests/benchmarks/pyodide_map_grid.mjs RUNS
// Prints one JSON line: the median CPU milliseconds of finding the 4000x3000 map's grid
// from its RGBA pixels at 1024x768 (the map drawn in Python beforehand, not timed).
import { readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { copyTree } from "./pyodide_files.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "web", "node_modules", "pyodide");
const HOME = "/home/pyodide/bench";
const [runs = "3"] = process.argv.slice(2);

const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + sep });
copyTree(join(ROOT, "hexcombat"), `${HOME}/hexcombat`, pyodide);
pyodide.FS.writeFile(`${HOME}/map_pictures.py`, readFileSync(join(ROOT, "tests", "map_pictures.py")));
pyodide.globals.set("host_cpu", () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
});
const out = pyodide.runPython(`
import json, statistics, sys
sys.path.insert(0, ${JSON.stringify(HOME)})
from map_pictures import MapCase, draw_rgba
from hexcombat.map_grid import Picture, find_grid
case = MapCase("flat", 60.0, (97.0, 80.0), 4000, 3000, tilt=1.2, noise=3, blocky=True, board=False, seed=5)
width, height, rgba = draw_rgba(case)
times = []
for _ in range(${Number(runs)}):
    start = host_cpu()
    find_grid(Picture.from_rgba(width, height, rgba), case.scale)
    times.append(host_cpu() - start)
json.dumps({"ms": statistics.median(times) * 1000})
`);
console.log(out);
