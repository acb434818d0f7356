"""The replay protocol: how a late joiner gets the events it missed from the engine serving a session.

A viewer publishes ``{"reply_to": ID, "after": SEQ}`` on ``replay/request``; the engine answers on
``replay/<ID>`` with every event of a larger seq, one JSON event per message, then ``{"end": LAST_SEQ}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from channel.broker import BrokerAddress, BusConnectError
from channel.bus import BusClosed
from channel.codec import DecodeError, decode_event, encode
from channel.events import Event

log = logging.getLogger("scopewatch.mqtt")

RawHandler = Callable[[str, bytes], Awaitable[None]]
"""A raw subscription's callback: ``handler(session_relative_topic, payload)``."""


class RawBus(Protocol):
    """What the replay protocol needs of a bus: raw publish and subscribe on session-relative topics,
    where it is and which session, and a count of the messages it had to reject.
    :class:`channel.mqtt.MqttBus` is one; this module does not import it (it imports this one)."""

    address: BrokerAddress
    session: str
    rejected: int

    async def publish_raw(
        self, relative: str, payload: bytes, *, retain: bool = False, qos: int | None = None
    ) -> None: ...

    async def subscribe_raw(self, pattern: str, handler: RawHandler) -> int: ...

    async def unsubscribe_raw(self, sid: int) -> None: ...


async def serve_history(bus: RawBus, history: Sequence[Event]) -> None:
    """Answer replay requests on ``replay/request`` from a (growing) list of this session's
    events: ``{"reply_to": ID, "after": SEQ}`` gets every event with a larger seq on
    ``replay/<ID>``, one JSON event per message, then ``{"end": LAST_SEQ}``."""
    sending: set[asyncio.Task[None]] = set()  # the answers under way (a task needs a strong reference)

    async def answer(_topic: str, payload: bytes) -> None:
        try:
            request = json.loads(payload)
            reply_to = str(request["reply_to"])
            after = int(request.get("after", 0))
        except (ValueError, KeyError, TypeError):
            bus.rejected += 1
            log.warning("replay/request: skipped a malformed request")
            return
        if not reply_to or "/" in reply_to or "+" in reply_to or "#" in reply_to:
            return
        snapshot = list(history)
        task = asyncio.create_task(_send_history(bus, reply_to, after, snapshot))
        sending.add(task)
        task.add_done_callback(sending.discard)

    await bus.subscribe_raw("replay/request", answer)


async def _send_history(bus: RawBus, reply_to: str, after: int, events: Sequence[Event]) -> None:
    last = after
    with contextlib.suppress(BusClosed):
        for event in events:
            if event.seq > after:
                await bus.publish_raw(f"replay/{reply_to}", encode(event))
                last = event.seq
        await bus.publish_raw(f"replay/{reply_to}", json.dumps({"end": last}).encode())


async def fetch_history(bus: RawBus, after: int = 0, *, wait: float = 5.0) -> list[Event]:
    """Ask the engine serving this session for its events after ``after`` (see
    :meth:`serve_history`). Raises BusConnectError when nobody answers within ``wait`` seconds."""
    reply_to = uuid.uuid4().hex[:12]
    events: list[Event] = []
    finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def collect(_topic: str, payload: bytes) -> None:
        if payload.startswith(b'{"end"'):
            if not finished.done():
                finished.set_result(None)
            return
        try:
            events.append(decode_event(payload))
        except DecodeError:
            bus.rejected += 1

    sid = await bus.subscribe_raw(f"replay/{reply_to}", collect)
    try:
        await bus.publish_raw("replay/request", json.dumps({"reply_to": reply_to, "after": after}).encode())
        try:
            await asyncio.wait_for(finished, wait)
        except TimeoutError:
            raise BusConnectError(
                f"{bus.address.display}: no engine answered for session {bus.session!r} "
                f"within {wait:g}s (is 'scopewatch serve' running?)"
            ) from None
    finally:
        await bus.unsubscribe_raw(sid)
    return events
