// The engine hot paths (tests/benchmarks/engine.py) inside Pyodide under Node: the npm
// `pyodide` files the app ships, the engine copied into its file system.
//
// Usage: node tests/benchmarks/pyodide_engine.mjs INPUTS.json RUNS [HEXUTIL_DIR]
// Prints one JSON line: the rows, each with the host's 1-minute load average.
// HEXUTIL_DIR (the peer's package folder) is copied in when given, for the peer rows.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { copyTree } from "./pyodide_files.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "web", "node_modules", "pyodide");
const HOME = "/home/pyodide/bench";
const [inputsFile, runs = "5", peerDir = ""] = process.argv.slice(2);

const { loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + sep });
copyTree(join(ROOT, "hexcombat"), `${HOME}/hexcombat`, pyodide);
pyodide.FS.writeFile(`${HOME}/engine.py`, readFileSync(join(ROOT, "tests", "benchmarks", "engine.py")));
if (peerDir) copyTree(peerDir, `${HOME}/hexutil`, pyodide);
pyodide.FS.writeFile(`${HOME}/inputs.json`, readFileSync(inputsFile));
pyodide.globals.set("host_load", () => Math.round(loadavg()[0] * 100) / 100);
// CPU seconds of this process (Python's process_time is wall-clock time in Pyodide; on a
// shared machine the CPU time is the figure that compares with CPython's).
pyodide.globals.set("host_cpu", () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
});
const out = pyodide.runPython(`
import json, sys
sys.path.insert(0, ${JSON.stringify(HOME)})
import engine
engine.load = lambda: host_load()
engine.clock = lambda: host_cpu()
engine.CPU_CLOCK = True
json.dumps({"python": sys.version.split()[0], "rows": engine.rows(json.load(open(${JSON.stringify(HOME + "/inputs.json")})), ${Number(runs)})})
`);
console.log(out);
