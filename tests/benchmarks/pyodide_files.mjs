// Copying a folder's Python sources into Pyodide's file system, for the benchmarks that run
// inside Pyodide under Node.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function copyTree(from, to, pyodide) {
  for (const name of readdirSync(from).sort()) {
    const path = join(from, name);
    if (name === "__pycache__") continue;
    if (statSync(path).isDirectory()) copyTree(path, `${to}/${name}`, pyodide);
    else if (/\.(py|json|typed)$/.test(name)) {
      pyodide.FS.mkdirTree(to);
      pyodide.FS.writeFile(`${to}/${name}`, readFileSync(path));
    }
  }
}
