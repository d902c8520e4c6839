"""Build the deployable site folder ``dist/site/`` from the repository.

Usage: ``python web/build.py [--out DIR] [--zip] [--serve [--port N]] [--extra-ruleset DIR:CLASS]``
(standard library only). With ``--zip`` the folder is also zipped, beside it, as
``hexcombat-site-VERSION.zip`` (``web/release.py``): the release a GM downloads.
With ``--serve`` the folder is then served on http://127.0.0.1:PORT/ with the
MIME types the runtime needs and the page's policy (``web/site_server.py``; the browser
tests use it too).

The result is one self-contained folder with relative URLs only, so it can be
copied to any static host, a subfolder of one, or a wiki attachment area:

- ``index.html`` (with the first-visit board's picture, ``web/board_picture.py``),
  ``pyscript.json``, the start-up script ``web/main.py`` and the other browser-side
  Python modules in ``web.tar.bz2``;
- ``static/`` (icons, styles without their comments and indentation);
- ``hexcombat.tar.bz2``: the engine package with its JSON data files; like ``web.tar.bz2``
  its modules are sourceless bytecode (``compiled``), fetched by ``python-start.mjs`` beside
  the runtime and unpacked into the home folder, on ``sys.path``, before PyScript gets Python;
- ``later.tar.bz2``: what a start does not need before the first draw (the rulesets other
  than the starter, the CLI, the set-up, library and share panels), unpacked by
  ``web/later.py`` once the page is ready or at the first import that needs it;
- ``python-start.mjs`` (the interpreter PyScript starts, from this browser's Python
  start-up snapshot when it has one) and ``python-snapshot.mjs`` (the worker that makes it);
- only with ``--extra-ruleset tests/kit:KitDuel`` (a test build, never the app's): the
  package folder ``tests/kit`` as ``kit/`` in the engine archive, and ``hexcombat_extras.py``, which
  registers ``kit.KitDuel``; ``web/start.py`` imports it when it is there;
- ``vendor/pyodide/``, ``vendor/pyscript/`` and ``vendor/jsqr/``: the runtime and the QR
  decoder, copied from
  ``web/node_modules`` (run ``npm ci`` in ``web/`` first). Nothing comes from a CDN.
"""

from __future__ import annotations

import argparse
import ast
import base64
import bz2
import functools
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tokenize
import typing
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
NODE_MODULES = WEB / "node_modules"
DEFAULT_OUT = ROOT / "dist" / "site"

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ENGINE_SUFFIXES = (".py", ".json", ".typed")
# Files in web/ that are build inputs or tooling, not page modules.
WEB_NOT_SHIPPED = {
    "build.py",
    "site_server.py",
    "make_icons.py",
    "board_picture.py",
    "pyscript_files.py",
    "stdlib_zip.py",
}

# Fixed timestamp for tar entries so that identical sources give identical archives.
ZIP_MTIME = 1577836800
# The start's archives: the engine, and the page's modules but web/main.py (see write_archives),
# as bzip2 tars of bytecode, which python-start.mjs fetches and unpacks itself.
VERSION_FILE = "hexcombat/version.py"
ENGINE_ARCHIVE = "hexcombat.tar.bz2"
PAGE_ARCHIVE = "web.tar.bz2"
# What a start does not need before the first draw (later_names), unpacked by web/later.py.
LATER_ARCHIVE = "later.tar.bz2"
# In PAGE_ARCHIVE: the code of the start's dataclasses' methods (``compiled``, python-start.mjs).
DATACLASS_CODE = "web/dataclass-code.marshal"
JSQR_FILE = "vendor/jsqr/jsQR.js.gz"  # web/table/scan.py unpacks it


def fail(message: str) -> typing.NoReturn:
    """Print a build error and exit with status 1."""
    print(f"build: error: {message}", file=sys.stderr)
    raise SystemExit(1)


def page_modules() -> list[Path]:
    """Return the browser-side Python files of ``web/`` (relative to ``web/``), sorted."""
    found = []
    for path in sorted(WEB.rglob("*.py")):
        rel = path.relative_to(WEB)
        if rel.parts[0] in {"node_modules", "__pycache__"} or "__pycache__" in rel.parts:
            continue
        if rel.as_posix() in WEB_NOT_SHIPPED:
            continue
        found.append(rel)
    return found


def engine_files() -> list[Path]:
    """Return the engine package files to ship (relative to the repo root), sorted."""
    package = ROOT / "hexcombat"
    if not package.is_dir():
        fail("the hexcombat/ package folder is missing")
    files = []
    for path in sorted(package.rglob("*")):
        rel = path.relative_to(ROOT)
        if "__pycache__" in rel.parts or not path.is_file():
            continue
        if path.suffix in ENGINE_SUFFIXES:
            files.append(rel)
    return files


def extra_files(specs: Sequence[str]) -> dict[str, bytes]:
    """Zip entries for ``--extra-ruleset DIR:CLASS`` options: each package folder under its
    own name, and ``hexcombat_extras.py`` registering each class (empty without options)."""
    entries: dict[str, bytes] = {}
    lines = [
        '"""Rulesets added by web/build.py --extra-ruleset (a test build, not the app)."""',
        "from hexcombat.rulesets.registry import register",
    ]
    for spec in specs:
        folder_text, _, cls = spec.rpartition(":")
        folder = (ROOT / folder_text).resolve()
        if not cls.isidentifier() or not (folder / "__init__.py").is_file():
            fail(f"--extra-ruleset wants PACKAGE_FOLDER:CLASS, got {spec!r}")
        for path in sorted(folder.rglob("*")):
            if (
                path.is_file()
                and path.suffix in ENGINE_SUFFIXES
                and "__pycache__" not in path.parts
            ):
                entries[f"{folder.name}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
        lines += [f"from {folder.name} import {cls}", f"register({cls})"]
    if specs:
        entries["hexcombat_extras.py"] = ("\n".join(lines) + "\n").encode()
    return entries


@functools.cache  # a build leans each file once, and the build's tests lean them again
def lean_source(source: bytes) -> bytes:
    """Python source as shipped to the page: no comments, docstrings emptied (a class's to
    ``"."``), line for line.

    The page never reads a docstring or a comment, and they are a fifth of the bytes; every
    line stays where it was (a docstring keeps its line breaks), so a traceback's line
    numbers still point into the repository's file. A dataclass with an empty docstring
    makes one from its signature as it is created (``inspect.signature``: about 0.1 ms a
    class in Pyodide, and a start creates about seventy).
    """
    text = source.decode("utf-8")
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(row: int, byte_col: int) -> int:
        line = lines[row - 1]
        return starts[row - 1] + len(line.encode("utf-8")[:byte_col].decode("utf-8"))

    cuts: list[tuple[int, int, str]] = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
                and first.end_lineno is not None
                and first.end_col_offset is not None
            ):
                breaks = "\n" * (first.end_lineno - first.lineno)
                start = offset(first.lineno, first.col_offset)
                end = offset(first.end_lineno, first.end_col_offset)
                # a class keeps a docstring of one character: a dataclass without one has
                # its signature worked out as its __doc__ (inspect.signature, at import)
                mark = "." if isinstance(node, ast.ClassDef) else ""
                cuts.append((start, end, f'"""{mark}{breaks}"""' if breaks else f'"{mark}"'))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            row, col = token.start
            before = lines[row - 1][:col]
            start = starts[row - 1] + len(before.rstrip(" \t"))
            cuts.append((start, starts[row - 1] + col + len(token.string), ""))
    parts: list[str] = []
    kept = 0
    for start, end, replacement in sorted(cuts):
        parts += [text[kept:start], replacement]
        kept = end
    return "".join([*parts, text[kept:]]).encode("utf-8")


def lean_script(text: str) -> str:
    """JavaScript as shipped: without its whole-line ``//`` comments and indentation (the
    scripts they are used on have no text that spans lines)."""
    lines = (line.strip() for line in text.splitlines())
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("//"))


def lean_style(css: str) -> str:
    """A style sheet as shipped: without its comments, indentation and blank lines (the
    sheets have no string or URL holding ``/*``); every rule as it was."""
    text = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    if "*/" in text or text.count("{") != css.count("{"):
        fail("a style sheet's comments could not be taken out")
    return "".join(f"{line.strip()}\n" for line in text.splitlines() if line.strip())


def lean_page(html: str) -> str:
    """``index.html`` as shipped: no HTML comments, its inline script lean (``lean_script``)."""
    engine_on_path()
    from web.site_server import INLINE_SCRIPT

    html = re.sub(r"<!--.*?-->\n?", "", html, flags=re.DOTALL)
    return INLINE_SCRIPT.sub(
        lambda m: m[0] if m["attrs"] else f"<script>\n{lean_script(m['body'])}</script>", html
    )


def shipped(name: str, data: bytes) -> bytes:
    """A file's bytes as the page gets them (Python sources lean, see ``lean_source``)."""
    return lean_source(data) if name.endswith(".py") else data


def engine_on_path() -> None:
    """Make the repository's ``hexcombat`` (and ``web``) importable by the build."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def page_html() -> str:
    """``web/index.html`` as shipped: the first-visit board's picture in its slot
    (``web/board_picture.py``), then its Content-Security-Policy."""
    engine_on_path()
    from web.board.units import TOUCH_FIT_PX
    from web.board_picture import with_picture
    from web.pyscript_files import pyscript_chunks
    from web.site_server import with_csp_meta

    page = (WEB / "index.html").read_text(encoding="utf-8")
    core = '<link rel="modulepreload" href="./vendor/pyscript/core.js">'
    if core not in page:
        fail(f"web/index.html has no {core}")
    chunks = "".join(
        f'\n  <link rel="modulepreload" href="./vendor/pyscript/{name}">'
        for name in pyscript_chunks()
    )
    page = page.replace(core, core + chunks, 1).replace("__TOUCH_FIT_PX__", f"{TOUCH_FIT_PX:g}")
    return with_csp_meta(lean_page(with_picture(page, ROOT / "static")))


def later_names() -> tuple[str, ...]:
    """Archive entry names (prefixes) that go into ``LATER_ARCHIVE``, not the start's archives.

    The rulesets a first start does not open (every built-in one but the starter), the CLI,
    and the page's panels that are imported on first use (set-up, library, share, the table
    of devices: by the time a player opens its dialog the page has unpacked it), and the
    share link's viewer (``web/start.py`` unpacks it first there). The page
    unpacks it once it is ready, or at the first import that needs it
    (``web/later.py``). Every ruleset's data file stays in the start's archive: a ruleset
    imported from the Python start-up snapshot reads it.
    """
    engine_on_path()
    from hexcombat.rulesets.registry import BUILT_IN

    rulesets = [e.module.replace(".", "/") for e in BUILT_IN if not e.starter]
    return (
        *(f"{m}/" for m in rulesets),
        *(f"{m}.py" for m in rulesets),
        "hexcombat/cli.py",
        "hexcombat/autoplay_cli.py",
        "hexcombat/__main__.py",
        "hexcombat/editing.py",
        "hexcombat/roster.py",  # the roster: set-up's part, a fight's end, the library's list
        "web/library/roster.py",
        "web/play/roster_prompt.py",
        "web/setup/",
        "web/library/panel.py",
        "web/library/importing.py",
        "web/library/new_encounter.py",
        "web/share/panel.py",
        "web/share/backup.py",
        # the read-only viewer of a share link, which unpacks LATER_ARCHIVE before its first draw
        # in any case (web/start.py), and its exports (QR codes too)
        "web/share/viewer.py",
        "web/share/exports.py",
        "web/share/bar.py",
        "hexcombat/qr.py",
        "hexcombat/table/",  # a table of devices: imported when its dialog first opens
        *(f"web/table/{m}.py" for m in ("codes", "link", "panel", "rtc", "scan")),
    )


def write_tbz(target: Path, entries: dict[str, bytes]) -> None:
    """Write a bzip2 tar of ``entries`` as the page gets them (deterministic order and dates):
    one compressed stream over all files, of the start's bytecode about a third smaller than
    gzip, decompressed by ``web/bunzip2.mjs`` in a worker.
    Blocks of 500 kB, not 900: unpacking the engine's with 900 kB blocks grows the snapshot
    worker's memory past what a start from its snapshot has, and that start then fails."""
    with bz2.BZ2File(target, "wb", compresslevel=5) as packed:
        write_tar(packed, entries)


def write_tar(packed: typing.IO[bytes], entries: dict[str, bytes]) -> None:
    """Write ``entries`` as a tar to the stream ``packed`` (deterministic order and dates)."""
    with tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in entries.items():
            body = shipped(name, data)  # (a .pyc as it is)
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(body), 0o644, ZIP_MTIME
            tar.addfile(info, io.BytesIO(body))


class Compiled(typing.NamedTuple):
    """What ``compiled`` returns."""

    code: dict[str, bytes]
    """The entries, each Python module as sourceless bytecode (``name.pyc``)."""
    dataclasses: bytes
    """The code of the methods their dataclasses make (``DATACLASS_CODE``)."""
    tag: str
    """The Python's cache tag (``archived``)."""
    stdlib: list[str]
    """The standard-library modules Pyodide's start and the modules' imports took."""


def compiled(entries: dict[str, bytes]) -> Compiled:
    """``entries`` with every Python module as sourceless bytecode (``name.pyc``), compiled
    from its lean source by the vendored Pyodide under Node (``web/compile-pyc.mjs``): the
    page imports the start's modules without compiling them (most of their import time), for
    more bytes than the sources (README, "Performance"); with what else that run found."""
    sources = {k: shipped(k, v).decode("utf-8") for k, v in entries.items() if k.endswith(".py")}
    made = json.loads(in_pyodide("compile-pyc.mjs", json.dumps(sources).encode("utf-8")))
    pyc = made["pyc"]
    code = {
        (f"{k}c" if k in sources else k): (base64.b64decode(pyc[k]) if k in sources else v)
        for k, v in entries.items()
    }
    return Compiled(code, base64.b64decode(made["dataclasses"]), made["tag"], made["stdlib"])


PYC_CACHE = "HEXCOMBAT_PYC_CACHE"
"""Environment variable naming a folder where ``in_pyodide`` keeps its output by the
digest of its input (tests/run sets it; under CI not for dist/site, so that the build tests
compare two compilations): a rebuild of the same sources skips Node."""


def in_pyodide(script: str, request: bytes, runs: Sequence[str] = ()) -> bytes:
    """The output of the build tool ``web/<script>`` (run in the vendored Pyodide under Node)
    for ``request``, from the ``PYC_CACHE`` folder when it holds the same request's (keyed
    with the script, the files of ``web/`` it runs and the Pyodide version too)."""
    folder = os.environ.get(PYC_CACHE)
    kept = None
    name = script.removesuffix(".mjs")
    if folder:
        key = hashlib.sha256(request)
        for used in (script, *runs):
            key.update((WEB / used).read_bytes())
        key.update((NODE_MODULES / "pyodide" / "package.json").read_bytes())
        kept = Path(folder) / f"{name}-{key.hexdigest()[:32]}.out"
        if kept.is_file():
            kept.touch()
            return kept.read_bytes()
    if shutil.which("node") is None:
        fail(f"Node.js is needed to run web/{script} (node not found)")
    done = subprocess.run(
        ["node", str(WEB / script)], input=request, capture_output=True, check=False
    )
    if done.returncode:
        fail(f"web/{script} failed:\n{done.stderr.decode(errors='replace')}")
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        part = kept.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(done.stdout)
        part.replace(kept)  # whole or absent, as workers may build at once
        for old in sorted(kept.parent.glob(f"{name}-*.out"), key=lambda p: p.stat().st_mtime)[:-4]:
            old.unlink(missing_ok=True)  # the last few builds' (a test build adds rulesets)
    return done.stdout


def write_stdlib_zip(out: Path, at_start: list[str], roots: dict[str, bytes]) -> None:
    """Write the app's standard-library zip (``web/stdlib_zip.py``): ``at_start`` compiled,
    what none of ``roots`` (every module the page may run) can import left out."""
    from web.stdlib_zip import STDLIB_ZIP, request

    vendored = NODE_MODULES / "pyodide" / "python_stdlib.zip"
    if not vendored.is_file():
        fail("web/node_modules is missing or incomplete: run `npm ci` in web/ first")
    asked = request(vendored, at_start, roots)
    (out / STDLIB_ZIP).write_bytes(in_pyodide("stdlib-zip.mjs", asked, runs=["stdlib_zip.py"]))


def write_archives(out: Path, modules: list[Path], extra_rulesets: Sequence[str] = ()) -> int:
    """Write ``hexcombat.tar.bz2`` (the engine), ``web.tar.bz2`` (the page's modules but
    ``web/main.py``), both of ``.pyc`` files (``compiled``), ``LATER_ARCHIVE`` (what
    ``later_names`` lists, from both, as sources: bzip2, a quarter smaller than gzip) and the
    standard library the start imports (``write_stdlib_zip``); return the number of engine
    files."""
    engine_on_path()
    from web.pyscript_files import archived, pyscript_at_start, pyscript_sources

    engine = {rel.as_posix(): (ROOT / rel).read_bytes() for rel in engine_files()}
    engine.update(extra_files(extra_rulesets))
    engine[VERSION_FILE] = stamped_version(engine)
    page = {
        f"web/{rel.as_posix()}": (WEB / rel).read_bytes()
        for rel in modules
        if rel.as_posix() != "main.py"
    }
    page.update(pyscript_at_start())
    later = later_names()
    starts = {
        name: {k: v for k, v in entries.items() if not k.startswith(later)}
        for name, entries in ((ENGINE_ARCHIVE, engine), (PAGE_ARCHIVE, page))
    }
    start_entries = {k: v for start in starts.values() for k, v in start.items()}
    made = compiled(start_entries)
    for name, start in starts.items():
        names = {f"{k}c" if k.endswith(".py") else k for k in start}
        entries = {archived(k, made.tag): v for k, v in made.code.items() if k in names}
        if name == PAGE_ARCHIVE:
            entries[DATACLASS_CODE] = made.dataclasses
        write_tbz(out / name, entries)
    write_tbz(
        out / LATER_ARCHIVE,
        {k: v for k, v in {**engine, **page}.items() if k.startswith(later)},
    )
    runs = {**engine, **page, **pyscript_sources()}
    write_stdlib_zip(out, made.stdlib, {k: v for k, v in runs.items() if k.endswith(".py")})
    return len(engine)


def stamped_version(engine: dict[str, bytes]) -> bytes:
    """``hexcombat/version.py`` with ``BUILD_DIGEST`` set to the digest of the engine's Python
    files, the same the checkout works out (``engine_digest``): the page ships no sources to
    work it out from (bytecode), and a library entry's seal must name the code that checked
    it, whether the app or the library in CPython made it."""
    from hexcombat.version import engine_digest

    source = engine[VERSION_FILE].decode("utf-8")
    if '\nBUILD_DIGEST = ""\n' not in source:
        fail(f"{VERSION_FILE} has no BUILD_DIGEST line to stamp")
    stamp = f'\nBUILD_DIGEST = "{engine_digest()}"\n'
    return source.replace('\nBUILD_DIGEST = ""\n', stamp).encode()


def copy_vendor(out: Path) -> None:
    """Copy the Pyodide runtime files, PyScript's dist folder (no source maps) and jsQR's one
    file, gzipped (the QR decoder, loaded only when a device scans a pairing code)."""
    engine_on_path()
    from web.pyscript_files import DIST as pyscript

    pyodide = NODE_MODULES / "pyodide"
    if not pyodide.is_dir() or not pyscript.is_dir():
        fail("web/node_modules is missing or incomplete: run `npm ci` in web/ first")
    target = out / "vendor" / "pyodide"
    target.mkdir(parents=True)
    for name in PYODIDE_FILES:
        source = pyodide / name
        if not source.is_file():
            fail(f"{source} is missing from the pyodide npm package")
        shutil.copy2(source, target / name)
    shutil.copytree(pyscript, out / "vendor" / "pyscript", ignore=shutil.ignore_patterns("*.map"))
    jsqr = NODE_MODULES / "jsqr"
    if not (jsqr / "dist" / "jsQR.js").is_file():
        fail("web/node_modules/jsqr is missing: run `npm ci` in web/ first")
    (out / "vendor" / "jsqr").mkdir()
    shutil.copy2(jsqr / "LICENSE", out / "vendor" / "jsqr" / "LICENSE")
    # the QR decoder a joining device may load, gzipped: the offline copy keeps it (so every
    # first visit downloads it), and a fifth of its bytes is enough (web/table/scan.py)
    decoder = (jsqr / "dist" / "jsQR.js").read_bytes()
    (out / JSQR_FILE).write_bytes(gzip.compress(decoder, 9, mtime=0))


def write_config(out: Path) -> None:
    """Write ``pyscript.json`` (the source config, checked).

    ``web/main.py`` is the script PyScript runs; every other ``web/`` module is in
    ``web.tar.bz2`` (entries ``web/...``), which ``python-start.mjs`` unpacks into the home
    folder, on ``sys.path``, so ``from web import boot`` works there as it does under CPython
    from the repository root. One compressed archive instead of a request per module.
    """
    config = json.loads((WEB / "pyscript.json").read_text(encoding="utf-8"))
    if "packages" in config or "files" in config:
        fail("web/pyscript.json: no `packages` (no micropip), no `files` (see python-start.mjs)")
    (out / "pyscript.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def write_share_picture(out: Path) -> None:
    """Write ``share-picture.js`` (the share link's board before Python) from
    ``web/share-picture.js``: the viewer's frame (``web/share/bar.py``), each built-in
    ruleset's terrain as the engine draws it (``web/board_picture.py``) and the document
    format it reads."""
    engine_on_path()
    from hexcombat.document import FORMAT, MAX_BOARD, VERSION
    from web.board.units import TOUCH_FIT_PX
    from web.board_picture import terrain_looks
    from web.share.bar import BAR

    source = (WEB / "share-picture.js").read_text(encoding="utf-8")
    for name, value in (
        ("__VIEWER_BAR__", json.dumps(BAR)),
        ("__TERRAIN__", json.dumps(terrain_looks(), separators=(",", ":"))),
        ("__FORMAT__", FORMAT),
        ("__VERSION__", str(VERSION)),
        ("__MAX_BOARD__", str(MAX_BOARD)),
        ("__TOUCH_FIT_PX__", f"{TOUCH_FIT_PX:g}"),
    ):
        source = source.replace(name, value)
    (out / "share-picture.js").write_text(lean_script(source), encoding="utf-8")


def snapshot_key(out: Path) -> str:
    """The key of the Python start-up snapshot a browser keeps for this build: a hash of the
    engine's archives, the standard library, the worker that imports them and the Pyodide
    version."""
    from web.stdlib_zip import STDLIB_ZIP

    pyodide = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text(encoding="utf-8"))
    digest = hashlib.sha256((out / ENGINE_ARCHIVE).read_bytes())
    digest.update((out / LATER_ARCHIVE).read_bytes())
    digest.update((out / STDLIB_ZIP).read_bytes())
    digest.update((WEB / "python-snapshot.mjs").read_bytes())
    digest.update(str(pyodide["version"]).encode())
    return digest.hexdigest()[:16]


def write_python_start(out: Path) -> None:
    """Write ``python-start.mjs``, its worker ``bunzip2.mjs``, the engine's worker
    ``engine-worker.mjs`` and ``python-snapshot.mjs`` (the Python start-up snapshot, kept
    under ``snapshot_key``: a browser starts only from the one its build made), with
    Pyodide's lock file emptied of packages (the app loads none; ``vendor/pyodide/`` keeps
    the whole file for a page that does)."""
    start = (WEB / "python-start.mjs").read_text(encoding="utf-8")
    start = start.replace("__SNAPSHOT_KEY__", snapshot_key(out))
    lock = json.loads((NODE_MODULES / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    start = start.replace("__PYODIDE_LOCK__", json.dumps({"info": lock["info"], "packages": {}}))
    (out / "python-start.mjs").write_text(lean_script(start), encoding="utf-8")
    shutil.copy2(WEB / "python-snapshot.mjs", out / "python-snapshot.mjs")
    for worker in ("bunzip2.mjs", "engine-worker.mjs"):
        source = (WEB / worker).read_text(encoding="utf-8")
        (out / worker).write_text(lean_script(source), encoding="utf-8")


KEPT_VENDOR = ("jsQR.js.gz",)
"""Vendored files the offline copy keeps though a start does not fetch them."""


def write_service_worker(out: Path) -> int:
    """Write ``sw.js`` from ``web/sw.js``: the app's own files, and a version hash of every file.

    The hash changes with any file, so a new build replaces the cached app as a whole.
    The worker precaches only the app's own small files (page, styles, demos, engine,
    page modules) and the QR decoder (``KEPT_VENDOR``: a device scans offline, at a table
    with no internet, though the page loads it only then); the vendored runtime is kept as
    the page fetches it (see ``web/sw.js``), so the 9.6 MB WebAssembly file is not
    downloaded twice and PyScript's chunks the app never loads (terminal, editor) not at
    all. Returns the number of files it precaches.
    """
    files = sorted(p for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(out).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    own = [p for p in files if p.relative_to(out).parts[0] != "vendor" or p.name in KEPT_VENDOR]
    urls = [f"./{p.relative_to(out).as_posix()}" for p in own]  # the page as ./index.html
    source = (WEB / "sw.js").read_text(encoding="utf-8")
    source = source.replace("__VERSION__", digest.hexdigest()[:16])
    source = source.replace("__SNAPSHOT_KEY__", snapshot_key(out))
    source = source.replace("__FILES__", json.dumps(urls, separators=(",", ":")))
    (out / "sw.js").write_text(lean_script(source), encoding="utf-8")
    return len(urls)


def folder_size(path: Path) -> tuple[int, int]:
    """Return (total bytes, file count) of a folder."""
    files = [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def build(out: Path, extra_rulesets: Sequence[str] = ()) -> None:
    """Build the site into ``out`` (replacing it); ``extra_rulesets`` are for test builds."""
    out = out.resolve()
    if out == ROOT or ROOT.is_relative_to(out):
        fail(f"refusing to replace {out}")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    (out / "index.html").write_text(page_html(), encoding="utf-8")
    shutil.copytree(ROOT / "static", out / "static")
    for sheet in (out / "static").glob("*.css"):  # (the first visit loads app.css before ready)
        sheet.write_text(lean_style(sheet.read_text(encoding="utf-8")), encoding="utf-8")
    modules = page_modules()
    (out / "web").mkdir()
    (out / "web" / "main.py").write_bytes(lean_source((WEB / "main.py").read_bytes()))
    write_config(out)
    engine_count = write_archives(out, modules, extra_rulesets)
    copy_vendor(out)
    write_python_start(out)
    write_share_picture(out)
    cached = write_service_worker(out)

    size, count = folder_size(out)
    where = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    engine_kb = (out / ENGINE_ARCHIVE).stat().st_size // 1000
    print(
        f"build: {where}/ ready: {count} files, {size / 1_000_000:.1f} MB "
        f"(engine: {engine_count} files, {engine_kb} kB packed; page modules: {len(modules)}; "
        f"offline cache: {cached} URLs)"
    )


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, build the site and optionally serve it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument(
        "--zip", action="store_true", help="also write hexcombat-site-VERSION.zip beside it"
    )
    parser.add_argument("--serve", action="store_true", help="serve the folder after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000)")
    parser.add_argument(
        "--extra-ruleset",
        action="append",
        default=[],
        metavar="DIR:CLASS",
        help="also ship the package DIR and register its ruleset CLASS (test builds only)",
    )
    args = parser.parse_args(argv)
    build(args.out, args.extra_ruleset)
    if args.zip:
        import hexcombat
        from web.release import write_site_zip

        made = write_site_zip(args.out, args.out.parent, hexcombat.__version__)
        print(f"build: {made} ({made.stat().st_size / 1_000_000:.1f} MB)")
    if args.serve:
        from web.site_server import make_server

        server = make_server(args.out, args.port)
        print(f"serving {args.out} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("stopped")
        finally:
            server.server_close()


if __name__ == "__main__":
    main()
