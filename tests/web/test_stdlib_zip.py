"""The app's standard library (web/stdlib_zip.py): Pyodide's zip with the modules a
start imports as bytecode and nothing left out that the page could import."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile
from pathlib import Path

import pytest
from built_site import fresh_site

from web import build
from web.stdlib_zip import DROPPED, STDLIB_ZIP, StdlibZipError, made_zip

VENDORED = build.NODE_MODULES / "pyodide" / "python_stdlib.zip"


@pytest.fixture(scope="module")
def site() -> Path:
    """This checkout's dist/site (tests/run builds it before pytest; rebuilt when stale)."""
    return fresh_site(build.build)


def module_of(entry: str) -> str:
    """The module a zip entry holds (``asyncio/__init__.pyc`` -> ``asyncio``)."""
    return entry.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")


def test_the_start_comes_compiled_and_only_modules_nothing_imports_are_left_out(
    site: Path,
) -> None:
    """Each module compiled by the vendored Pyodide (its magic number, unchecked: there is
    no source beside it), the start's modules among them; every module of ``DROPPED`` left
    out; every other entry as Pyodide ships it. The zip is smaller than Pyodide's."""
    with zipfile.ZipFile(VENDORED) as vendored, zipfile.ZipFile(site / STDLIB_ZIP) as ours:
        theirs = {name: vendored.read(name) for name in vendored.namelist()}
        made = {name: ours.read(name) for name in ours.namelist()}
    compiled = {name: data for name, data in made.items() if name.endswith(".pyc")}
    for wanted in ("encodings/__init__.pyc", "encodings/utf_8.pyc", "asyncio/__init__.pyc"):
        assert wanted in compiled  # Pyodide's own start
    for wanted in ("dataclasses.pyc", "fractions.pyc", "json/__init__.pyc", "typing.pyc"):
        assert wanted in compiled  # the engine's and the page's
    with tarfile.open(site / build.ENGINE_ARCHIVE, "r:bz2") as tar:
        engine_magic = tar.extractfile("hexcombat/__init__.pyc").read()[:4]  # type: ignore[union-attr]
    assert {data[:4] for data in compiled.values()} == {engine_magic}
    assert {int.from_bytes(data[4:8], "little") for data in compiled.values()} == {0b01}
    for name in compiled:
        assert name[:-1] in theirs and name[:-1] not in made  # sourceless
        assert f"/lib/python314.zip/{name[:-1]}".encode() in compiled[name]  # tracebacks
    left_out = {name for name in theirs if f"{name}c" not in made and name not in made}
    assert left_out
    for name in left_out:
        module = module_of(name)
        assert any(module == d or module.startswith(f"{d}.") for d in DROPPED), name
    for name, data in made.items():
        if name not in compiled:
            assert theirs[name] == data, name
    assert (site / STDLIB_ZIP).stat().st_size < VENDORED.stat().st_size


def tiny_stdlib(sources: dict[str, str]) -> bytes:
    """A zip of ``sources`` by entry name, as Pyodide's holds its standard library."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as made:
        for name, source in sources.items():
            made.writestr(name, source)
    return out.getvalue()


STDLIB = {
    "graphlib.py": "import functools\n",
    "functools.py": "",
    "xml/__init__.py": "",
    "xml/dom/__init__.py": "from .minidom import parse\n",
    "xml/dom/minidom.py": "import importlib\nimportlib.import_module('graphlib')\n",
    "encodings/__init__.py": "",
}


@pytest.mark.parametrize(
    ("roots", "importer"),
    [
        ({"web/x.py": "def later():\n    from graphlib import TopologicalSorter\n"}, "web/x.py"),
        ({"web/y.py": "import xml.dom as dom\n"}, "xml.dom.minidom"),
        ({"hexcombat/z.py": "from .. import x\nimport xml.dom.minidom\n"}, "xml.dom.minidom"),
    ],
)
def test_leaving_out_a_module_that_something_imports_fails_the_build(
    roots: dict[str, str], importer: str
) -> None:
    """The zip is not made when a module to leave out is imported by a module the page may
    run, directly, inside a function, through another module or by a constant name."""
    with pytest.raises(StdlibZipError, match=rf"graphlib \(imported by {re.escape(importer)}\)"):
        made_zip(tiny_stdlib(STDLIB), [], ["graphlib"], 2, roots)


def test_only_what_nothing_imports_is_left_out() -> None:
    """A package left out goes with its modules; the rest stays as it was; a name that is
    not in the zip is refused."""
    roots = {"web/x.py": "import graphlib\n"}
    made = zipfile.ZipFile(io.BytesIO(made_zip(tiny_stdlib(STDLIB), [], ["xml.dom"], 2, roots)))
    left_out = {"xml/dom/__init__.py", "xml/dom/minidom.py"}
    assert sorted(made.namelist()) == sorted(set(STDLIB) - left_out)
    assert made.read("graphlib.py") == b"import functools\n"
    with pytest.raises(StdlibZipError, match="not in the standard library's zip: yaml"):
        made_zip(tiny_stdlib(STDLIB), [], ["yaml"], 2, roots)
