"""The engine's outbox: events are published in seq order off the engine's critical path.

The emitter records an event and tells its listeners under its lock, then :meth:`Outbox.post`s it,
which never waits: a sender task publishes posted messages in order with up to :data:`WINDOW` of
them awaiting the broker's acknowledgement at once (QoS 1 acks are awaited here, never under the
emitter's lock), so the engine's pace is not the network's. The outbox is bounded: past
:data:`LIMIT` waiting messages (the broker gone, a link far slower than the engine) new ones are
shed and counted, with one warning; the recording holds them all, and viewers fetch what they miss
from the history (channel.replay). :meth:`flush` waits, up to a deadline, for what is left.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Protocol

from channel.bus import Bus, BusClosed
from channel.codec import Message, encode
from channel.events import PresenceChanged
from channel.replay import BATCH_BYTES, BATCH_EVENTS
from channel.tasks import cancel_and_wait
from channel.vocab.topics import BATCH

LIMIT = 50_000
"""Messages waiting to be published at most; past it new ones are shed (counted in ``shed``)."""
WINDOW = 64
"""Messages awaiting the broker's acknowledgement at once."""
LINGER_S = 0.01
"""How long a batching outbox waits, once something is posted, for more to send with it."""

log = logging.getLogger("scopewatch.outbox")


class RawPublisher(Protocol):
    """A bus that publishes bytes on a session-relative topic (:class:`channel.mqtt.MqttBus`)."""

    async def publish_raw(
        self, relative: str, payload: bytes, *, retain: bool = False, qos: int | None = None
    ) -> None: ...


def batchable(message: Message) -> bool:
    """Whether a message may share a batch: a recorded event (not presence, not transient, no command)."""
    return bool(getattr(message, "seq", 0)) and not isinstance(message, PresenceChanged)


class Outbox:
    """Publishes posted messages on ``bus`` in post order, never blocking the poster; with ``raw``,
    what waits together goes as one batch through it."""

    def __init__(
        self, bus: Bus, *, limit: int = LIMIT, window: int = WINDOW, raw: RawPublisher | None = None
    ) -> None:
        self.bus = bus
        self.raw = raw
        self.batches = 0
        """Batches sent (each several events in one message)."""
        self.limit = limit
        self.posted = 0
        self.sent = 0
        self.shed = 0
        """Messages dropped because the outbox was full (the recording still has them)."""
        self._queue: deque[Message] = deque()
        self._window = asyncio.Semaphore(window)
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._sending: set[asyncio.Task[None]] = set()
        self._drain: asyncio.Task[None] | None = None

    @property
    def waiting(self) -> int:
        """Messages posted and not yet acknowledged (queued or in flight)."""
        return self.posted - self.sent - self.shed

    def post(self, message: Message) -> None:
        """Queue ``message`` for publishing (shed, with a warning the first time, when full)."""
        if len(self._queue) >= self.limit:
            if not self.shed:
                log.warning(
                    "scopewatch: the broker is not keeping up (or gone): %d messages wait; later ones are "
                    "not published (the recording has them; viewers fetch them from the history)",
                    len(self._queue),
                )
            self.shed += 1
            self.posted += 1
            return
        self.posted += 1
        self._queue.append(message)
        self._idle.clear()
        self._wake.set()
        if self._drain is None:
            self._drain = asyncio.create_task(self._run(), name="scopewatch-outbox")

    async def _run(self) -> None:
        while True:
            while not self._queue:
                self._wake.clear()
                await self._wake.wait()
            if self.raw is not None and len(self._queue) < BATCH_EVENTS:
                await asyncio.sleep(LINGER_S)
            await self._window.acquire()
            task = asyncio.create_task(self._send(*self._take()))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    def _take(self) -> tuple[Message, list[bytes]]:
        """The next message and, when batching, it and the batchable ones after it encoded (within
        the limits; one line alone: no batch)."""
        first = self._queue.popleft()
        if self.raw is None or not batchable(first) or not self._queue or not batchable(self._queue[0]):
            return first, []
        lines = [encode(first)]
        size = len(lines[0])
        while self._queue and len(lines) < BATCH_EVENTS and batchable(self._queue[0]):
            line = encode(self._queue[0])
            size += len(line) + 1
            if size > BATCH_BYTES:
                break
            self._queue.popleft()
            lines.append(line)
        return first, lines

    async def _send(self, first: Message, batch: list[bytes]) -> None:
        try:
            if self.raw is not None and len(batch) > 1:
                self.batches += 1
                await self.raw.publish_raw(BATCH, b"\n".join(batch))
            else:
                await self.bus.publish(first)
        except BusClosed:
            pass
        finally:
            self.sent += max(1, len(batch))
            self._window.release()
            if not self._queue and self.waiting == 0:
                self._idle.set()

    async def flush(self, within: float) -> bool:
        """Wait until everything posted was acknowledged, at most ``within`` seconds (False if not)."""
        try:
            await asyncio.wait_for(self._idle.wait(), within)
        except TimeoutError:
            log.warning(
                "scopewatch: %d messages were not published before the end (the recording has them)", self.waiting
            )
            return False
        return True

    async def close(self) -> None:
        """Stop publishing (what is still waiting is abandoned; the recording has it)."""
        tasks = [t for t in (self._drain, *self._sending) if t is not None]
        await cancel_and_wait(*tasks)
        self._queue.clear()
