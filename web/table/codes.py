"""The pairing texts (pure Python, no page): a WebRTC offer or answer (its SDP, host
candidates only) travels as one short text, ``HXO1.`` or ``HXA1.`` and the SDP compressed
and base64url-encoded, small enough for a QR code a phone camera reads. (Messages then
travel in frames: :mod:`hexcombat.table.frames`.)
"""

from __future__ import annotations

import base64
import binascii
import zlib

PREFIXES = {"offer": "HXO1.", "answer": "HXA1."}
MAX_CODE = 6000
MAX_SDP = 20_000


class PairingError(ValueError):
    """A pairing text that cannot be used, in words for the player."""


def pack(kind: str, sdp: str) -> str:
    """The pairing text of an ``offer`` or ``answer``."""
    packed = base64.urlsafe_b64encode(zlib.compress(sdp.encode(), 9)).decode().rstrip("=")
    return PREFIXES[kind] + packed


def unpack(text: str, kind: str) -> str:
    """The SDP in a pairing text of ``kind``; PairingError saying what is wrong."""
    code = "".join(text.split())
    other = next(k for k in PREFIXES if k != kind)
    if code.startswith(PREFIXES[other]):
        raise PairingError(f"this is the other device's {other} code: paste the {kind} code here")
    if not code.startswith(PREFIXES[kind]) or len(code) > MAX_CODE:
        raise PairingError(f"this is not a hexcombat {kind} code (it starts {PREFIXES[kind]})")
    body = code[len(PREFIXES[kind]) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        sdp = inflater.decompress(raw, MAX_SDP).decode()
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise PairingError(f"this {kind} code is damaged: copy it again, whole") from None
    if not inflater.eof or inflater.unconsumed_tail or not sdp.startswith("v=0"):
        raise PairingError(f"this {kind} code is damaged: copy it again, whole")
    return sdp
