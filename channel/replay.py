"""The replay protocol: how a late joiner gets the events it missed from the engine serving a session.

A viewer publishes ``{"reply_to": ID, "after": SEQ}`` on ``replay/request``; the engine answers on
``replay/<ID>`` with every event of a larger seq, one JSON event per message, then ``{"end": LAST_SEQ}``.
Requests are rate-limited per client (the request's ``client``, else its ``reply_to``) and overall,
and at most :data:`MAX_ANSWERS` answers are under way at once; a refused request is answered with
``{"refused": REASON}`` (the joiner's one-line error), so a flood of requests cannot queue millions
of messages or grow the engine's memory.
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
from channel.ratelimit import Rate, RateLimiter

PER_CLIENT = Rate(burst=10, per_second=1.0)
"""History requests one client may make: a joiner asks once, and again after a gap."""
OVERALL = Rate(burst=50, per_second=5.0)
"""History requests all clients together may make."""
MAX_ANSWERS = 4
"""History answers being sent at the same time."""

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
    clients, overall = RateLimiter(PER_CLIENT), RateLimiter(OVERALL)

    async def answer(_topic: str, payload: bytes) -> None:
        try:
            request = json.loads(payload)
            reply_to = str(request["reply_to"])[:64]
            after = int(request.get("after", 0))
            client = str(request.get("client") or reply_to)[:200]
        except (ValueError, KeyError, TypeError):
            bus.rejected += 1
            log.warning("replay/request: skipped a malformed request")
            return
        if not reply_to or "/" in reply_to or "+" in reply_to or "#" in reply_to:
            return
        refused = _refusal(clients.take(client) and overall.take("*"), len(sending))
        if refused is not None:
            log.warning("replay/request from %s refused: %s", client, refused)
            with contextlib.suppress(BusClosed):
                await bus.publish_raw(f"replay/{reply_to}", json.dumps({"refused": refused}).encode(), qos=0)
            return
        snapshot = [event for event in history if event.seq > after]
        task = asyncio.create_task(_send_history(bus, reply_to, after, snapshot))
        sending.add(task)
        task.add_done_callback(sending.discard)

    await bus.subscribe_raw("replay/request", answer)


def _refusal(within_rate: bool, answering: int) -> str | None:
    if not within_rate:
        return f"too many history requests (at most {PER_CLIENT.describe()} per client); try again later"
    if answering >= MAX_ANSWERS:
        return f"the engine is already sending history to {answering} joiners; try again in a moment"
    return None


async def _send_history(bus: RawBus, reply_to: str, after: int, events: Sequence[Event]) -> None:
    last = after
    with contextlib.suppress(BusClosed):
        for event in events:
            if event.seq > after:
                await bus.publish_raw(f"replay/{reply_to}", encode(event))
                last = event.seq
        await bus.publish_raw(f"replay/{reply_to}", json.dumps({"end": last}).encode())


async def fetch_history(bus: RawBus, after: int = 0, *, wait: float = 5.0, client: str = "") -> list[Event]:
    """Ask the engine serving this session for its events after ``after`` (see
    :meth:`serve_history`). Raises BusConnectError when nobody answers within ``wait`` seconds, or
    when the engine refused the request (rate limits)."""
    reply_to = uuid.uuid4().hex[:12]
    events: list[Event] = []
    finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def collect(_topic: str, payload: bytes) -> None:
        if payload.startswith(b'{"refused"'):
            if not finished.done():
                reason = str(json.loads(payload).get("refused", "refused"))[:300]
                finished.set_exception(BusConnectError(f"{bus.address.display}: the engine refused history: {reason}"))
            return
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
        await bus.publish_raw(
            "replay/request", json.dumps({"reply_to": reply_to, "after": after, "client": client or reply_to}).encode()
        )
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
