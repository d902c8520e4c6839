"""``python -m hexcombat``: the command-line interface."""

from __future__ import annotations

import sys

from hexcombat.cli import main

sys.exit(main())
