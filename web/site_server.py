"""How the built site is served: its MIME types, the page's Content-Security-Policy (the meta
tag ``web/build.py`` writes into ``index.html`` and the header sent with every file) and a
static server for a site folder (``web/build.py --serve``, ``web/serve`` and the tests).

Standard library only; not shipped to the page.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import os
import re
from pathlib import Path

MIME_TYPES = {
    ".js": "application/javascript",
    ".mjs": "application/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".tgz": "application/gzip",  # never with a Content-Encoding: the page unpacks it
    ".bz2": "application/x-bzip2",  # (the same)
    ".py": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}

# Content-Security-Policy of the built page (a meta tag in index.html, and the header
# SiteHandler and web/serve send). Only what the app needs: its own files; the start-up
# controller's inline script by its hash; WebAssembly ('wasm-unsafe-eval'); 'unsafe-eval'
# because PyScript builds functions from text (new Function) and Pyodide's loader runs
# eval(); no inline handlers, no blob: or data: scripts (blob: images only, for the PNG
# export), no other origin. Styles come from
# the site's files; only inline style *attributes* are allowed (token colours and
# transforms in the markup the page's Python writes), never <style> elements.
CSP_DIRECTIVES = (
    ("default-src", "'none'"),
    ("script-src", "'self' {script_hashes} 'wasm-unsafe-eval' 'unsafe-eval'"),
    ("style-src", "'self'"),
    ("style-src-attr", "'unsafe-inline'"),
    ("img-src", "'self' blob:"),  # the PNG export draws the board's SVG through a blob: image
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("manifest-src", "'self'"),
    ("worker-src", "'self'"),
    ("base-uri", "'none'"),
    ("form-action", "'none'"),
    ("object-src", "'none'"),
)
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.DOTALL)
CSP_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="(?P<policy>[^"]*)">')


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions ('sha256-...') for every inline classic script of a page.

    The hash covers the exact text between ``<script>`` and ``</script>``, as browsers
    compute it; ``src=`` scripts and non-JavaScript types (``type="py"``) are skipped.
    """
    found = []
    for match in INLINE_SCRIPT.finditer(html):
        attrs = match.group("attrs")
        if "src=" in attrs or ("type=" in attrs and 'type="module"' not in attrs):
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        found.append(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return found


def content_security_policy(html: str) -> str:
    """The page's Content-Security-Policy (``CSP_DIRECTIVES``) with its scripts' hashes."""
    hashes = " ".join(inline_script_hashes(html))
    return "; ".join(
        f"{name} {value.format(script_hashes=hashes)}".replace("  ", " ")
        for name, value in CSP_DIRECTIVES
    )


def with_csp_meta(html: str) -> str:
    """``html`` with its Content-Security-Policy meta tag right after ``<meta charset>``.

    A meta policy applies only to what follows it, so it must come before any script.
    """
    if CSP_META.search(html):
        raise SystemExit(
            "build: error: web/index.html already has a Content-Security-Policy meta tag; "
            "the build adds it"
        )
    charset = re.search(r"<meta charset=[^>]*>", html)
    if charset is None:
        raise SystemExit("build: error: web/index.html needs <meta charset> first in <head>")
    tag = (
        f'\n  <meta http-equiv="Content-Security-Policy" content="{content_security_policy(html)}">'
    )
    return html[: charset.end()] + tag + html[charset.end() :]


def page_policy(folder: Path) -> str | None:
    """The Content-Security-Policy in ``folder/index.html``'s meta tag (None without one)."""
    try:
        html = (folder / "index.html").read_text(encoding="utf-8")
    except OSError:
        return None
    match = CSP_META.search(html)
    return match.group("policy") if match else None


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static file handler with the MIME types Pyodide and PyScript need.

    ES modules must come as JavaScript and WebAssembly as ``application/wasm``
    (for streaming compilation); ``no-cache`` makes browsers revalidate, so a
    rebuild is seen on the next reload. Every response carries the page's
    Content-Security-Policy (the one in the served ``index.html``'s meta tag) as a
    header too, as a static host should send it.
    """

    quiet = False
    policy: str | None = None

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """Return the MIME type for ``path``, preferring ``MIME_TYPES``."""
        return MIME_TYPES.get(Path(path).suffix.lower()) or super().guess_type(path)

    def end_headers(self) -> None:
        """Add the cache header to every response."""
        self.send_header("Cache-Control", "no-cache")
        if self.policy:
            self.send_header("Content-Security-Policy", self.policy)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Log requests unless the handler is quiet (tests)."""
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    folder: Path, port: int, *, quiet: bool = False, policy: str | None = None
) -> http.server.ThreadingHTTPServer:
    """Return an HTTP server for ``folder`` on 127.0.0.1 (port 0 picks a free port).

    The policy header is ``policy``, or the one in ``folder/index.html`` (read once, here).
    """
    chosen = page_policy(folder) if policy is None else policy
    handler = functools.partial(
        type("Handler", (SiteHandler,), {"quiet": quiet, "policy": chosen or None}),
        directory=str(folder),
    )
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
