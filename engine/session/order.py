"""The order of a round's tool calls when every seat is deterministic: one call at a time, the seats
taking turns.

A round's turns run concurrently (:class:`~engine.session.loop.Session`), and their tool calls act on
one workspace. Which call reaches the workspace first then depends on timing (a command's run time, a
write to the recording), and so does what the other saw: an owner's ``git status`` lists the file the
requester wrote, or not. A session of scripted agents must not depend on timing: a fork re-runs its
parent and checks every event against it (:mod:`engine.fork.guide`). So where every seat is scripted,
the round's calls go through a :class:`TurnOrder`: the seats in their order, one call each in turn,
a seat whose turn ended leaving the cycle. Scripted agents wait for nothing but their tool calls, so
this costs them nothing (the workspace runs one operation at a time anyway); seats played by models,
people or external agents keep their calls concurrent, as they think at their own pace.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence


class TurnOrder:
    """One round's tool calls, one at a time, the seats in ``seats``' order taking turns."""

    def __init__(self, seats: Sequence[str]) -> None:
        self._cycle = list(seats)
        self._at = 0
        self._changed = asyncio.Condition()

    @property
    def next_seat(self) -> str | None:
        """The seat whose call goes next (None: every turn of the round has ended)."""
        return self._cycle[self._at] if self._cycle else None

    @contextlib.asynccontextmanager
    async def call(self, seat: str) -> AsyncIterator[None]:
        """Hold the round for one call of ``seat`` (waits for its turn); the next seat's turn after."""
        async with self._changed:
            await self._changed.wait_for(lambda: self.next_seat == seat or seat not in self._cycle)
        try:
            yield
        finally:
            async with self._changed:
                if seat in self._cycle and self.next_seat == seat:
                    self._at = (self._at + 1) % len(self._cycle)
                self._changed.notify_all()

    async def leave(self, seat: str) -> None:
        """``seat``'s turn ended: the others go on without it."""
        async with self._changed:
            if seat in self._cycle:
                i = self._cycle.index(seat)
                del self._cycle[i]
                if i < self._at or self._at >= len(self._cycle):
                    self._at = self._at - 1 if i < self._at else 0
            self._changed.notify_all()
