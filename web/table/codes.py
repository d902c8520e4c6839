"""The pairing texts and the framing of messages on a data channel (pure Python, no page).

A WebRTC offer or answer (its SDP, host candidates only) travels as one short text:
``HXO1.`` or ``HXA1.`` and the SDP compressed and base64url-encoded, small enough for a QR
code a phone camera reads. Messages longer than a data channel likes are sent in frames.
"""

from __future__ import annotations

import base64
import binascii
import zlib

PREFIXES = {"offer": "HXO1.", "answer": "HXA1."}
MAX_CODE = 6000
MAX_SDP = 20_000
FRAME = 16_000
"""Characters per data-channel frame (well under every browser's message limit)."""


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


def frames(text: str) -> list[str]:
    """``text`` as frames ``i/n|part`` (an ordered, reliable channel keeps their order)."""
    parts = [text[i : i + FRAME] for i in range(0, len(text), FRAME)] or [""]
    return [f"{i + 1}/{len(parts)}|{part}" for i, part in enumerate(parts)]


class Reassembly:
    """Frames in, whole messages out."""

    def __init__(self) -> None:
        self._parts: list[str] = []

    def add(self, frame: str) -> str | None:
        """The whole message once its last frame is in, else None (PairingError on a frame
        out of order or malformed)."""
        head, sep, part = frame.partition("|")
        number, slash, total = head.partition("/")
        if not (sep and slash and number.isdigit() and total.isdigit()):
            raise PairingError("a message frame is malformed")
        if int(number) != len(self._parts) + 1 or int(number) > int(total):
            self._parts = []
            raise PairingError("a message frame came out of order")
        self._parts.append(part)
        if int(number) < int(total):
            return None
        whole, self._parts = "".join(self._parts), []
        return whole
