"""Messages in frames on a data channel, and the bounds every frame and message a device
receives is held to: its size, its count of parts, the time it takes to complete, and how
many frames per second one device may send. What breaks a bound, or is not a frame, is
refused with a reason and kept nowhere.

A frame is ``i/n|part``: part ``i`` of ``n`` of one message, in order (the channel is ordered
and reliable, so a frame out of order is another device's doing, never the network's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FRAME = 16_000
"""Characters per frame (well under every browser's data-channel message limit)."""
HEAD = re.compile(r"([1-9][0-9]{0,5})/([1-9][0-9]{0,5})\|")


@dataclass(frozen=True)
class Limits:
    """The bounds on what one device receives from one other (named settings; see
    :data:`FROM_GUEST` and :data:`FROM_HOST`)."""

    message_chars: int
    """Longest whole message."""
    complete_s: float
    """Longest time from a message's first frame to its last."""
    per_second: float
    """Frames per second one device may keep sending."""
    burst: int
    """Frames one device may send at once (a reveal of several figures, a catch-up)."""
    refusals_per_second: float = 1.0
    """Refused frames and messages one device may keep sending: past these, and past
    ``refusal_burst`` at once, everything it sends is dropped unread for a moment."""
    refusal_burst: int = 5

    @property
    def parts(self) -> int:
        """Most frames one message may be announced in."""
        return -(-self.message_chars // FRAME)


FROM_GUEST = Limits(message_chars=4 * FRAME, complete_s=5.0, per_second=10.0, burst=30)
"""What the host takes from a joined device: its requests (hello, action, seal, reveal) are
a few hundred characters; 30 at once covers a device revealing every figure of a side; 5
refused at once (then one a second) is more than a player's slips."""
FROM_HOST = Limits(
    message_chars=5_000_000,
    complete_s=60.0,
    per_second=200.0,
    burst=2000,
    refusals_per_second=10.0,
    refusal_burst=50,
)
"""What a joined device takes from the host: a whole fight may come at once (the document
and its log, up to the size of a document file)."""


@dataclass(frozen=True)
class Taken:
    """What a frame gave: a whole message (or None), a refusal to answer with ('' for none),
    and the seconds the page may stop listening to this device (``pause``: what it sends
    meanwhile would be dropped unread). A flood past its first refusal gives nothing."""

    message: str | None = None
    refused: str = ""
    pause: float = 0.0


class _Bucket:
    """A token bucket: ``burst`` at once, refilled at ``rate`` a second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.filled = 0.0

    def take(self, now: float) -> bool:
        """Take one token (False when there is none)."""
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.filled) * self.rate)
        self.filled = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, 1.0 - self.tokens) / self.rate


def frames(text: str) -> list[str]:
    """``text`` as frames ``i/n|part``."""
    parts = [text[i : i + FRAME] for i in range(0, len(text), FRAME)] or [""]
    return [f"{i + 1}/{len(parts)}|{part}" for i, part in enumerate(parts)]


class Inbox:
    """The frames from one device in, whole messages out, within :class:`Limits`.

    ``now`` is a time in seconds (any clock that only goes forward)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._parts: list[str] = []
        self._total = 0
        self._started = 0.0
        self._frames = _Bucket(limits.per_second, limits.burst)
        self._refusals = _Bucket(limits.refusals_per_second, limits.refusal_burst)
        self._shut_until = -1.0
        self.dropped = 0
        """Frames dropped unread for coming too fast, or after too many refusals."""

    @property
    def held(self) -> int:
        """Characters kept of a message not yet complete."""
        return sum(len(p) for p in self._parts)

    def add(self, frame: str, now: float) -> Taken:
        """Take one frame: a whole message once its last part is in, a refusal saying why
        when it breaks a bound or is no frame (its message is dropped), else nothing yet."""
        if now < self._shut_until:
            self.dropped += 1
            return Taken()
        if not self._frames.take(now):
            self.dropped += 1
            return self._shut(now, self._frames.wait(), "too many messages at once")
        taken = self._read(frame, now)
        if taken.refused:
            pause = self.refused(now)
            if pause:
                return Taken(taken.message, taken.refused, pause)
        return taken

    def refused(self, now: float) -> float:
        """Count a refusal (of a frame here, or of a message by the host): the seconds to
        ignore this device when it has had too many, else 0."""
        if self._refusals.take(now):
            return 0.0
        return self._shut(now, self._refusals.wait(), "too many refused").pause

    def _shut(self, now: float, wait: float, why: str) -> Taken:
        self._parts = []
        self._shut_until = now + wait
        return Taken(refused=f"{why}: this device is not heard for {wait:.1f} s", pause=wait)

    def _read(self, frame: str, now: float) -> Taken:
        head = HEAD.match(frame)
        if head is None:
            self._parts = []
            return Taken(refused="a message frame is malformed (it has no i/n| header)")
        number, total = int(head.group(1)), int(head.group(2))
        part = frame[head.end() :]
        stale = ""
        if self._parts and (number == 1 or now - self._started > self.limits.complete_s):
            stale = "a message was never finished and is dropped"
            self._parts = []
        if number > total or len(part) > FRAME:
            self._parts = []
            return Taken(refused=stale or "a message frame is malformed")
        if total > self.limits.parts:
            return Taken(
                refused=f"a message of {total} frames is too long (at most {self.limits.parts})"
            )
        if number != len(self._parts) + 1 or (self._parts and total != self._total):
            self._parts = []
            return Taken(refused=stale or "a message frame came out of order")
        if number == 1:
            self._started, self._total = now, total
        if self.held + len(part) > self.limits.message_chars:
            self._parts = []
            return Taken(refused=f"a message is too long (at most {self.limits.message_chars})")
        self._parts.append(part)
        if number < total:
            return Taken(refused=stale)
        whole, self._parts = "".join(self._parts), []
        return Taken(whole, stale)
