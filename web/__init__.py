"""Browser-side Python of the Hex Combat page (runs in Pyodide through PyScript).

``web/main.py`` is the PyScript entry; the other modules here are copied into the
browser's file system by ``web/build.py`` so that ``from web import ...`` works.
Only this package may touch the page (``js``); the engine in ``hexcombat/`` never does.
"""
