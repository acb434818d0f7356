"""The one place events are stamped (session, seq, timestamp), recorded and published."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from channel.bus import Bus
from channel.events import _Event
from channel.recorder import Recorder

E = TypeVar("E", bound=_Event)


class Emitter:
    """Stamps each event with the next ``seq`` and the clock, writes it to the recorder (if any)
    before anyone else sees it, then publishes it. ``seq`` order is delivery order."""

    def __init__(
        self,
        bus: Bus,
        session: str,
        *,
        recorder: Recorder | None = None,
        clock: Callable[[], float] = time.time,
        start_seq: int = 0,
    ) -> None:
        self.bus = bus
        self.session = session
        self.recorder = recorder
        self.clock = clock
        self._seq = start_seq
        self._lock = asyncio.Lock()
        self.listeners: list[Callable[[Any], None]] = []
        """Synchronous in-process readers (the engine's own state), called in seq order."""

    @property
    def last_seq(self) -> int:
        return self._seq

    async def emit(self, event_type: type[E], /, actor: str = "engine", **fields: Any) -> E:
        async with self._lock:
            self._seq += 1
            event = event_type(session=self.session, seq=self._seq, ts=self.clock(), actor=actor, **fields)
            if self.recorder is not None:
                self.recorder.write(event)  # type: ignore[arg-type]
            for listener in self.listeners:
                listener(event)
            await self.bus.publish(event)  # type: ignore[arg-type]
            return event
