// Build tool (web/build.py runs it under Node; not shipped): the app's copy of Pyodide's
// standard-library zip (web/stdlib_zip.py). Reads on stdin, as JSON: {zip: the vendored
// python_stdlib.zip's path, compile: [module names], optimize: how, drop: [module names],
// roots: {file name: Python source}}; writes the new zip's bytes on stdout.
// Pyodide ships its standard library as sources, and Python compiles every module it imports
// from them: in a page that is most of Python's own start. Each module in "compile" is written
// as sourceless bytecode instead (unchecked hash; at the given optimization level, without
// column tables: what stays of a traceback is the file and line), compiled by this Pyodide. Each
// module in "drop" (or package: its modules too) is left out, once it is sure nothing can
// import it: the static import closure of "roots", of every compiled module and of Pyodide's
// own packages must not reach it (else this fails naming who imports it). Every other entry is
// copied as it is (recompressed).
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const MAKE = `
import ast, importlib.util, io, json, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

ALWAYS = ("encodings", "pyodide", "_pyodide")  # (codecs are imported by name at run time)

def imported(source, module, package):
    """The names a module's source imports anywhere in it (inside functions too)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    here = module if package else module.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")):
            names.add(node.args[0].value)
    return names

request = json.loads(REQUEST)
stdlib = zipfile.ZipFile(io.BytesIO(bytes(ZIP.to_py())))
modules = {}  # module name: (entry name, is a package)
for name in stdlib.namelist():
    if name.endswith(".py"):
        dotted = name[:-3].replace("/", ".")
        modules[dotted.removesuffix(".__init__")] = (name, dotted.endswith(".__init__"))
compile_set, drop = set(request["compile"]), tuple(request["drop"])
missing = sorted(compile_set - set(modules))
if missing:
    raise SystemExit(f"not in the standard library's zip: {', '.join(missing)}")
dropped = lambda module: any(module == d or module.startswith(d + ".") for d in drop)
unknown = sorted(d for d in drop if not any(m == d or m.startswith(d + ".") for m in modules))
if unknown:
    raise SystemExit(f"not in the standard library's zip: {', '.join(unknown)}")

# who imports what, from the roots through every module they reach
reached, by = set(), {}
def reach(name, importer):
    parts = name.split(".")
    for end in range(1, len(parts) + 1):
        module = ".".join(parts[:end])
        if module in modules and module not in reached:
            reached.add(module)
            by[module] = importer
            todo.append(module)
todo = []
for file, source in request["roots"].items():
    module = file.removesuffix(".py").replace("/", ".")
    for name in imported(source, module.removesuffix(".__init__"), module.endswith(".__init__")):
        reach(name, file)
for module in modules:
    if module in compile_set or module.split(".")[0] in ALWAYS:
        reach(module, "the start")
while todo:
    module = todo.pop()
    entry, package = modules[module]
    for name in imported(stdlib.read(entry).decode("utf-8", "replace"), module, package):
        reach(name, module)
clash = sorted(f"{m} (imported by {by[m]})" for m in reached if dropped(m))
if clash:
    raise SystemExit("these modules are to be left out but can be imported: " + "; ".join(clash))

out, count = io.BytesIO(), 0
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as made:
    for info in stdlib.infolist():
        data = stdlib.read(info.filename)
        module = info.filename[:-3].replace("/", ".").removesuffix(".__init__")
        name = info.filename
        if info.filename.endswith(".py") and dropped(module):
            continue
        if info.filename.endswith(".py") and module in compile_set:
            code = compile(data, "/lib/python314.zip/" + info.filename, "exec", dont_inherit=True, optimize=request["optimize"])
            data = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name += "c"
            count += 1
        entry = zipfile.ZipInfo(name, info.date_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        entry.external_attr = info.external_attr
        made.writestr(entry, data, compresslevel=9)
out.getvalue()
`;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = Buffer.concat(chunks).toString("utf-8");
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
try {
  pyodide.globals.set("REQUEST", request);
  pyodide.globals.set("ZIP", new Uint8Array(readFileSync(JSON.parse(request).zip)));
  process.stdout.write(pyodide.runPython(MAKE).toJs());
} catch (error) {  // (not Node's report, which quotes Pyodide's 1 MB line of JavaScript)
  const text = String(error.message || error);
  const exit = text.lastIndexOf("SystemExit: ");
  process.stderr.write(exit < 0 ? text : text.slice(exit + "SystemExit: ".length));
  process.exitCode = 1;
}
