"""PyScript entry point of the Hex Combat page: it runs the start-up (``web/start.py``).

PyScript compiles this file from source in the page, so it stays this short: the start-up
itself comes compiled with the app's other modules (``web/build.py``). PyScript runs it on
the page's main thread with top-level ``await``.
"""

from web.start import run

await run()  # type: ignore[top-level-await]  # noqa: F704 -- PyScript runs it asynchronously
