"""The built page's Content-Security-Policy: the meta tag web/build.py adds, the header
web/site_server.py sends."""

from __future__ import annotations

import base64
import hashlib
import re
import threading
import urllib.request
from pathlib import Path

from web import site_server

ROOT = Path(__file__).resolve().parents[2]

PAGE = (ROOT / "web" / "index.html").read_text(encoding="utf-8")


def test_the_policy_names_the_start_up_script_by_its_exact_hash() -> None:
    """The one inline script's sha256 is in script-src; nothing inline runs without it."""
    body = re.search(r"<script>(.*?)</script>", PAGE, re.DOTALL)
    assert body is not None
    digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
    policy = site_server.content_security_policy(PAGE)
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    assert script_src == f"script-src 'self' 'sha256-{digest}' 'wasm-unsafe-eval' 'unsafe-eval'"
    assert "unsafe-inline" not in script_src
    assert "default-src 'none'" in policy
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    assert [k for k, v in directives.items() if "blob:" in v] == ["img-src"]  # the PNG export
    assert "data:" not in policy and "*" not in policy


def test_the_meta_tag_comes_before_any_script() -> None:
    """A meta policy covers only what follows it, so it sits right after <meta charset>."""
    page = site_server.with_csp_meta(PAGE)
    meta = page.index('http-equiv="Content-Security-Policy"')
    assert meta < page.index("<script")
    assert meta > page.index("<meta charset")


def test_the_server_sends_the_pages_policy_as_a_header(tmp_path: Path) -> None:
    """web/serve's handler sends the policy of the folder's index.html with every file."""
    (tmp_path / "index.html").write_text(site_server.with_csp_meta(PAGE), encoding="utf-8")
    (tmp_path / "app.js").write_text("", encoding="utf-8")
    server = site_server.make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        for path in ("", "app.js"):
            with urllib.request.urlopen(base + path) as response:
                sent = response.headers["Content-Security-Policy"]
                assert sent == site_server.page_policy(tmp_path)
    finally:
        server.shutdown()
        server.server_close()
