// The interpreter PyScript starts (pyscript.json's "interpreter"): Pyodide, from a memory
// snapshot of this build's Python when this browser has kept one, plain otherwise.
//
// The snapshot (made by python-snapshot.mjs in a worker after a start has finished, see
// index.html) is Python already started with the whole engine imported; starting from it
// skips Python's own start-up and the engine's imports. It is kept in Cache Storage under a
// key of this build's engine and Pyodide (web/build.py fills in __SNAPSHOT_KEY__), so a new
// build never starts from an old engine. Anything wrong with it: it is deleted and Python
// starts plain. <html data-python-start> says which start this was ("snapshot" or "plain").
import { loadPyodide as loadPlain } from "./vendor/pyodide/pyodide.mjs";

export * from "./vendor/pyodide/pyodide.mjs";

export const SNAPSHOT_CACHE = "hexcombat-python-__SNAPSHOT_KEY__";
export const SNAPSHOT_URL = new URL("./python-snapshot.bin", import.meta.url).href;
const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;

// The kept snapshot, or null. Only looks: a browser without one gets no cache made here
// (the embed view writes nothing to storage), and blocked storage is simply no snapshot.
async function keptSnapshot() {
  try {
    if (!globalThis.caches || !(await caches.has(SNAPSHOT_CACHE))) return null;
    const hit = await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_URL);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (error) {
    return null;
  }
}

function mark(how) {
  if (globalThis.document) document.documentElement.dataset.pythonStart = how;
}

export async function loadPyodide(options = {}) {
  const plain = { ...options, indexURL: INDEX_URL };
  const snapshot = await keptSnapshot();
  if (snapshot) {
    try {
      const pyodide = await loadPlain({ ...plain, _loadSnapshot: snapshot });
      mark("snapshot");
      return pyodide;
    } catch (error) {
      console.warn("hexcombat: the kept Python snapshot did not start; starting plain:", error);
      caches.delete(SNAPSHOT_CACHE).catch(() => {});
    }
  }
  mark("plain");
  return loadPlain(plain);
}
