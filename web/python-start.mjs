// The interpreter PyScript starts (pyscript.json's "interpreter"): Pyodide, from a memory
// snapshot of this build's Python when this browser has kept one, plain otherwise.
//
// The snapshot (made by python-snapshot.mjs in a worker after a start has finished, see
// index.html) is Python already started with the whole engine imported; starting from it
// skips Python's own start-up and the engine's imports. It is kept in Cache Storage under a
// key of this build's engine and Pyodide (web/build.py fills in __SNAPSHOT_KEY__), so a new
// build never starts from an old engine, with the SHA-256 digest of its bytes taken when it
// was made (the SNAPSHOT_DIGEST header): it is used only if its bytes still have that digest.
// Anything wrong with it (damaged, truncated, no digest, a failed start): it is deleted,
// Python starts plain and a warning is logged. <html data-python-start> says which start
// this was ("snapshot" or "plain").
import { loadPyodide as loadPlain } from "./vendor/pyodide/pyodide.mjs";

export * from "./vendor/pyodide/pyodide.mjs";

export const SNAPSHOT_CACHE = "hexcombat-python-__SNAPSHOT_KEY__";
export const SNAPSHOT_URL = new URL("./python-snapshot.bin", import.meta.url).href;
export const SNAPSHOT_DIGEST = "x-hexcombat-sha256";
const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;
// The app's standard library (web/stdlib_zip.py): the modules a start imports come compiled.
export const STDLIB_URL = new URL("./python-stdlib.zip", import.meta.url).href;
// Pyodide's lock file with no packages (web/build.py fills in its "info"): the app loads
// none, so the 119 kB file listing Pyodide's hundreds of packages is not downloaded.
export const LOCK = __PYODIDE_LOCK__;

/** The hex SHA-256 digest of `bytes` (crypto.subtle). */
export async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// Whether a service worker controlled the page as it began (the start-up controller notes
// it): then the page's preloads went through it. A first visit's new worker often takes
// control before this module runs.
function controlledAtStart() {
  const boot = globalThis.hexcombatBoot;
  return boot ? boot.controlled : !!navigator.serviceWorker?.controller;
}

// The kept snapshot's cache entry, or null. Only looks: a browser without one gets no cache
// made here (the embed view writes nothing to storage), and blocked storage is simply no
// snapshot. A page no service worker controlled as it began has none to look for (one is
// made only once the worker keeps the app, see index.html): a first visit does not wait for
// Cache Storage to open before the runtime is requested.
async function keptEntry() {
  try {
    if (globalThis.hexcombatSnapshot === "given") return await givenEntry();
    if (globalThis.document && !controlledAtStart()) return null;
    if (!globalThis.caches || !(await caches.has(SNAPSHOT_CACHE))) return null;
    return (await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_URL)) || null;
  } catch (error) {
    return null;
  }
}

// The browser tests make this build's snapshot once and give it to each fresh context
// (tests/browser/conftest.py sets window.hexcombatSnapshot = "given" and answers SNAPSHOT_URL
// with the snapshot and its digest), so most tests start as a kept snapshot starts.
async function givenEntry() {
  const response = await fetch(SNAPSHOT_URL);
  return response.ok ? response : null;
}

// The entry's bytes once their digest is the one recorded when it was made; throws if not.
async function verified(entry) {
  const bytes = new Uint8Array(await entry.arrayBuffer());
  const recorded = entry.headers.get(SNAPSHOT_DIGEST);
  if (!recorded) throw new Error("it has no recorded digest");
  const actual = await sha256(bytes);
  if (actual !== recorded) {
    throw new Error(`its SHA-256 digest is ${actual}, not the ${recorded} recorded when it was made`);
  }
  return bytes;
}

function mark(how) {
  if (globalThis.document) document.documentElement.dataset.pythonStart = how;
}

// Python started.
async function start(options) {
  const plain = { ...options, indexURL: INDEX_URL, stdLibURL: STDLIB_URL, lockFileContents: LOCK };
  const entry = await keptEntry();
  if (entry) {
    try {
      // The runtime's downloads start at once; Python starts once the bytes are verified.
      const bytes = verified(entry);
      // Pyodide awaits the bytes only once its runtime is loaded: a damaged snapshot's digest
      // fails before that, and an unawaited rejection would end the start as "unhandled"
      bytes.catch(() => {});
      const pyodide = await loadPlain({ ...plain, _loadSnapshot: bytes });
      mark("snapshot");
      return pyodide;
    } catch (error) {
      console.warn("hexcombat: the kept Python snapshot was not used (deleted; starting plain):", error);
      await caches.delete(SNAPSHOT_CACHE).catch(() => {});
    }
  }
  mark("plain");
  return loadPlain(plain);
}

// A first visit requests the runtime before the service worker controls the page, so its
// 9.6 MB WebAssembly file does not pass through the worker. That request is the page's
// preload, made as the page is parsed: what counts is whether a worker controlled the page
// then (controlledAtStart), not now (with a preload and a worker that had taken control, the
// file was downloaded a second time for the offline copy). The page keeps the copy it
// fetched in HANDOFF_CACHE, which the worker moves into its own cache when the page asks it
// to keep what it fetched (web/sw.js), instead of downloading the file a second time. Once
// its copy is written (or failed) the page asks the active worker to take it over too,
// whether or not that worker controls the page yet (it may not when the writing ends, and
// then no later take-over would come): no hand-off is ever left behind. Not in the embed
// view, which writes nothing to the browser's storage.
export const HANDOFF_CACHE = "hexcombat:handoff";
const WASM_URL = new URL("./vendor/pyodide/pyodide.asm.wasm", import.meta.url).href;

function handOverTheRuntime() {
  const page = globalThis.document && navigator.serviceWorker && globalThis.caches;
  if (!page || controlledAtStart() || /[?&]embed(?:[=&]|$)/.test(location.search)) return;
  const pageFetch = globalThis.fetch;
  globalThis.fetch = function (resource) {
    const result = pageFetch.apply(this, arguments);
    if (String((resource && resource.url) || resource) !== WASM_URL) return result;
    globalThis.fetch = pageFetch;  // once
    return result.then((response) => {
      if (response.ok) {
        const copy = response.clone();
        const takeOver = () => navigator.serviceWorker.ready
          .then((registration) => registration.active.postMessage({ type: "keep", urls: [] }));
        caches.open(HANDOFF_CACHE).then((cache) => cache.put(WASM_URL, copy))
          .then(takeOver, takeOver)
          .catch(() => {});
      }
      return response;
    });
  };
}

// The start's modules (web/build.py): the engine and the page's modules but web/main.py, as
// bzip2 tars of sourceless bytecode, unpacked into the home folder (on sys.path, where
// PyScript unpacks its "files") before PyScript gets Python. PyScript's "files" unpacks
// only .zip and .tgz, so they are fetched here, beside the runtime, each once: in the page
// by a worker that also decompresses them (startArchives), kept offline as the app's own
// files (web/sw.js); only writing their files waits for Python.
export const START_ARCHIVES = ["hexcombat.tar.bz2", "web.tar.bz2"];
const HOME = "/home/pyodide";

// An archive fetched by the page, for Python's bz2 to decompress: `{ data }`.
function fetchArchive(name) {
  return fetch(new URL(`./${name}`, import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return response.arrayBuffer();
  }).then((data) => ({ data }));
}

/** Write the regular files of a ustar archive (all web/build.py writes) under `home`. */
export function untar(FS, tar, home = HOME) {
  for (const _ of untarSteps(FS, tar, home));
}

const UNTAR_SLICE_MS = 25;
/** untar, in slices of about UNTAR_SLICE_MS between which the browser runs (taps, paints):
 * resolves once every file is written (later.tar.bz2 after the page is ready held a slow
 * tablet's main thread 0.6 s in one task). */
export async function untarInSlices(FS, tar, home = HOME) {
  let began = performance.now();
  for (const _ of untarSteps(FS, tar, home)) {
    if (performance.now() - began < UNTAR_SLICE_MS) continue;
    await new Promise((resolve) => {  // a task of its own (no timer clamping)
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    });
    began = performance.now();
  }
}

/** untar's work, yielding after each file written. */
function* untarSteps(FS, tar, home) {
  const text = (at, length) => {
    let end = at;
    while (end < at + length && tar[end]) end += 1;
    return new TextDecoder().decode(tar.subarray(at, end));
  };
  const made = new Set();
  for (let at = 0; at + 512 <= tar.length && tar[at]; ) {
    const name = text(at, 100), prefix = text(at + 345, 155);
    const size = parseInt(text(at + 124, 12).trim() || "0", 8);
    const path = `${home}/${prefix ? `${prefix}/` : ""}${name}`;
    if (tar[at + 156] === 0 || tar[at + 156] === 48) {  // "0" (or NUL): a regular file
      const folder = path.slice(0, path.lastIndexOf("/"));
      if (!made.has(folder)) FS.mkdirTree(folder);
      made.add(folder);
      FS.writeFile(path, tar.subarray(at + 512, at + 512 + size));
      yield;
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Unpack a bzip2 tar (`data`, an ArrayBuffer) into the home folder with Python's bz2 (C),
 * when the worker could not decompress it; Python's tarfile, which takes longer to import
 * than to unpack with, is not imported. */
export function unpackBz2Tar(pyodide, data) {
  const scope = pyodide.globals.get("dict")();
  const decompress = pyodide.runPython(
    "import bz2\nlambda data: bz2.decompress(data.to_bytes())", { globals: scope });
  try {
    const raw = decompress(data);
    const tar = raw.toJs();
    raw.destroy();
    untar(pyodide.FS, tar, HOME);
  } finally {
    decompress.destroy();
    scope.destroy();
  }
}

// A dataclass compiles the methods it makes (__init__, __eq__, ...) from source text when
// it is created: most of its cost, and the start creates about seventy. web/build.py ships
// the code compiled from the same texts by this Pyodide (web/compile-pyc.mjs), under each
// text's SHA-256 digest; dataclasses then runs that code instead of compiling the text again
// (any other text is compiled as before). Then the standard-library modules PyScript's set-up
// imports but the app never uses are made to run on first use (web/lazy_imports.py). No
// indented Python here: web/build.py ships this script without indentation.
const START_CODE = `
import builtins, dataclasses, hashlib, marshal
with open("${HOME}/web/dataclass-code.marshal", "rb") as file: codes = marshal.load(file)
key = lambda source: hashlib.sha256(source.encode()).digest()
dataclasses.exec = lambda source, globals=None, locals=None, /: builtins.exec(codes.get(key(source), source), globals, locals)
from web import lazy_imports
lazy_imports.install()
`;

/** Unpack the start's archives into the home folder (`archives`: in START_ARCHIVES'
 * order, each `{ tar }`, decompressed, or `{ data }`, its bytes as fetched, which Python's
 * bz2 decompresses), then run START_CODE. One that cannot be unpacked is named on the
 * page's error screen (a failed download the page's fetch has named already). */
export async function unpackStart(pyodide, archives) {
  const how = [];
  for (const [index, fetched] of archives.entries()) {
    const { tar, data } = await fetched;
    try {
      if (tar) untar(pyodide.FS, tar, HOME);
      else unpackBz2Tar(pyodide, data);
      how.push(tar ? "worker" : "python");
    } catch (error) {
      const message = `A file the app needs could not be unpacked: ${START_ARCHIVES[index]}.`;
      globalThis.hexcombatBoot?.fail(message, String(error));
      throw new Error(`${message} ${error}`);
    }
  }
  // <html data-start-unpacked>: what decompressed them ("worker", or "python" for one)
  const by = how.includes("python") ? "python" : "worker";
  if (globalThis.document) document.documentElement.dataset.startUnpacked = by;
  const scope = pyodide.globals.get("dict")();
  pyodide.runPython(START_CODE, { globals: scope });
  scope.destroy();
}

// In the page the start's archives are fetched and decompressed by a worker (bunzip2.mjs)
// while the runtime downloads and starts, not once Python is up: the one the start-up
// controller made first of all (hexcombatBoot.unpacker, see index.html), else one made
// here. Its requests need nothing of the page's main thread, which Python's own start
// holds for seconds (bytes fetched by the page reached a worker made here only once Python
// was up in some starts, and unpacking waited 0.3-0.6 s for it). An archive the worker
// could not fetch (or no worker at all) is fetched by the page, whose fetch names a file
// that fails on the error screen; one it could not decompress, Python's bz2 decompresses.
function startArchives() {
  let worker = globalThis.hexcombatBoot?.unpacker || null, left = START_ARCHIVES.length;
  const waiting = new Set();
  try {
    worker ||= new Worker(new URL("./bunzip2.mjs", import.meta.url), { type: "module" });
    worker.addEventListener("error", () => [...waiting].forEach((waiter) => waiter(null)));
  } catch (error) {
    worker = null;
  }
  const done = () => {
    left -= 1;
    if (!left) worker?.terminate();
  };
  return START_ARCHIVES.map((name) => new Promise((resolve) => {
    if (!worker) return resolve(null);
    const answer = (result) => {
      waiting.delete(answer);
      resolve(result);
    };
    waiting.add(answer);
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => answer(event.data.error ? null : event.data);
    worker.postMessage(new URL(`./${name}`, import.meta.url).href, [channel.port2]);
  }).then((answered) => answered || fetchArchive(name))
    .finally(done));
}

// In the page, Python starts as soon as this module runs (index.html loads it before
// PyScript), not when PyScript has loaded, read its config and opened its storage: the
// runtime's files and the start's modules are requested and compiled as early as in a
// page that loads Pyodide itself. (In the snapshot worker, which imports the names above,
// nothing starts.)
if (globalThis.document) handOverTheRuntime();
const archives = globalThis.document ? startArchives() : [];
archives.forEach((fetched) => fetched.catch(() => {}));  // (reported when awaited below)
const early = globalThis.document ? start({}).then(async (pyodide) => {
  performance.mark("hexcombat:python-up");
  await unpackStart(pyodide, archives);
  performance.mark("hexcombat:start-unpacked");
  // web/later.py unpacks later.tar.bz2 with it (not Python's tarfile: importing tarfile and
  // extracting with it took about 0.2 s of the main thread just after the page was ready)
  // (a Promise: in slices)
  if (globalThis.hexcombatBoot) {
    globalThis.hexcombatBoot.untar = (tar) => untarInSlices(pyodide.FS, tar);
  }
  return pyodide;
}) : null;
// (a failure is PyScript's to report, when it asks for Python below)
early?.catch(() => {});
// The runtime's files are requested now (Pyodide asks for them in this task's microtasks):
// the start-up controller may draw its picture of the board, whose layout held them up.
globalThis.hexcombatBoot?.runtimeRequested?.();

// What PyScript calls (pyscript.json's "interpreter"): the Python started above, with
// PyScript's output handlers, which are all it passes besides the index URL.
export async function loadPyodide(options = {}) {
  const { stdout, stderr, indexURL: _index, ...rest } = options;
  if (!early || Object.keys(rest).length) {
    const pyodide = await start(options);
    await unpackStart(pyodide, START_ARCHIVES.map(fetchArchive));
    return pyodide;
  }
  const pyodide = await early;
  if (stdout) pyodide.setStdout({ batched: stdout });
  if (stderr) pyodide.setStderr({ batched: stderr });
  return pyodide;
}
