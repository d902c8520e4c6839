"""Each ruleset's demo file (``static/demos/<ruleset>.json``), built by its fixtures module:
the played example rewound to its start, with notes, written as the app reads it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hexcombat import Encounter
from hexcombat.document import to_document


def rewound(enc: Encounter, notes: str) -> Encounter:
    """``enc`` with its whole log kept and the cursor at the start (redo steps through it)."""
    while enc.can_undo:
        enc.undo()
    return enc.with_setup(notes=notes)


def text(enc: Encounter) -> str:
    """The demo document as written to its file."""
    return json.dumps(to_document(enc), ensure_ascii=False, indent=1) + "\n"


def write(path: Path, enc: Encounter) -> None:
    """Rewrite the demo file (run a fixtures module as a script)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text(enc), encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")
