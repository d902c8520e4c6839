// Build tool (web/build.py runs it under Node; not shipped): the app's copy of Pyodide's
// standard-library zip, made by web/stdlib_zip.py's made_zip in the vendored Pyodide, whose
// Python compiles the modules (and parses the sources of its own version). Reads on stdin,
// as JSON: {zip: the vendored python_stdlib.zip's path, compile: [module names], optimize:
// how, drop: [module names], roots: {file name: Python source}}; writes the zip's bytes on
// stdout, or why it cannot be made on stderr (exit status 1).
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const MAKE = `
import json, stdlib_zip
asked = json.loads(REQUEST)
try:
    made = stdlib_zip.made_zip(bytes(ZIP.to_py()), asked["compile"], asked["drop"],
                               asked["optimize"], asked["roots"])
except stdlib_zip.StdlibZipError as error:
    made = str(error)
made
`;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = Buffer.concat(chunks).toString("utf-8");
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });  // (no column tables)
pyodide.FS.writeFile("/home/pyodide/stdlib_zip.py", readFileSync(new URL("./stdlib_zip.py", import.meta.url)));
pyodide.globals.set("REQUEST", request);
pyodide.globals.set("ZIP", new Uint8Array(readFileSync(JSON.parse(request).zip)));
const made = pyodide.runPython(MAKE);
if (typeof made === "string") {
  process.stderr.write(made);
  process.exitCode = 1;
} else {
  process.stdout.write(made.toJs());
}
