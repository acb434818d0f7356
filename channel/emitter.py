"""The one place events are stamped (session, seq, timestamp), recorded and published."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from channel.bus import Bus
from channel.events import BaseEvent, Event
from channel.outbox import Outbox
from channel.recorder import Recorder

E = TypeVar("E", bound=BaseEvent)

Listener = Callable[[Event], None]
"""A synchronous in-process reader of the stream (the engine's own state, a scorer, a progress line)."""


class Emit(Protocol):
    """What producers of events are handed: build the event, emit it, get it back stamped."""

    def __call__(self, event: E, /) -> Awaitable[E]: ...


class Emitter:
    """Stamps each event with the next ``seq`` and the clock, writes it to the recorder (if any)
    before anyone else sees it, hands it to the in-process listeners, then publishes it. ``seq``
    order is delivery order."""

    def __init__(
        self,
        bus: Bus,
        session: str,
        *,
        recorder: Recorder | None = None,
        clock: Callable[[], float] = time.time,
        start_seq: int = 0,
        scrub: Callable[[BaseEvent], BaseEvent] | None = None,
    ) -> None:
        self.bus = bus
        self.session = session
        self.recorder = recorder
        self.clock = clock
        self._seq = start_seq
        self._lock = asyncio.Lock()
        self._listeners: list[Listener] = []
        self._scrub = scrub
        """Applied to every event before it is stamped (the engine's secret redactor)."""
        self.outbox: Outbox | None = None
        """When set (a served session), events are posted to it instead of published under the lock."""

    @property
    def last_seq(self) -> int:
        return self._seq

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on, in seq order, before it is published."""
        self._listeners.append(listener)

    async def emit(self, event: E, /) -> E:
        """Stamp ``event`` (built with its own fields and actor), record, tell listeners, publish.

        A transient event (``event.TRANSIENT``, e.g. streamed tokens) is only stamped with the
        session and the clock (``seq`` stays 0, so watchers neither count it nor wait for it) and
        published: no recording, no listener, no effect on ``seq``."""
        if event.TRANSIENT:
            stamped = event.model_copy(update={"session": self.session, "ts": self.clock()})
            await self._publish(stamped)
            return stamped
        async with self._lock:
            self._seq += 1
            if self._scrub is not None:
                event = self._scrub(event)  # type: ignore[assignment]
            stamped = event.model_copy(update={"session": self.session, "seq": self._seq, "ts": self.clock()})
            if self.recorder is not None:
                self.recorder.write(stamped)  # type: ignore[arg-type]
            for listener in self._listeners:
                listener(stamped)  # type: ignore[arg-type]
            await self._publish(stamped)
            return stamped

    async def _publish(self, event: BaseEvent) -> None:
        if self.outbox is not None:
            self.outbox.post(event)  # type: ignore[arg-type]
        else:
            await self.bus.publish(event)  # type: ignore[arg-type]
