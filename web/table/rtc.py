"""One WebRTC data channel to another device, with host candidates only (no STUN or TURN
server: ``iceServers`` is empty), so it works on a local network or a hotspot offline.

The host makes an offer, the joining device answers it, the host accepts the answer; each
is carried as a pairing text (:mod:`web.table.codes`). Messages are sent in frames; one sent
before the channel is open waits for it (it is never dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import (  # type: ignore[import-not-found]
    create_once_callable,
    create_proxy,
    to_js,
)

from hexcombat.table.frames import Inbox, Limits, frames
from web.table.codes import PairingError, pack, unpack

GATHER_WAIT_S = 10.0
"""Longest wait for the host candidates (a few milliseconds on a quiet device); a slow one
then carries those it has."""


def _js(value: dict[str, Any]) -> Any:
    return to_js(value, dict_converter=js.Object.fromEntries)


class Peer:
    """A connection to one device: ``on_message(text)`` for each whole message within
    ``limits``, ``on_refused(why)`` for a frame refused before it makes one (a bound broken,
    no frame), ``on_open()`` once when the channel opens, ``on_close()`` when it closes,
    ``on_fail()`` when the other device could not be reached at all (a network that keeps its
    devices apart)."""

    def __init__(
        self,
        on_message: Callable[[str], None],
        on_open: Callable[[], None],
        on_close: Callable[[], None],
        on_fail: Callable[[], None],
        limits: Limits,
        on_refused: Callable[[str], None],
    ) -> None:
        self.pc = js.RTCPeerConnection.new(_js({"iceServers": []}))
        self.channel: Any = None
        self._frames = Inbox(limits)
        self._listener: Any = None
        self._on_refused = on_refused
        self._on_message, self._on_open, self._on_close = on_message, on_open, on_close
        self._proxies: list[Any] = []
        self.pc.onconnectionstatechange = self._proxy(lambda *_: self._state(on_fail))
        self._opened = False
        self._waiting: list[str] = []
        """Frames sent before the channel opened, in order."""

    @property
    def used(self) -> bool:
        """True once it has made an offer or an answer (a pairing needs a fresh one)."""
        return self.pc.localDescription is not None or self.pc.remoteDescription is not None

    @property
    def is_open(self) -> bool:
        """True while the data channel is open."""
        return self.channel is not None and str(self.channel.readyState) == "open"

    async def offer(self) -> str:
        """The host's side: open a channel and return the offer's pairing text."""
        self._attach(self.pc.createDataChannel("hexcombat"))
        await self.pc.setLocalDescription(await self.pc.createOffer())
        return pack("offer", await self._gathered())

    async def answer(self, offer_code: str) -> str:
        """The joining side: take the host's offer text and return the answer's text."""
        sdp = unpack(offer_code, "offer")
        self.pc.ondatachannel = self._proxy(lambda ev: self._attach(ev.channel))
        await self.pc.setRemoteDescription(_js({"type": "offer", "sdp": sdp}))
        await self.pc.setLocalDescription(await self.pc.createAnswer())
        return pack("answer", await self._gathered())

    async def accept(self, answer_code: str) -> None:
        """The host's side: take the joining device's answer text."""
        sdp = unpack(answer_code, "answer")
        if str(self.pc.signalingState) != "have-local-offer":
            raise PairingError("this device is not waiting for an answer: make a new code")
        await self.pc.setRemoteDescription(_js({"type": "answer", "sdp": sdp}))

    def send(self, text: str) -> None:
        """Send a whole message (in frames); before the channel opens it waits for it."""
        if self.is_open:
            for frame in frames(text):
                self.channel.send(frame)
        elif not self._opened:
            self._waiting += frames(text)

    def close(self) -> None:
        """Close the connection and free its callbacks."""
        if self.channel is not None:
            for event in ("onmessage", "onopen", "onclose"):
                setattr(self.channel, event, None)
        for event in ("ondatachannel", "onicegatheringstatechange", "onconnectionstatechange"):
            setattr(self.pc, event, None)
        self.pc.close()
        for p in self._proxies:
            p.destroy()
        self._proxies.clear()
        self._waiting.clear()

    async def _gathered(self) -> str:
        """The local description once every host candidate is in it (no trickling: the
        pairing text carries them all): told by the gathering's own event, not polled."""
        if str(self.pc.iceGatheringState) != "complete":
            done = asyncio.get_running_loop().create_future()

            def changed(*_: Any) -> None:
                if str(self.pc.iceGatheringState) == "complete" and not done.done():
                    done.set_result(None)

            self.pc.onicegatheringstatechange = self._proxy(changed)
            changed()
            with contextlib.suppress(TimeoutError):  # then carry the candidates there are
                await asyncio.wait_for(done, GATHER_WAIT_S)
            self.pc.onicegatheringstatechange = None
        return str(self.pc.localDescription.sdp)

    def _attach(self, channel: Any) -> None:
        """Listen to ``channel``; one announced by the other device may be open already."""
        self.channel = channel
        self._listener = self._proxy(self._got)
        channel.onmessage = self._listener
        channel.onopen = self._proxy(lambda *_: self._opening())
        channel.onclose = self._proxy(lambda *_: self._on_close())
        if str(channel.readyState) == "open":
            self._opening()

    def _opening(self) -> None:
        """The channel is open (told once): what waited goes first, then ``on_open``."""
        if self._opened:
            return
        self._opened = True
        js.console.debug("table: channel open")
        waiting, self._waiting = self._waiting, []
        for frame in waiting:
            self.channel.send(frame)
        self._on_open()

    def _state(self, on_fail: Callable[[], None]) -> None:
        js.console.debug(f"table: connection {self.pc.connectionState}")
        if str(self.pc.connectionState) == "failed" and not self._opened:
            on_fail()

    def _got(self, event: Any) -> None:
        data = event.data
        frame = data if isinstance(data, str) else ""  # a binary frame is no frame of ours
        taken = self._frames.add(frame, time.monotonic())
        if taken.pause:
            self._pause(taken.pause)
        if taken.refused:
            self._on_refused(taken.refused)
        if taken.message is not None:
            self._on_message(taken.message)

    def refused(self) -> None:
        """The other device's last message was refused (counted: too many, and it is not
        heard for a moment)."""
        pause = self._frames.refused(time.monotonic())
        if pause:
            self._pause(pause)

    def _pause(self, seconds: float) -> None:
        """Stop listening for ``seconds``: a flood costs this page nothing meanwhile (what
        comes is dropped, as the bounds say)."""
        channel = self.channel
        if channel is None or channel.onmessage is None:
            return
        channel.onmessage = None

        def listen() -> None:
            if self.channel is channel and self._proxies:
                channel.onmessage = self._listener

        js.setTimeout(create_once_callable(listen), int(seconds * 1000) + 1)

    def _proxy(self, fn: Callable[..., Any]) -> Any:
        p = create_proxy(fn)
        self._proxies.append(p)
        return p
