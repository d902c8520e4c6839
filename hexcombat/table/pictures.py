"""Pictures over the table: a device whose fight names a picture it does not hold (the map
under the board, the figures' portraits) asks the host for it a window of chunks at a time.
Each chunk is checked as it arrives (the picture it belongs to, its place, its size) and the
whole against its digest at the end, so a device takes no byte it did not ask for and keeps
no picture that is not the one named. A device that drops keeps what it has and asks again
from there.

Messages: ``want`` (device to host: ``digest``, ``start``, the first chunk it lacks) and
``picture`` (host to device: ``digest``, ``index``, ``count`` of chunks, ``size`` in bytes
and ``data``, the chunk in base64).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hexcombat.encounter import Setup
from hexcombat.map_picture import MAX_PICTURE_BYTES, NamedPicture, digest_of
from hexcombat.table.messages import DIGEST, Message, ProtocolError
from hexcombat.validation import Json

CHUNK = 9_000
"""Bytes per chunk: its base64 (12,000 characters) and the message around it fit one frame."""
WINDOW = 8
"""Chunks the host sends for one ``want``: a device asks for the next window once the last
chunk of this one is in, so the host never sends faster than the device takes."""
MOST_CHUNKS = -(-MAX_PICTURE_BYTES // CHUNK)


def named_pictures(setup: Setup) -> tuple[str, ...]:
    """The digests of the pictures a fight shows: its map picture, then its figures'
    portraits (each once, in set-up order)."""
    return tuple(picture_types(setup))


def picture_types(setup: Setup) -> dict[str, str]:
    """The media type of each picture a fight shows, by digest (as :func:`named_pictures`)."""
    named_ones: list[NamedPicture] = [setup.picture] if setup.picture is not None else []
    named_ones += [f.portrait for f in setup.figures if f.portrait is not None]
    types: dict[str, str] = {}
    for named in named_ones:
        types.setdefault(named.digest, named.type)
    return types


def chunk_count(size: int) -> int:
    """How many chunks a picture of ``size`` bytes is sent in."""
    return max(1, -(-size // CHUNK))


def chunks(digest: str, data: bytes, start: int) -> list[dict[str, Json]]:
    """The ``picture`` messages' fields for the window of chunks of ``data`` (the picture
    named ``digest``) from ``start``."""
    count = chunk_count(len(data))
    return [
        {
            "digest": digest,
            "index": index,
            "count": count,
            "size": len(data),
            "data": base64.b64encode(data[index * CHUNK : (index + 1) * CHUNK]).decode("ascii"),
        }
        for index in range(start, min(count, start + WINDOW))
    ]


def wanted(msg: Message, held: Mapping[str, bytes], setup: Setup) -> tuple[str, bytes, int]:
    """The picture (digest and bytes) and first chunk a ``want`` asks for; refused unless the
    fight names that picture and the host holds it."""
    digest = msg.text("digest", DIGEST)
    if digest not in named_pictures(setup):
        raise ProtocolError([], "this fight shows no picture with that digest")
    data = held.get(digest)
    if data is None:
        raise ProtocolError(
            [], "the host does not have this fight's map picture: the board shows without it"
        )
    start = msg.number("start", chunk_count(len(data)) - 1)
    return digest, data, start


@dataclass
class Incoming:
    """A picture this device is receiving: the chunks in so far, in order."""

    digest: str
    parts: list[bytes] = field(default_factory=list)
    count: int = 0
    size: int = 0
    asked: int = 0
    """The end of the window last asked for: when the chunks reach it, the next is asked."""

    def want(self) -> dict[str, Json]:
        """The ``want`` for the window from the first chunk not in."""
        self.asked = len(self.parts) + WINDOW
        return {"digest": self.digest, "start": len(self.parts)}


class Pictures:
    """What a device receives of pictures: asked for, partly in, and complete."""

    def __init__(self) -> None:
        self._incoming: dict[str, Incoming] = {}
        self._done: dict[str, bytes] = {}

    def wants(self, setup: Setup, held: Iterable[str]) -> list[dict[str, Json]]:
        """The ``want`` messages' fields for every picture the fight names that this device
        neither holds nor has complete, each from the first chunk it lacks."""
        have = set(held) | set(self._done)
        out: list[dict[str, Json]] = []
        for digest in named_pictures(setup):
            if digest not in have:
                out.append(self._incoming.setdefault(digest, Incoming(digest)).want())
        return out

    def receive(self, msg: Message) -> list[dict[str, Json]]:
        """Take one ``picture`` chunk; returns the next ``want`` when this window is in."""
        digest = msg.text("digest", DIGEST)
        incoming = self._incoming.get(digest)
        if incoming is None:
            raise ProtocolError([], "a picture chunk this device did not ask for")
        count = msg.number("count", MOST_CHUNKS)
        size = msg.number("size", MAX_PICTURE_BYTES)
        index = msg.number("index", MOST_CHUNKS)
        if count != chunk_count(size) or (
            incoming.parts and (count, size) != (incoming.count, incoming.size)
        ):
            raise ProtocolError([], "the picture's size does not match its chunks")
        if index != len(incoming.parts):
            raise ProtocolError(
                [], f"picture chunk {index} came where {len(incoming.parts)} was due"
            )
        data = _decoded(msg.text("data", limit=2 * CHUNK))
        expected = min(CHUNK, size - index * CHUNK)
        if len(data) != expected:
            raise ProtocolError(
                [], f"picture chunk {index} holds {len(data)} bytes, not {expected}"
            )
        incoming.parts.append(data)
        incoming.count, incoming.size = count, size
        if len(incoming.parts) == count:
            return self._complete(incoming)
        return [incoming.want()] if len(incoming.parts) == incoming.asked else []

    def _complete(self, incoming: Incoming) -> list[dict[str, Json]]:
        del self._incoming[incoming.digest]
        data = b"".join(incoming.parts)
        if digest_of(data) != incoming.digest:
            raise ProtocolError(
                [], "the picture received is not the one the fight names: it was not kept"
            )
        self._done[incoming.digest] = data
        return []

    def progress(self) -> dict[str, tuple[int, int]]:
        """Bytes in so far and in all, by digest, of the pictures still coming."""
        return {d: (sum(map(len, i.parts)), i.size) for d, i in self._incoming.items()}

    def take(self) -> dict[str, bytes]:
        """The pictures completed since the last call (the page keeps them in its store)."""
        done, self._done = self._done, {}
        return done


def _decoded(text: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError([], "a picture chunk that is not base64") from None
