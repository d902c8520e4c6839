"""The switches the browser tests launch Chromium with.

A page start is most of a browser test's CPU (3.7 s of it here, measured per process from
/proc: the page's renderer 2.2-2.4 s, a second renderer 0.45 s, the browser process 0.45 s).
Two switches take 1.6 s of it away without touching what the page does:

- V8 compiles WebAssembly with its baseline compiler only (``--liftoff-only``): no
  optimising tier-up of the runtime's hot functions (renderer 2.3 -> 1.3 s). The same
  program runs, a little slower; the tests check behaviour, and the benchmarks
  (tests/benchmarks) keep V8's defaults.
- No WebUI omnibox popup: the headless browser made one for each context's window, in a
  renderer of its own (0.45 s), though no test sees the address bar.

``--disable-features`` given twice keeps only the last, so ours repeats Playwright's own list
(read from the driver it ships); where that list cannot be read the switch is left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import playwright

COMMON = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""The switches of every Chromium the tests and the benchmarks (tests/benchmarks) launch."""
BASELINE_WASM = "--js-flags=--liftoff-only"
NOT_NEEDED = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
PLAYWRIGHT_SWITCHES = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
DISABLED_LIST = re.compile(r"disabledFeatures = \[(?P<body>.*?)\]\.filter", re.DOTALL)
FEATURE = re.compile(r'^\s*"(\w+)",?\s*$', re.MULTILINE)


def playwright_disabled_features(source: Path = PLAYWRIGHT_SWITCHES) -> list[str]:
    """The features Playwright's driver disables for Chromium ([] when it cannot be read)."""
    try:
        found = DISABLED_LIST.search(source.read_text(encoding="utf-8"))
    except OSError:
        return []
    return FEATURE.findall(found.group("body")) if found else []


def chromium_args() -> list[str]:
    """The browser tests' switches: ``COMMON``, baseline WebAssembly, and Playwright's
    disabled features with ours."""
    theirs = playwright_disabled_features()
    if not theirs:
        return [*COMMON, BASELINE_WASM]
    return [*COMMON, BASELINE_WASM, "--disable-features=" + ",".join([*theirs, *NOT_NEEDED])]


CHROMIUM_ARGS = chromium_args()
