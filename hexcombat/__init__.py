"""hexcombat: a pure-Python rules engine for tactical combat on a hex map."""
