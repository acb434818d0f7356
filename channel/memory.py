"""The in-process bus: bounded queue per subscriber, ordered delivery, no silent drop."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator

from channel.bus import BusClosed, Dropped, Overflow
from channel.codec import Message
from channel.topics import matches, topic_for
from channel.vocab.topics import ALL


class MemorySubscription:
    """One subscriber's bounded, ordered queue."""

    def __init__(self, bus: InProcessBus, pattern: str, maxsize: int, overflow: Overflow) -> None:
        self.pattern = pattern
        self.overflow = overflow
        self._bus = bus
        self._maxsize = max(1, maxsize)
        self._items: deque[Message | Dropped] = deque()
        self._has_items = asyncio.Event()
        self._has_space = asyncio.Event()
        self._dropped = 0
        self._closed = False

    def __len__(self) -> int:
        return len(self._items)

    def _offer(self, message: Message) -> bool:
        """The fast path: queue the message now if there is room (and nothing dropped to announce)."""
        if self._closed or self._dropped or len(self._items) >= self._maxsize:
            return False
        self._items.append(message)
        self._has_items.set()
        return True

    async def _deliver(self, message: Message) -> None:
        if self.overflow == "drop":
            if len(self._items) >= self._maxsize:
                self._dropped += 1
                return
            if self._dropped:
                # The notice takes the place of what was lost, before anything newer.
                self._items.append(Dropped(self._dropped))
                self._dropped = 0
        else:
            while len(self._items) >= self._maxsize and not self._closed:
                self._has_space.clear()
                await self._has_space.wait()
        if not self._closed:
            self._items.append(message)
            self._has_items.set()

    async def get(self) -> Message | Dropped:
        while not self._items:
            if self._dropped:
                count, self._dropped = self._dropped, 0
                return Dropped(count)
            if self._closed:
                raise StopAsyncIteration
            self._has_items.clear()
            await self._has_items.wait()
        item = self._items.popleft()
        self._has_space.set()
        return item

    def __aiter__(self) -> AsyncIterator[Message | Dropped]:
        return self

    async def __anext__(self) -> Message | Dropped:
        return await self.get()

    def _end(self) -> None:
        """Stop accepting messages; what is queued is still delivered, then iteration ends."""
        self._closed = True
        self._has_items.set()
        self._has_space.set()

    async def close(self) -> None:
        self._bus._unsubscribe(self)
        self._items.clear()
        self._end()


class InProcessBus:
    """The default bus: everything in one asyncio loop, no broker."""

    def __init__(self) -> None:
        self._subs: list[MemorySubscription] = []
        self._lock = asyncio.Lock()
        self._closed = False

    async def publish(self, message: Message) -> None:
        if self._closed:
            raise BusClosed("publish on a closed bus")
        topic = topic_for(message)
        # One publish at a time, so every subscriber sees the same order.
        async with self._lock:
            for sub in list(self._subs):
                if matches(sub.pattern, topic) and not sub._offer(message):
                    await sub._deliver(message)

    async def subscribe(
        self, pattern: str = ALL, *, maxsize: int = 10_000, overflow: Overflow = "block"
    ) -> MemorySubscription:
        sub = MemorySubscription(self, pattern, maxsize, overflow)
        if self._closed:
            sub._end()
        else:
            self._subs.append(sub)
        return sub

    def _unsubscribe(self, sub: MemorySubscription) -> None:
        if sub in self._subs:
            self._subs.remove(sub)

    async def close(self) -> None:
        self._closed = True
        for sub in self._subs:
            sub._end()
        self._subs.clear()
