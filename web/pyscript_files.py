"""What the build takes from the vendored PyScript (``web/node_modules/@pyscript/core``).

The page preloads the chunks PyScript's ``core.js`` loads before it starts Python
(:func:`pyscript_chunks`), and ships compiled the modules of PyScript's own ``pyscript``
package that its set-up imports (:func:`pyscript_at_start`, placed by :func:`archived`).
A PyScript release that no longer has what these read fails the build, naming the file.
"""

from __future__ import annotations

import ast
import json
import re
import typing
from pathlib import Path

DIST = Path(__file__).resolve().parent / "node_modules" / "@pyscript" / "core" / "dist"
PYSCRIPT_PACKAGE = "pyscript"  # PyScript's Python package (pyscript_at_start)


def _fail(message: str) -> typing.NoReturn:
    """Stop the build with ``message`` (as ``web/build.py``'s ``fail`` does)."""
    raise SystemExit(f"build: error: {message}")


def pyscript_chunks() -> tuple[str, str]:
    """The files PyScript's ``core.js`` loads before it starts Python: its main chunk and
    the error plugin's (their names carry a content hash, so they are read from PyScript's
    dist folder; the page preloads them, see index.html)."""
    core = re.search(r'from"\./(core-[\w-]+\.js)"', (DIST / "core.js").read_text("utf-8"))
    if core is None:
        _fail(f"{DIST / 'core.js'}: no import of PyScript's main chunk (a new PyScript?)")
    chunk = (DIST / core[1]).read_text(encoding="utf-8")
    error = re.search(r'\berror:\(\)=>import\("\./(error-[\w-]+\.js)"\)', chunk)
    if error is None:
        _fail(f"{DIST / core[1]}: no import of the error plugin (a new PyScript?)")
    return core[1], error[1]


def pyscript_at_start() -> dict[str, bytes]:
    """The modules of PyScript's ``pyscript`` package that PyScript's set-up imports (those
    ``__init__.py`` imports, and theirs), as PyScript writes them into the page's home folder
    before it runs ``web/main.py``. Shipped compiled (``compiled``), they are not compiled
    again in the page (about 20 ms of a cold start)."""
    files = pyscript_sources()
    wanted, seen = ["__init__"], set()
    while wanted:
        module = wanted.pop()
        if module in seen or f"{PYSCRIPT_PACKAGE}/{module}.py" not in files:
            continue
        seen.add(module)
        for node in run_at_import(ast.parse(files[f"{PYSCRIPT_PACKAGE}/{module}.py"])):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                imported = [node.module]
            elif isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            else:
                continue
            wanted += [i.split(".")[1] for i in imported if i.startswith(f"{PYSCRIPT_PACKAGE}.")]
    return {k: v for k, v in files.items() if k.removesuffix(".py").split("/")[-1] in seen}


def pyscript_sources() -> dict[str, bytes]:
    """Every module of PyScript's ``pyscript`` package by file name (``pyscript/name.py``):
    read from the vendored PyScript's main chunk, where they are a JavaScript object of
    sources."""
    name = pyscript_chunks()[0]
    chunk = (DIST / name).read_text(encoding="utf-8")
    string = r'"(?:[^"\\]|\\.)*"'  # a JavaScript string literal (JSON's, as it turns out)
    files_object = rf'(\{{"__init__\.py":(?:[^"{{}}]|{string})*\}})'
    found = re.search(rf"\{{{PYSCRIPT_PACKAGE}:{files_object}\}}", chunk)
    if found is None:
        _fail(f"{name}: no sources of PyScript's package (a new PyScript?)")
    try:
        files = json.loads(found[1])
    except json.JSONDecodeError as error:
        _fail(f"{name}: PyScript's package sources do not read as JSON: {error}")
    return {f"{PYSCRIPT_PACKAGE}/{k}": v.encode("utf-8") for k, v in sorted(files.items())}


def run_at_import(node: ast.AST) -> typing.Iterator[ast.AST]:
    """The nodes of ``node`` that run when its module is imported (not inside functions)."""
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield child
            yield from run_at_import(child)


def archived(name: str, tag: str) -> str:
    """Where a compiled entry goes in its archive: a module of PyScript's package as the
    cached bytecode of the source PyScript writes (``pyscript/__pycache__/name.TAG.pyc``,
    which Python then runs unchecked), every other entry as itself."""
    if not name.startswith(f"{PYSCRIPT_PACKAGE}/"):
        return name
    folder, _, module = name.rpartition("/")
    return f"{folder}/__pycache__/{module.removesuffix('.pyc')}.{tag}.pyc"
