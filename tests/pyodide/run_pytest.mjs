// Run the engine's pyodide-marked tests inside Pyodide (Node 20, npm `pyodide` files only).
//
// Usage: node tests/pyodide/run_pytest.mjs [extra pytest args...]
//
// 1. loads Pyodide from web/node_modules/pyodide (what the browser app ships);
// 2. unpacks the wheels in .cache/wheels (pytest and its dependencies, hypothesis;
//    tests/run downloads them) into site-packages;
// 3. copies hexcombat/, web/ (the page's Python modules), static/demos/ (games start
//    from them), tests/ (without tests/browser/, whose conftest needs Playwright) and
//    pyproject.toml (pytest's settings) to /home/pyodide/proj;
// 4. runs pytest.main(["-m", "pyodide", ...]) there on the test files that use the
//    mark (so modules meant for CPython only are not even imported) and exits with
//    pytest's code.
//    Exit code 5 (no tests collected) is turned into a failure: this stage exists
//    to run tests.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = join(ROOT, "web", "node_modules", "pyodide");
const WHEELS = process.env.PYODIDE_WHEELS || join(ROOT, ".cache", "wheels");
const PROJ = "/home/pyodide/proj";
// What is copied into the Pyodide file system.
const COPY = ["hexcombat", "web", "tests", "static/demos", "pyproject.toml"];
const SKIP_DIRS = new Set([
  "__pycache__", "node_modules", "browser", "pyodide", ".hypothesis", ".pytest_cache",
]);
const COPY_SUFFIXES = [".py", ".json", ".toml", ".typed", ".txt"];
const NOT_COPIED = new Set(["web/package.json", "web/package-lock.json", "web/pyscript.json"]);

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

function fail(message) {
  console.error(`pyodide: error: ${message}`);
  process.exit(2);
}

function walk(path, out) {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (!SKIP_DIRS.has(name)) walk(join(path, name), out);
    }
  } else if (COPY_SUFFIXES.some((suffix) => path.endsWith(suffix))) {
    out.push(path);
  }
  return out;
}

let loadPyodide;
try {
  ({ loadPyodide } = await import(join(PYODIDE_DIR, "pyodide.mjs")));
} catch (error) {
  fail(`cannot load ${PYODIDE_DIR}/pyodide.mjs (run \`npm ci\` in web/): ${error.message}`);
}

const lock = JSON.parse(readFileSync(join(PYODIDE_DIR, "pyodide-lock.json"), "utf8"));
const platformTag = `pyemscripten_${lock.info.abi_version}_${lock.info.arch}`;

const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + sep });
const loadedAt = seconds();

// Wheels: pure Python ones and those built for this Pyodide's platform.
let wheelNames;
try {
  wheelNames = readdirSync(WHEELS).filter((name) => name.endsWith(".whl")).sort();
} catch {
  fail(`no wheel folder at ${WHEELS} (tests/run downloads the wheels)`);
}
const usable = wheelNames.filter((name) => name.endsWith("-none-any.whl") || name.includes(platformTag));
const ignored = wheelNames.filter((name) => !usable.includes(name));
if (!usable.some((name) => name.startsWith("pytest-"))) fail(`no pytest wheel in ${WHEELS}`);
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
for (const name of usable) {
  // A Uint8Array, not a Node Buffer: unpackArchive rejects the latter.
  const bytes = new Uint8Array(readFileSync(join(WHEELS, name)));
  pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
}
if (ignored.length) console.log(`pyodide: ignored wheels for other platforms: ${ignored.join(", ")}`);

// The project files, and the test modules that use the pyodide mark.
let copied = 0;
const testFiles = [];
for (const top of COPY) {
  for (const file of walk(join(ROOT, top), [])) {
    const rel = relative(ROOT, file).split(sep).join("/");
    if (NOT_COPIED.has(rel)) continue;
    const bytes = readFileSync(file);
    pyodide.FS.mkdirTree(`${PROJ}/${rel.slice(0, rel.lastIndexOf("/"))}`);
    pyodide.FS.writeFile(`${PROJ}/${rel}`, bytes);
    copied += 1;
    const base = rel.slice(rel.lastIndexOf("/") + 1);
    if (rel.startsWith("tests/") && /^test_.*\.py$/.test(base) && bytes.includes("mark.pyodide")) {
      testFiles.push(rel);
    }
  }
}
if (testFiles.length === 0) fail("no test module uses pytest.mark.pyodide");

// Raw byte writes keep pytest's progress dots on one line.
pyodide.setStdout({ write: (bytes) => (process.stdout.write(bytes), bytes.length) });
pyodide.setStderr({ write: (bytes) => (process.stderr.write(bytes), bytes.length) });

const extra = process.argv.slice(2);
const args = ["-m", "pyodide", "-q", "-p", "no:cacheprovider", ...extra, ...testFiles];
console.log(
  `pyodide: Python ${lock.info.python} (Pyodide ${pyodide.version}) loaded in ${loadedAt} s; ` +
    `${usable.length} wheels, ${copied} project files; ` +
    `pytest -m pyodide on ${testFiles.length} modules: ${testFiles.map((f) => f.slice(6)).join(" ")}`,
);

pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(args));
let code;
try {
  code = await pyodide.runPythonAsync(`
import os, sys
os.chdir(${JSON.stringify(PROJ)})
sys.path.insert(0, ${JSON.stringify(PROJ)})
import pytest
int(pytest.main(list(PYTEST_ARGS)))
`);
} catch (error) {
  // A Python exception outside pytest's own handling (for example a broken wheel).
  fail(`running pytest failed after ${seconds()} s:\n${error.message || error}`);
}

console.log(`pyodide: pytest exit code ${code}; total ${seconds()} s`);
if (code === 5) {
  console.error("pyodide: error: no test was collected (mark engine test modules with pytestmark = pytest.mark.pyodide)");
  process.exit(1);
}
process.exit(code);
