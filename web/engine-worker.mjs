// Module worker: the engine off the page's main thread. The page (web/engine_client.py)
// makes it when it first needs the engine's heavy work (the app's decisions) and keeps it.
// Python starts here as in the page (python-start.mjs: from this build's start-up snapshot
// when this browser keeps one, else plain, with the start's archives), then the rulesets of
// later.tar.bz2 are unpacked beside them. Each message [id, command, bytes] (a JSON text, see
// web/engine_boundary.py, and the bytes it names or null) is answered [id, answer] (a JSON
// text), or [id, null, error] when Python itself failed; messages are answered one at a
// time, in order.
import { loadPyodide, untar } from "./python-start.mjs";
import { bunzip2 } from "./bunzip2.mjs";

// (no indented Python: web/build.py ships this script without indentation)
const SERVE = `
import importlib.util
if importlib.util.find_spec("hexcombat_extras"): import hexcombat_extras
from web.engine_boundary import serve
lambda text, data=None: serve(text, None if data is None else data.to_bytes())
`;

async function started() {
  const pyodide = await loadPyodide({});
  const response = await fetch(new URL("./later.tar.bz2", import.meta.url));
  if (!response.ok) throw new Error(`later.tar.bz2: HTTP ${response.status}`);
  untar(pyodide.FS, bunzip2(new Uint8Array(await response.arrayBuffer())));
  return pyodide.runPython(SERVE);
}

const serving = started();
let queue = Promise.resolve();

self.onmessage = (event) => {
  const [id, command, data] = event.data;
  queue = queue.then(async () => {
    try {
      const serve = await serving;
      postMessage([id, data ? serve(command, data) : serve(command)]);
    } catch (error) {
      postMessage([id, null, String((error && error.stack) || error)]);
    }
  });
};
