"""The replay protocol: how a late joiner gets the events it missed from the engine serving a session.

A viewer publishes ``{"reply_to": ID, "after": SEQ, "client": NAME}`` on ``replay/request``; the
engine answers on ``replay/<ID>`` with every event of a larger seq, in batches (one message holds up
to :data:`BATCH_EVENTS` events or :data:`BATCH_BYTES` bytes, one JSON event per line, each batch
acknowledged by the broker before the next: flow control), then ``{"end": LAST_SEQ}``. The joiner
has no total deadline: it waits at most ``wait`` seconds for each next message, and when the stream
stalls or skips a seq (a broker dropped a message, the connection went) it asks again from the last
seq it holds, so a long history arrives whole over a slow or flaky link. It gives up, with the one
line "no engine answered", only after :data:`ATTEMPTS` requests in a row brought nothing new.
Requests are rate-limited per client (the request's ``client``, else its ``reply_to``) and overall,
and at most :data:`MAX_ANSWERS` answers are under way at once; a refused request is answered with
``{"refused": REASON}`` (the joiner's one-line error), so a flood of requests cannot queue millions
of messages or grow the engine's memory. A refusal because :data:`MAX_ANSWERS` answers are under way
(or all clients together asked too often) says ``"busy": true``: the joiner waits a moment and asks
again, up to :data:`BUSY_RETRIES` times (a class of 30 joining at once all get their history).
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import random
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
MAX_ANSWERS = 32
"""History answers being sent at the same time at most."""
MAX_ANSWER_BYTES = 8 * 1024 * 1024
"""Bytes of history answers being sent at the same time at most (one larger answer goes alone): a
class joining at the start asks for a few kilobytes each and is answered at once, not told "busy"."""
BATCH_EVENTS = 500
"""Events in one history message at most."""
BATCH_BYTES = 256 * 1024
"""Bytes of one history message at most (a single larger event goes alone)."""
ATTEMPTS = 3
"""Requests in a row that may bring nothing new before the joiner gives up."""
BUSY_RETRIES = 60
"""Times a joiner asks again after a "busy" refusal (each after :data:`BUSY_WAIT_S`, jittered)."""
BUSY_WAIT_S = 1.0

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


class _Lines:
    """The history's events encoded, each once, as the answers first need them (not once per
    joiner), with where each seq's line is and the bytes from it to the end."""

    def __init__(self, history: Sequence[Event]) -> None:
        self.history = history
        self.lines: list[bytes] = []
        self.seqs: list[int] = []
        self.ends: list[int] = []
        """``ends[i]``: the bytes of lines ``0..i`` (with their separators)."""

    def after(self, seq: int) -> tuple[list[bytes], int]:
        """The lines of the events with a larger seq than ``seq`` (in seq order), and their size."""
        history, lines = self.history, self.lines
        for event in history[len(lines) :]:
            line = encode(event)
            lines.append(line)
            self.seqs.append(event.seq)
            self.ends.append((self.ends[-1] if self.ends else 0) + len(line) + 1)
        at = bisect.bisect_right(self.seqs, seq)
        return lines[at:], self.ends[-1] - (self.ends[at - 1] if at else 0) if lines else 0


async def serve_history(bus: RawBus, history: Sequence[Event]) -> None:
    """Answer replay requests on ``replay/request`` from a (growing) list of this session's
    events (in seq order): ``{"reply_to": ID, "after": SEQ}`` gets every event with a larger seq on
    ``replay/<ID>``, in batches, then ``{"end": LAST_SEQ}``. Each event is encoded once for all
    answers."""
    sending: dict[asyncio.Task[None], int] = {}  # the answers under way and their bytes (strong references)
    clients, overall = RateLimiter(PER_CLIENT), RateLimiter(OVERALL)
    lines = _Lines(history)

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
        polite = clients.take(client)
        snapshot, size = lines.after(after)
        refused = _refusal(polite and overall.take("*"), len(sending), sum(sending.values()), size)
        if refused is not None:
            log.warning("replay/request from %s refused: %s", client, refused)
            answer = {"refused": refused, "busy": polite}  # busy: everyone's limit, not this client's
            with contextlib.suppress(BusClosed):
                await bus.publish_raw(f"replay/{reply_to}", json.dumps(answer).encode(), qos=0)
            return
        last = lines.seqs[-1] if snapshot else after
        task = asyncio.create_task(_send_history(bus, reply_to, last, snapshot))
        sending[task] = size
        task.add_done_callback(lambda done: sending.pop(done, None))

    await bus.subscribe_raw("replay/request", answer)


def _refusal(within_rate: bool, answering: int, under_way: int, size: int) -> str | None:
    if not within_rate:
        return f"too many history requests (at most {PER_CLIENT.describe()} per client); try again later"
    if answering >= MAX_ANSWERS or (answering and under_way + size > MAX_ANSWER_BYTES):
        return f"the engine is already sending history to {answering} joiners; try again in a moment"
    return None


async def _send_history(bus: RawBus, reply_to: str, last: int, lines: Sequence[bytes]) -> None:
    topic = f"replay/{reply_to}"
    with contextlib.suppress(BusClosed):
        batch: list[bytes] = []
        size = 0
        for line in lines:
            if batch and (len(batch) >= BATCH_EVENTS or size + len(line) > BATCH_BYTES):
                await bus.publish_raw(topic, b"\n".join(batch))
                batch, size = [], 0
            batch.append(line)
            size += len(line) + 1
        if batch:
            await bus.publish_raw(topic, b"\n".join(batch))
        await bus.publish_raw(topic, json.dumps({"end": last}).encode())


class _Answer:
    """What one request's answer brought: events in seq order from ``after``, the end, a refusal."""

    def __init__(self, after: int, events: list[Event]) -> None:
        self.after = after
        self.events = events
        self.end: int | None = None
        self.broken = False
        """The answer skipped a seq (a message the broker dropped): ask again from the last one held."""
        self.refused: str | None = None
        self.busy = False
        """The refusal was "busy" (answers under way): ask again in a moment."""
        self.arrived = asyncio.Event()

    @property
    def last(self) -> int:
        return self.events[-1].seq if self.events else self.after

    def take(self, payload: bytes, rejected: Callable[[], None]) -> None:
        self.arrived.set()
        if payload.startswith(b'{"refused"'):
            refusal = json.loads(payload)
            self.refused, self.busy = str(refusal.get("refused", "refused"))[:300], refusal.get("busy") is True
            return
        if payload.startswith(b'{"end"'):
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                self.end = int(json.loads(payload)["end"])
            return
        for line in payload.split(b"\n"):
            try:
                event = decode_event(line)
            except DecodeError:
                rejected()
                continue
            if event.seq <= self.last:
                continue  # a re-sent batch: already held
            if event.seq != self.last + 1:
                self.broken = True
                return
            self.events.append(event)


async def fetch_history(bus: RawBus, after: int = 0, *, wait: float = 5.0, client: str = "") -> list[Event]:
    """Ask the engine serving this session for its events after ``after`` (see
    :meth:`serve_history`), in batches, asking again from the last seq held when the answer stalls
    for ``wait`` seconds or skips a seq. Raises BusConnectError when :data:`ATTEMPTS` requests in a
    row bring nothing (no engine), or when the engine refused the request (rate limits)."""
    events: list[Event] = []
    idle = busy = 0
    while True:
        answer = _Answer(events[-1].seq if events else after, events)
        held = answer.last
        await _ask(bus, answer, wait=wait, client=client)
        if answer.busy and busy < BUSY_RETRIES:
            busy += 1
            await asyncio.sleep(BUSY_WAIT_S * (1 + random.random()))
            continue
        if answer.refused is not None:
            raise BusConnectError(f"{bus.address.display}: the engine refused history: {answer.refused}")
        if answer.end is not None and not answer.broken and answer.last >= answer.end:
            return events
        idle = 0 if answer.last > held else idle + 1
        if idle >= ATTEMPTS:
            raise BusConnectError(
                f"{bus.address.display}: no engine answered for session {bus.session!r} "
                f"({ATTEMPTS} requests, {wait:g} s each; is 'scopewatch serve' running, and the session id right?)"
            )


async def _ask(bus: RawBus, answer: _Answer, *, wait: float, client: str) -> None:
    """One request; returns when its answer ended, was refused, broke, or stalled for ``wait`` seconds."""
    reply_to = uuid.uuid4().hex[:12]

    def rejected() -> None:
        bus.rejected += 1

    async def collect(_topic: str, payload: bytes) -> None:
        answer.take(payload, rejected)

    sid = await bus.subscribe_raw(f"replay/{reply_to}", collect)
    try:
        request = {"reply_to": reply_to, "after": answer.last, "client": client or reply_to}
        await bus.publish_raw("replay/request", json.dumps(request).encode())
        while answer.end is None and answer.refused is None and not answer.broken:
            answer.arrived.clear()
            try:
                await asyncio.wait_for(answer.arrived.wait(), wait)
            except TimeoutError:
                return
    finally:
        await bus.unsubscribe_raw(sid)
