// Build tool (web/build.py runs it under Node; not shipped): compiles the start's Python
// modules to bytecode inside the vendored Pyodide, so the page imports them without
// compiling. Reads {name: source} as JSON on stdin, writes {pyc: {name: base64 .pyc},
// dataclasses: base64, tag: its Python's cache tag, stdlib: [the standard-library modules
// imported by then]} on stdout.
// Each .pyc is unchecked-hash (never compared with a source, there is none), compiled with
// no column tables (PYTHONNODEBUGRANGES: a third of the bytes; tracebacks keep the file and
// line, as the lean sources do) under the name the page unpacks it to (/home/pyodide/...).
// "dataclasses" is a marshalled {SHA-256 of the source: code} of the methods the modules' dataclasses make
// as they are created (dataclasses compiles them from source text, most of a dataclass's
// cost): the modules are imported here with dataclasses' exec recording them, and the page
// runs these instead of compiling the same text again (python-start.mjs). A page module
// that needs the browser to be imported is skipped: its classes are compiled as usual.
// "stdlib" is what Pyodide's own start and these imports took from its standard library
// (and the few modules this script imports itself): web/stdlib_zip.py ships them compiled.
import { loadPyodide } from "pyodide";

const COMPILE = `
import base64, builtins, dataclasses, hashlib, importlib, importlib.util, json, marshal, os, sys
from importlib._bootstrap_external import _code_to_hash_pyc
HOME = "/home/pyodide/"
STDLIB = "/lib/python314.zip/"  # (Pyodide's standard library, as sources)
sources = json.loads(SOURCES)
pyc = {}
for name, text in sources.items():
    code = compile(text, HOME + name, "exec", dont_inherit=True)
    pyc[name] = base64.b64encode(
        _code_to_hash_pyc(code, importlib.util.source_hash(text.encode()), checked=False)
    ).decode()
    os.makedirs(os.path.dirname(HOME + name), exist_ok=True)
    with open(HOME + name, "w", encoding="utf-8") as file:
        file.write(text)
made = {}
def record(source, globals=None, locals=None, /):
    key = hashlib.sha256(source.encode()).digest()
    if key not in made:
        made[key] = compile(source, "<string>", "exec", dont_inherit=True)
    return builtins.exec(made[key], globals, locals)
dataclasses.exec = record
sys.path.insert(0, HOME)
for name in sorted(sources):
    if name.endswith(".py"):
        try:
            importlib.import_module(name[:-3].replace("/", ".").removesuffix(".__init__"))
        except Exception:  # needs the browser (js.document...): not recorded, see above
            pass
stdlib = sorted(name for name, module in sys.modules.items()
                if (getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(STDLIB))
json.dumps({"pyc": pyc, "dataclasses": base64.b64encode(marshal.dumps(made)).decode(),
            "tag": sys.implementation.cache_tag, "stdlib": stdlib})
`;

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pyodide = await loadPyodide({ env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.globals.set("SOURCES", Buffer.concat(chunks).toString("utf-8"));
process.stdout.write(pyodide.runPython(COMPILE));
