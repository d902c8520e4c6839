"""``kit-duel``: a test-only ruleset that uses the whole engine interface together.

It follows docs/dev/adding-a-ruleset.md with test paths and the package
shape every ruleset has: options (``options.py``), typed bookkeeping (``state.py``), data
(``data.json``), calculators (``rules.py``), the class (``ruleset.py``); its tests are
``tests/test_kit_*.py`` and ``tests/browser/test_kit_ruleset.py``. It is never registered
in the app: tests register it for one test (``registered`` in
``tests/test_kit_ruleset.py``), and the browser test builds a second site with
``web/build.py --extra-ruleset tests/kit:KitDuel``. Standard library and engine imports
only, so it also runs in the browser.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: Any = json.loads(Path(__file__).with_name("data.json").read_text(encoding="utf-8"))

from kit.ruleset import KitDuel  # noqa: E402  (ruleset.py reads DATA)

__all__ = ["DATA", "KitDuel"]
