"""What web/build.py ships: lean Python (``lean_source``: the same program, every line where
it was, without comments or docstrings), lean scripts, the start's archives, PyScript's
plugins and the Python start-up snapshot's key."""

from __future__ import annotations

import ast
import functools
import io
import json
import re
import shutil
import subprocess
import tarfile
import tokenize
from pathlib import Path
from types import CodeType

import pytest
from built_site import fresh_site

from hexcombat.version import engine_digest
from web import build, pyscript_files, site_server
from web.stdlib_zip import STDLIB_ZIP

ROOT = Path(__file__).resolve().parents[2]

SHIPPED = [ROOT / rel for rel in build.engine_files() if rel.suffix == ".py"] + [
    build.WEB / rel for rel in build.page_modules()
]


@functools.cache
def lean_of(path: Path) -> tuple[bytes, bytes]:
    """A shipped module's source and its lean source (made once per test process)."""
    source = path.read_bytes()
    return source, build.lean_source(source)


def program(code: CodeType) -> tuple[object, ...]:
    """What a code object runs and the line of each instruction, nested code too (columns
    left out: an emptied docstring ends in another column)."""
    consts = tuple(program(c) if isinstance(c, CodeType) else c for c in code.co_consts)
    lines = tuple(code.co_lines())
    return code.co_name, code.co_firstlineno, code.co_code, code.co_names, consts, lines


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_shipped_module_is_the_same_program_line_for_line(path: Path) -> None:
    source, lean = lean_of(path)
    # The same program once docstrings are dropped (optimize=2): the same bytecode, names and
    # constants, every function where it was and every instruction on its line, so a
    # traceback's line numbers point into the repository's file.
    top_await = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # web/main.py awaits at its top level
    lean_code, code = (
        compile(text, path.name, "exec", flags=top_await, optimize=2) for text in (lean, source)
    )
    assert program(lean_code) == program(code)
    assert lean.count(b"\n") == source.count(b"\n")
    tokens = tokenize.generate_tokens(io.StringIO(lean.decode()).readline)
    assert not [t for t in tokens if t.type == tokenize.COMMENT]


def test_the_shipped_sources_are_a_good_deal_smaller() -> None:
    before = sum(len(lean_of(p)[0]) for p in SHIPPED)
    after = sum(len(lean_of(p)[1]) for p in SHIPPED)
    assert after < 0.85 * before, (before, after)


@pytest.fixture(scope="module")
def site() -> Path:
    """This checkout's dist/site (tests/run builds it before pytest; rebuilt when stale)."""
    return fresh_site(build.build)


def test_the_worker_keeps_this_builds_python_snapshot_and_deletes_the_others(
    site: Path, tmp_path: Path
) -> None:
    """Sw.js names the same snapshot cache python-start.mjs reads; the engine's archives and
    the standard library (a snapshot holds what it imported) key it."""
    key = build.snapshot_key(site)
    assert f'"hexcombat-python-{key}"' in (site / "python-start.mjs").read_text()
    assert f'"hexcombat-python-{key}"' in (site / "sw.js").read_text()
    for name in (build.LATER_ARCHIVE, STDLIB_ZIP):
        changed = tmp_path / name / "site"
        changed.mkdir(parents=True)
        for kept in (build.ENGINE_ARCHIVE, build.LATER_ARCHIVE, STDLIB_ZIP):
            shutil.copy(site / kept, changed)
        (changed / name).write_bytes((site / name).read_bytes() + b"\0")
        assert build.snapshot_key(changed) != key, name


def test_the_start_archives_are_bzip2_tars_of_bytecode_that_python_start_unpacks(
    site: Path, tmp_path: Path
) -> None:
    """Hexcombat.tar.bz2 and web.tar.bz2: one bzip2 stream each of the start's
    modules as .pyc (the other files as they are), the same bytes every build (dist/site and
    a build made now), and later.tar.bz2 one of the other modules as sources; PyScript's
    config fetches none of them (python-start.mjs does, and the offline copy keeps them)."""
    build.write_archives(tmp_path, build.page_modules())  # the archives of a build made now
    later = build.later_names()
    engine = [rel.as_posix() for rel in build.engine_files()]
    digest = engine_digest()  # the checkout's, so seals made in CPython or the page agree
    sources = set(engine) | {
        f"web/{rel.as_posix()}" for rel in build.page_modules() if rel.as_posix() != "main.py"
    }
    for name, root in ((build.ENGINE_ARCHIVE, "hexcombat/"), (build.PAGE_ARCHIVE, "web/")):
        archive = site / name
        assert archive.read_bytes() == (tmp_path / name).read_bytes()
        with tarfile.open(archive, "r:bz2") as tar:
            members = {m.name: tar.extractfile(m).read() for m in tar}  # type: ignore[union-attr]
        expected = {k for k in sources if k.startswith(root) and not k.startswith(later)}
        cached = {}
        if name == build.PAGE_ARCHIVE:  # and PyScript's modules, as the cached bytecode of
            expected |= {build.DATACLASS_CODE}  # the sources PyScript writes
            cached = {
                pyscript_files.archived(f"{k}c", "cpython-314"): k
                for k in pyscript_files.pyscript_at_start()
            }
        assert set(members) == {f"{k}c" if k.endswith(".py") else k for k in expected} | set(cached)
        for key, data in members.items():
            if key == f"{build.VERSION_FILE}c":  # stamped with the shipped engine's digest
                assert digest.encode() in data
            if key in cached:
                assert f"/home/pyodide/{cached[key]}".encode() in data, key
            elif key.endswith(".pyc"):
                assert f"/home/pyodide/{key[:-1]}".encode() in data, key
            elif key != build.DATACLASS_CODE:  # (its own test below)
                assert data == build.shipped(key, (build.ROOT / key).read_bytes()), key
    for name in (build.LATER_ARCHIVE, STDLIB_ZIP):
        assert (site / name).read_bytes() == (tmp_path / name).read_bytes(), name
    with tarfile.open(site / build.LATER_ARCHIVE, "r:bz2") as tar:  # the rest, as sources
        assert {m.name for m in tar} == {k for k in sources if k.startswith(later)}
    assert "files" not in json.loads((site / "pyscript.json").read_text(encoding="utf-8"))
    start = (site / "python-start.mjs").read_text(encoding="utf-8")
    listed = re.search(r"START_ARCHIVES=(\[[^\]]*\])", start.replace(" ", ""))
    assert listed is not None
    assert json.loads(listed[1]) == [build.ENGINE_ARCHIVE, build.PAGE_ARCHIVE]
    worker = (site / "sw.js").read_text(encoding="utf-8")
    page = (site / "index.html").read_text(encoding="utf-8")
    for name in (build.ENGINE_ARCHIVE, build.PAGE_ARCHIVE):
        assert f'"./{name}"' in worker  # precached, and the page's fetch is the same URL
        # fetched by the worker the start-up controller makes (a preload would be a second
        # download: the page's preload cache is not the worker's)
        assert f'href="./{name}"' not in page
    assert 'new Worker("./bunzip2.mjs", { type: "module" })' in page


def test_the_shipped_scripts_lose_only_their_comments_and_indentation() -> None:
    page = (build.WEB / "index.html").read_text(encoding="utf-8")
    source = site_server.INLINE_SCRIPT.search(page)
    assert source is not None
    lean = site_server.INLINE_SCRIPT.search(build.lean_page(page))
    assert lean is not None and "<!--" not in build.lean_page(page)
    kept = [line.strip() for line in source["body"].splitlines()]
    assert lean["body"].splitlines()[1:] == [s for s in kept if s and not s.startswith("//")]
    assert len(lean["body"]) < 0.8 * len(source["body"])


def test_the_scripts_before_python_fit_for_fingers_at_the_camera_s_size(site: Path) -> None:
    """The first-visit and share-link pictures decide as the live board's fit() does, with
    its one TOUCH_FIT_PX (web/board/units.py), written in by the build."""
    from web.board.units import TOUCH_FIT_PX

    for name in ("index.html", "share-picture.js"):
        shipped = (site / name).read_text(encoding="utf-8")
        assert "__TOUCH_FIT_PX__" not in shipped
        assert re.findall(r"TOUCH_FIT_PX\s*=\s*([\d.]+)", shipped) == [f"{TOUCH_FIT_PX:g}"]


def test_pyscript_loads_no_plugin_the_app_does_not_use_for_either_interpreter() -> None:
    """Pyscript.json excludes PyScript's editor, terminal and game plugins for Python, and the
    page's <mpy-config> the same for MicroPython (PyScript loads them for each otherwise)."""
    config = json.loads((build.WEB / "pyscript.json").read_text(encoding="utf-8"))
    page = (build.WEB / "index.html").read_text(encoding="utf-8")
    micropython = re.search(r"<mpy-config hidden>(.*?)</mpy-config>", page)
    assert micropython is not None
    assert json.loads(micropython[1])["plugins"] == config["plugins"]
    assert "!py-editor" in config["plugins"] and "!error" not in config["plugins"]


def test_the_table_of_devices_waits_in_later_zip_and_the_offline_copy_keeps_the_qr_decoder(
    tmp_path: Path,
) -> None:
    """The table's modules are not in the start's zips (only its command names,
    which the app registers at start), and jsQR is kept for a device that scans offline."""
    later = build.later_names()
    table = sorted(f"web/table/{p.name}" for p in (build.WEB / "table").glob("*.py"))
    assert [m for m in table if not m.startswith(later)] == ["web/table/__init__.py"]
    engine = [rel.as_posix() for rel in build.engine_files()]
    assert [m for m in engine if m.startswith("hexcombat/table/") and not m.startswith(later)] == []
    out = tmp_path / "site"
    for rel in (build.JSQR_FILE, "vendor/pyodide/pyodide.asm.wasm", "index.html"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(b"x")
    for name in (build.ENGINE_ARCHIVE, build.LATER_ARCHIVE, STDLIB_ZIP):
        (out / name).write_bytes(b"")
    build.write_service_worker(out)
    worker = (out / "sw.js").read_text(encoding="utf-8")
    assert '"./vendor/jsqr/jsQR.js.gz"' in worker and "pyodide.asm.wasm" not in worker


def test_the_start_ships_sourceless_unchecked_pyc_of_the_lean_modules(site: Path) -> None:
    """Each module of the start's archives becomes ``name.pyc``, compiled by the vendored
    Pyodide (its Python's magic number, never checked against a source: there is none), and
    every other file is shipped as it is (the archives of dist/site, as the page gets them)."""
    lock = json.loads((build.NODE_MODULES / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.14")
    pyc: dict[str, bytes] = {}
    for name in (build.ENGINE_ARCHIVE, build.PAGE_ARCHIVE):
        with tarfile.open(site / name, "r:bz2") as tar:
            members = {m.name: tar.extractfile(m).read() for m in tar}  # type: ignore[union-attr]
        assert not [key for key in members if key.endswith(".py")]  # sourceless
        pyc |= {key: data for key, data in members.items() if key.endswith(".pyc")}
    assert "hexcombat/__init__.pyc" in pyc and "web/app.pyc" in pyc
    magic = {data[:4] for data in pyc.values()}
    assert len(magic) == 1 and magic.pop()[2:] == b"\r\n"
    flags = {key: int.from_bytes(data[4:8], "little") for key, data in pyc.items()}
    assert set(flags.values()) == {0b01}  # hash-based, unchecked
    for key, data in pyc.items():  # tracebacks name the file (PyScript's, the source it writes)
        source = re.sub(r"__pycache__/(\w+)\.cpython-314\.pyc$", r"\1.py", key)
        assert f"/home/pyodide/{source if source != key else key[:-1]}".encode() in data, key


# Node runs the built python-start.mjs (which starts nothing outside a page) with its Pyodide.
UNPACK_AND_IMPORT = """
import { readFileSync } from "node:fs";
const site = process.argv[2];
const { loadPyodide } = await import(`${site}/vendor/pyodide/pyodide.mjs`);
const { unpackStart, START_ARCHIVES } = await import(`${site}/python-start.mjs`);
const pyodide = await loadPyodide({
  indexURL: `${site}/vendor/pyodide/`, stdLibURL: `${site}/python-stdlib.zip` });
const read = (name) => new Uint8Array(readFileSync(`${site}/${name}`)).buffer;
await unpackStart(pyodide, START_ARCHIVES.map((name) => ({ data: read(name) })));
process.stdout.write(pyodide.runPython(`
import dataclasses, fractions, json, sys, types
from hexcombat.geometry import Hex
from web.session import Change
from_source = sorted(name for name, module in sys.modules.items()
                     if (getattr(module.__spec__, "origin", None) or "").endswith(".py")
                     and module.__spec__.origin.startswith("/lib/python314.zip/"))
codes = dataclasses.exec.__globals__["codes"]  # what python-start.mjs loaded
made = list(codes.values())
for code in made: made.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
shipped = {id(c) for c in made}
import html  # as pyscript.display does
html_made = "html.entities" in sys.modules
import importlib.machinery  # PyScript writes its package's sources, then imports them
with open("/home/pyodide/pyscript/util.py", "w") as file: file.write("raise ImportError")
util = importlib.machinery.SourceFileLoader("pyscript.util", file.name).get_code("pyscript.util")
escaped = html.escape("<b>")
json.dumps({"hex": id(Hex.__lt__.__code__) in shipped, "hex_lt": Hex(1, 2) < Hex(1, 3),
            "session": id(Change.__init__.__code__) in shipped,
            "tarfile": "tarfile" in sys.modules, "fractions": fractions.__spec__.origin,
            "from_source": from_source,
            "third": str(fractions.Fraction(1, 3) + fractions.Fraction("1/6")),
            "html": [html_made, escaped, "html.entities" in sys.modules],
            "pyscript": ["as_bytearray" in util.co_names, util.co_filename]})
`));
"""


def test_the_start_unpacks_without_tarfile_and_its_dataclasses_run_the_shipped_code(
    site: Path, tmp_path: Path
) -> None:
    """Python-start.mjs unpacks the start's archives itself (Python's tarfile is not
    imported), and a dataclass the start creates, of the engine or of the page, gets the
    methods compiled at build time (``DATACLASS_CODE``) instead of compiling them again. The
    standard library's modules that Pyodide's start and the start's imports take come compiled
    from the app's zip (``web/stdlib_zip.py``), none from sources, and ``html`` (which
    PyScript's set-up imports) runs only when first used (``web/lazy_imports.py``: its table
    of entities took 50 ms). The sources
    of PyScript's package, which PyScript writes before it imports them, are not compiled:
    Python takes the bytecode shipped for them, whatever the source says."""
    (tmp_path / "check.mjs").write_text(UNPACK_AND_IMPORT, encoding="utf-8")
    done = subprocess.run(
        ["node", str(tmp_path / "check.mjs"), str(site)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == {
        "hex": True,
        "hex_lt": True,
        "session": True,
        "tarfile": False,
        "fractions": "/lib/python314.zip/fractions.pyc",
        "from_source": [],
        "third": "1/2",
        "html": [False, "&lt;b&gt;", True],
        "pyscript": [True, "/home/pyodide/pyscript/util.py"],  # the shipped code, not the source
    }


def test_the_page_preloads_the_runtime_and_what_pyscript_loads_before_python(site: Path) -> None:
    """The runtime's WebAssembly is requested with the page (python-start.mjs's
    request takes the preloaded response), and so are PyScript's main chunk and error plugin,
    which it asked for only once Python's start held the main thread."""
    page = (site / "index.html").read_text(encoding="utf-8")
    wasm = '<link rel="preload" href="./vendor/pyodide/pyodide.asm.wasm" as="fetch" crossorigin'
    assert wasm in page
    chunks = pyscript_files.pyscript_chunks()
    assert chunks[0].startswith("core-") and chunks[1].startswith("error-")
    for name in chunks:
        assert f'<link rel="modulepreload" href="./vendor/pyscript/{name}">' in page
        assert (site / "vendor" / "pyscript" / name).is_file()
    core = (site / "vendor" / "pyscript" / "core.js").read_text(encoding="utf-8")
    assert f'from"./{chunks[0]}"' in core


def test_pyscript_ships_compiled_the_modules_its_set_up_imports() -> None:
    """The modules of PyScript's package that ``import pyscript`` runs (seen in the
    page's ``sys.modules`` when web/main.py starts), read from the vendored PyScript as the
    sources it writes, and none it imports only inside a function (its DOM helpers)."""
    sources = pyscript_files.pyscript_at_start()
    modules = {k.removeprefix("pyscript/").removesuffix(".py") for k in sources}
    assert modules == {
        "__init__", "context", "display", "events", "fetch", "ffi", "flatted", "storage",
        "util", "websocket", "workers",
    }  # fmt: skip
    assert b"from pyscript.context import" in sources["pyscript/__init__.py"]


def test_a_shipped_style_sheet_keeps_every_rule() -> None:
    """Style sheets lose only comments and indentation (``lean_style``)."""
    for sheet in (build.ROOT / "static").glob("*.css"):
        css = sheet.read_text(encoding="utf-8")
        lean = build.lean_style(css)
        assert "/*" not in lean and len(lean) < len(css)
        without = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
        assert lean.split() == without.split(), sheet.name
