// Module worker: makes this build's Python start-up snapshot and keeps it for the next start
// (python-start.mjs loads it). index.html starts it once a start has finished, the page is
// idle and the app is kept offline; it runs beside the page and is then ended.
//
// The snapshot is Pyodide started with every engine module imported (the CLI excepted;
// from hexcombat.tar.bz2, as the page unpacks it, and later.tar.bz2, see web/build.py): a
// plain-Python engine with no browser objects, which is what a memory snapshot can hold.
// The page's own modules use the browser and are imported as usual. It is kept with the
// SHA-256 digest of its bytes (checked before every use, see python-start.mjs). Answers
// {made: bytes} or {error: text}.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";
import { bunzip2 } from "./bunzip2.mjs";
import {
  LOCK, SNAPSHOT_CACHE, SNAPSHOT_DIGEST, SNAPSHOT_URL, START_ARCHIVES, STDLIB_URL, sha256, untar,
} from "./python-start.mjs";

const IMPORT_ENGINE = `
import pkgutil, sys
sys.path.insert(0, "/home/pyodide")
import hexcombat
for module in pkgutil.walk_packages(hexcombat.__path__, "hexcombat."):
    if module.name.rsplit(".", 1)[-1] not in ("__main__", "cli"):
        __import__(module.name)
`;

async function make() {
  const indexURL = new URL("./vendor/pyodide/", import.meta.url).href;
  const pyodide = await loadPyodide({
    indexURL, stdLibURL: STDLIB_URL, lockFileContents: LOCK, _makeSnapshot: true,
  });
  for (const name of [START_ARCHIVES[0], "later.tar.bz2"]) {  // as the page unpacks them
    const response = await fetch(new URL(`./${name}`, import.meta.url));
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    untar(pyodide.FS, bunzip2(new Uint8Array(await response.arrayBuffer())));
  }
  pyodide.runPython(IMPORT_ENGINE);
  const snapshot = pyodide.makeMemorySnapshot();
  for (const name of await caches.keys()) {
    if (name.startsWith("hexcombat-python-") && name !== SNAPSHOT_CACHE) await caches.delete(name);
  }
  const cache = await caches.open(SNAPSHOT_CACHE);
  await cache.put(SNAPSHOT_URL, new Response(snapshot, {
    headers: { "content-type": "application/octet-stream", [SNAPSHOT_DIGEST]: await sha256(snapshot) },
  }));
  return snapshot.length;
}

make().then(
  (made) => postMessage({ made }),
  (error) => postMessage({ error: String((error && error.stack) || error) }),
);
