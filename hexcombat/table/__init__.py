"""A table of devices with no server: a host whose encounter is the truth, joined devices that
replay its log entries, seats, and hidden choices sent sealed until the reveal.

Everything here is plain JSON text in and out; the page carries it over a data channel.
"""

from __future__ import annotations

from hexcombat.table.device import Device, apply_entry
from hexcombat.table.host import Host, Outgoing
from hexcombat.table.messages import PROTOCOL, ProtocolError, seal_digest
from hexcombat.table.seats import Seats, is_hidden_choice, turn_view

__all__ = [
    "PROTOCOL",
    "Device",
    "Host",
    "Outgoing",
    "ProtocolError",
    "Seats",
    "apply_entry",
    "is_hidden_choice",
    "seal_digest",
    "turn_view",
]
