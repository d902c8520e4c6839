"""A library entry's seal names the engine's code: a seal made by other code, a
rules fix included, is never trusted (``hexcombat.version.engine_digest``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from hexcombat import version

ROOT = Path(__file__).resolve().parents[1]


def test_the_digest_changes_with_any_engine_file_and_not_otherwise() -> None:
    files = [("a.py", b"x = 1\n"), ("rulesets/b.py", b"y = 2\n")]
    same = version.files_digest(list(reversed(files)))
    assert version.files_digest(files) == same
    assert version.files_digest([files[0], ("rulesets/b.py", b"y = 3\n")]) != same
    assert version.files_digest([*files, ("c.py", b"")]) != same


def test_a_checkout_works_out_the_digest_of_its_own_files() -> None:
    package = ROOT / "hexcombat"
    files = [
        (path.relative_to(package).as_posix(), path.read_bytes())
        for path in package.rglob("*.py")
        if "__pycache__" not in path.parts and path.name != "version.py"
    ]
    assert version.BUILD_DIGEST == ""
    assert version.engine_digest() == version.files_digest(files)


def test_the_build_stamps_the_shipped_engine_with_the_checkouts_digest() -> None:
    """The page (bytecode, no sources) and the library in CPython name the same code alike,
    so a seal made by either is recognised by the other."""
    spec = importlib.util.spec_from_file_location("site_build", ROOT / "web" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    engine = {"hexcombat/version.py": (ROOT / "hexcombat" / "version.py").read_bytes()}
    stamped = build.stamped_version(engine).decode()
    assert f'BUILD_DIGEST = "{version.engine_digest()}"' in stamped
    namespace: dict[str, object] = {}
    exec(compile(stamped, "version.py", "exec"), namespace)
    assert namespace["engine_digest"]() == version.engine_digest()  # type: ignore[operator]
