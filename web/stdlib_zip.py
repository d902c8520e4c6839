"""Build step: the app's copy of Pyodide's standard library (``STDLIB_ZIP``).

Pyodide ships its standard library as sources in ``python_stdlib.zip`` and Python compiles
every module it imports from them, in the page, on every start: most of Python's own start.
The app's copy has the modules a start imports (Pyodide's own start's, the
engine's and the page's, as ``web/compile-pyc.mjs`` finds them) as bytecode, and leaves out
``DROPPED``, which nothing in the page can import (checked here), to pay for the bytecode's
bytes. ``web/build.py`` runs :func:`made_zip` in the vendored Pyodide under Node
(``web/stdlib-zip.mjs``: its Python compiles the modules and parses its own sources);
``python-start.mjs`` and ``python-snapshot.mjs`` start Pyodide with the result. The vendored
file stays in ``vendor/pyodide/`` for any other page. Standard library only; not shipped.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path

STDLIB_ZIP = "python-stdlib.zip"
"""The app's standard-library zip, at the top of the site."""
STDLIB_OPTIMIZE = 2
"""How its modules are compiled: as ``python -OO`` compiles them (no docstrings, no asserts).
The standard library is made to work so, and docstrings are a fifth of the bytecode's bytes."""
DROPPED = (
    # tools for tests, debugging, profiling and packaging, none of which runs in the page
    "unittest.mock",
    "pickletools",
    "trace",
    "profile",
    "cProfile",
    "pstats",
    "timeit",
    "tabnanny",
    "pyclbr",
    "modulefinder",
    "compileall",
    "zipapp",
    "symtable",
    # mail, servers and network protocols (the page has no sockets)
    "imaplib",
    "poplib",
    "smtplib",
    "mailbox",
    "wsgiref",
    "xmlrpc.server",
    "http.cookies",
    # file formats the app does not read or write
    "xml.dom",
    "xml.sax",
    "xml.etree",
    "tomllib",
    "configparser",
    "wave",
    # pure-Python stand-ins for what the app uses built in, or never configures
    "_pyio",
    "optparse",
    "logging.config",
    "logging.handlers",
)
"""Standard-library modules (a package: with its modules) left out of ``STDLIB_ZIP``:
:func:`made_zip` refuses if anything the page can run could import one."""
ALWAYS_REACHED = ("encodings", "pyodide", "_pyodide")
"""Packages kept whole whatever imports them: Python imports codecs by their names, and
Pyodide's JavaScript imports its own modules."""
IN_PAGE = "/lib/python314.zip/"
"""Where Pyodide puts the zip in the page (the compiled modules' file names)."""


class StdlibZipError(ValueError):
    """The zip cannot be made as asked."""


def request(vendored: Path, at_start: list[str], roots: dict[str, bytes]) -> bytes:
    """``web/stdlib-zip.mjs``'s input: the vendored zip, the modules to compile, ``DROPPED``
    and the sources whose imports must all stay (``roots``, by file name)."""
    return json.dumps(
        {
            "zip": str(vendored),
            "compile": sorted(at_start),
            "drop": list(DROPPED),
            "optimize": STDLIB_OPTIMIZE,
            "roots": {k: v.decode("utf-8") for k, v in sorted(roots.items())},
        }
    ).encode("utf-8")


def imported(source: str, module: str, package: bool) -> set[str]:
    """The names ``module``'s source imports anywhere in it (in functions too), as absolute
    names (``from . import x`` in ``a.b`` gives ``a`` and ``a.x``); a constant given to
    ``importlib.import_module`` or ``__import__`` counts."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    here = module if package else module.rpartition(".")[0]
    names: set[str] = set()
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
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            called = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def importers(stdlib: zipfile.ZipFile, roots: dict[str, str], start: set[str]) -> dict[str, str]:
    """Every module of ``stdlib`` that ``roots`` (sources by file name), ``start`` and
    ``ALWAYS_REACHED`` import, and what they import in turn: by module, who imports it."""
    modules = listed(stdlib)
    by: dict[str, str] = {}
    todo: list[str] = []

    def reach(name: str, importer: str) -> None:
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            module = ".".join(parts[:end])
            if module in modules and module not in by:
                by[module] = importer
                todo.append(module)

    for file, source in roots.items():
        module = file.removesuffix(".py").replace("/", ".")
        package = module.endswith(".__init__")
        for name in imported(source, module.removesuffix(".__init__"), package):
            reach(name, file)
    for module in modules:
        if module in start or module.split(".")[0] in ALWAYS_REACHED:
            reach(module, "the start")
    while todo:
        module = todo.pop()
        entry, package = modules[module]
        for name in imported(stdlib.read(entry).decode("utf-8", "replace"), module, package):
            reach(name, module)
    return by


def listed(stdlib: zipfile.ZipFile) -> dict[str, tuple[str, bool]]:
    """The modules of ``stdlib`` by name: (entry name, whether it is a package)."""
    modules = {}
    for name in stdlib.namelist():
        if name.endswith(".py"):
            dotted = name[:-3].replace("/", ".")
            modules[dotted.removesuffix(".__init__")] = (name, dotted.endswith(".__init__"))
    return modules


def made_zip(
    vendored: bytes,
    compile_: Sequence[str],
    drop: Sequence[str],
    optimize: int,
    roots: dict[str, str],
) -> bytes:
    """The app's zip made from ``vendored``: each module of ``compile_`` as sourceless
    bytecode of this Python (unchecked hash; the running Python's code tables), every module
    of ``drop`` left out once nothing reaches it (``importers``), every other entry as it
    is (recompressed). Raises ``StdlibZipError`` naming what is wrong."""
    stdlib = zipfile.ZipFile(io.BytesIO(vendored))
    modules, compiled = listed(stdlib), set(compile_)

    def dropped(module: str, drop: Sequence[str] = drop) -> bool:
        return any(module == d or module.startswith(f"{d}.") for d in drop)

    unknown = sorted(compiled - set(modules))
    unknown += [d for d in drop if not any(dropped(m, [d]) for m in modules)]
    if unknown:
        raise StdlibZipError(f"not in the standard library's zip: {', '.join(unknown)}")
    by = importers(stdlib, roots, compiled)
    clash = sorted(f"{m} (imported by {by[m]})" for m in by if dropped(m))
    if clash:
        raise StdlibZipError(f"modules to leave out that can be imported: {'; '.join(clash)}")
    from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as made:
        for info in stdlib.infolist():
            name, data = info.filename, stdlib.read(info.filename)
            module = name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
            if name.endswith(".py") and dropped(module):
                continue
            if name.endswith(".py") and module in compiled:
                code = compile(data, IN_PAGE + name, "exec", dont_inherit=True, optimize=optimize)
                source_hash = importlib.util.source_hash(data)
                name, data = f"{name}c", _code_to_hash_pyc(code, source_hash, checked=False)
            entry = zipfile.ZipInfo(name, info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = info.external_attr
            made.writestr(entry, data, compresslevel=9)
    return out.getvalue()
