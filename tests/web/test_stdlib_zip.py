"""The app's standard library (issue 23, web/stdlib_zip.py): Pyodide's zip with the modules a
start imports as bytecode and nothing left out that the page could import."""

from __future__ import annotations

import json
import tarfile
import zipfile
from pathlib import Path

import pytest
from built_site import fresh_site

from web import build
from web.stdlib_zip import DROPPED, STDLIB_ZIP

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


def test_leaving_out_a_module_that_something_imports_fails_the_build(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The build refuses to leave out a module that a module the page may run imports."""
    request = {
        "zip": str(VENDORED),
        "compile": [],
        "drop": ["graphlib"],
        "optimize": 2,
        "roots": {"web/x.py": "def later():\n    from graphlib import TopologicalSorter\n"},
    }
    with pytest.raises(SystemExit):
        build.in_pyodide("stdlib-zip.mjs", json.dumps(request).encode("utf-8"))
    assert "graphlib (imported by web/x.py)" in capsys.readouterr().err
