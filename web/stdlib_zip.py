"""Build step: the app's copy of Pyodide's standard library (``STDLIB_ZIP``).

Pyodide ships its standard library as sources in ``python_stdlib.zip`` and Python compiles
every module it imports from them, in the page, on every start: most of Python's own start
(issue 23). The app's copy has the modules a start imports (Pyodide's own start's, the
engine's and the page's, as ``web/compile-pyc.mjs`` finds them) as bytecode compiled at build
time by the vendored Pyodide (``web/stdlib-zip.mjs``), and leaves out ``DROPPED``, which nothing
in the page can import (the build checks it), to pay for the bytecode's bytes.
``python-start.mjs`` and ``python-snapshot.mjs`` start Pyodide with it; the vendored file stays
in ``vendor/pyodide/`` for any other page. Not shipped to the page.
"""

from __future__ import annotations

import json
from pathlib import Path

STDLIB_ZIP = "python-stdlib.zip"
"""The app's standard-library zip, at the top of the site."""
STDLIB_OPTIMIZE = 2
"""How its modules are compiled: as ``python -OO`` compiles them (no docstrings, no asserts).
The standard library is made to work so, and it is a fifth of the bytecode's bytes."""
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
``web/stdlib-zip.mjs`` fails the build if anything the page can run could import one."""


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
