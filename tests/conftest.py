"""Settings shared by every test run (CPython and Pyodide alike). Keep this small."""

from __future__ import annotations

import sys

from hypothesis import settings

# Pyodide runs the same tests several times slower than CPython: per-example
# deadlines there would only measure the machine.
settings.register_profile("pyodide", deadline=None)
if sys.platform == "emscripten":
    settings.load_profile("pyodide")
