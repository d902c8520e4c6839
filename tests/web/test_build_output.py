"""What web/build.py ships: lean Python (``lean_source``: the same program, every line where
it was, without comments or docstrings) and the Python start-up snapshot's key."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from web import build

ROOT = Path(__file__).resolve().parents[2]

SHIPPED = [ROOT / rel for rel in build.engine_files() if rel.suffix == ".py"] + [
    build.WEB / rel for rel in build.page_modules()
]


def without_docstrings(tree: ast.AST) -> str:
    """The tree's dump with every docstring's text emptied (positions left out)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                first.value.value = ""
    return ast.dump(tree)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_shipped_module_is_the_same_program_line_for_line(path: Path) -> None:
    source = path.read_bytes()
    lean = build.lean_source(source)
    assert without_docstrings(ast.parse(lean)) == without_docstrings(ast.parse(source))
    assert lean.count(b"\n") == source.count(b"\n")
    original = {(n.name, n.lineno) for n in ast.walk(ast.parse(source)) if hasattr(n, "name")}
    kept = {(n.name, n.lineno) for n in ast.walk(ast.parse(lean)) if hasattr(n, "name")}
    assert kept == original  # a traceback's line numbers point into the repository's file
    tokens = tokenize.generate_tokens(io.StringIO(lean.decode()).readline)
    assert not [t for t in tokens if t.type == tokenize.COMMENT]


def test_the_shipped_sources_are_a_good_deal_smaller() -> None:
    before = sum(len(p.read_bytes()) for p in SHIPPED)
    after = sum(len(build.lean_source(p.read_bytes())) for p in SHIPPED)
    assert after < 0.85 * before, (before, after)


def test_the_worker_keeps_this_builds_python_snapshot_and_deletes_the_others(
    tmp_path: Path,
) -> None:
    """sw.js names the same snapshot cache python-start.mjs reads; the engine's zips key it."""
    build.build(tmp_path / "site")
    site = tmp_path / "site"
    key = build.snapshot_key(site)
    assert f'"hexcombat-python-{key}"' in (site / "python-start.mjs").read_text()
    assert f'"hexcombat-python-{key}"' in (site / "sw.js").read_text()
    (site / "later.zip").write_bytes((site / "later.zip").read_bytes() + b"\0")
    assert build.snapshot_key(site) != key


def test_the_table_of_devices_waits_in_later_zip_and_the_offline_copy_keeps_the_qr_decoder(
    tmp_path: Path,
) -> None:
    """Issue 26: the table's modules are not in the start's zips (only its command names,
    which the app registers at start), and jsQR is kept for a device that scans offline."""
    later = build.later_names()
    table = sorted(f"web/table/{p.name}" for p in (build.WEB / "table").glob("*.py"))
    assert [m for m in table if not m.startswith(later)] == ["web/table/__init__.py"]
    engine = [rel.as_posix() for rel in build.engine_files()]
    assert [m for m in engine if m.startswith("hexcombat/table/") and not m.startswith(later)] == []
    out = tmp_path / "site"
    for rel in ("vendor/jsqr/jsQR.js", "vendor/pyodide/pyodide.asm.wasm", "index.html"):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(b"x")
    for name in ("hexcombat.zip", "later.zip"):
        (out / name).write_bytes(b"")
    build.write_service_worker(out)
    worker = (out / "sw.js").read_text(encoding="utf-8")
    assert '"./vendor/jsqr/jsQR.js"' in worker and "pyodide.asm.wasm" not in worker
