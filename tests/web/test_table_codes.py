"""Pairing texts: an offer or answer survives the trip as a short text, a wrong or damaged
one is refused in words (frames: tests/test_table_guard.py)."""

from __future__ import annotations

import pytest

from web.table.codes import PairingError, pack, unpack

SDP = (
    "v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
    "a=group:BUNDLE 0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n"
    "a=candidate:95185486 1 udp 2113937151 ed8dddab-5d52-4a49-abbe-c3366c57e655.local 41023"
    " typ host generation 0 network-cost 999\r\na=ice-ufrag:abcd\r\na=ice-pwd:0123456789\r\n"
    "a=fingerprint:sha-256 " + ":".join(["AB"] * 32) + "\r\na=setup:actpass\r\n"
)


def test_an_offer_and_an_answer_travel_as_short_texts() -> None:
    offer = pack("offer", SDP)
    assert offer.startswith("HXO1.") and len(offer) < len(SDP)
    assert unpack(offer, "offer") == SDP
    broken = offer[:40] + "\n  " + offer[40:]  # line breaks and spaces from a chat are fine
    assert unpack(broken, "offer") == SDP
    assert unpack(pack("answer", SDP), "answer") == SDP


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (pack("answer", SDP), "other device's answer"),
        ("hello", "not a hexcombat offer code"),
        ("HXO1." + "A" * 7000, "not a hexcombat"),
        (pack("offer", SDP)[:-9], "damaged"),
        ("HXO1.!!!", "damaged"),
        (pack("offer", "not sdp"), "damaged"),
    ],
)
def test_a_wrong_or_damaged_code_is_refused_in_words(text: str, why: str) -> None:
    with pytest.raises(PairingError, match=why):
        unpack(text, "offer")
