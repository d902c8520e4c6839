// Build tool (web/build.py runs it under Node; not shipped): compiles the start's Python
// modules to bytecode inside the vendored Pyodide, so the page imports them without
// compiling. Reads {name: source} as JSON on stdin, writes {name: base64 .pyc} on stdout.
// Each .pyc is unchecked-hash (never compared with a source, there is none), compiled with
// no column tables (PYTHONNODEBUGRANGES: a third of the bytes; tracebacks keep the file and
// line, as the lean sources do) under the name the page unpacks it to (/home/pyodide/...).
import { loadPyodide } from "pyodide";

const COMPILE = `
import base64, importlib.util, json, marshal
from importlib._bootstrap_external import _code_to_hash_pyc
sources = json.loads(SOURCES)
out = {}
for name, text in sources.items():
    code = compile(text, "/home/pyodide/" + name, "exec", dont_inherit=True)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(text.encode()), checked=False)
    out[name] = base64.b64encode(pyc).decode()
json.dumps(out)
`;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("SOURCES", Buffer.concat(chunks).toString("utf-8"));
process.stdout.write(pyodide.runPython(COMPILE));
