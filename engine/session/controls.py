"""Commands to a running session, and the round boundary where their effects land.

The session's command listener hands each command to :meth:`SessionControls.dispatch` (one case per
command type). Nothing a command asks for happens mid-round: a norm change, a person's review
decision, pause and step all take effect at :meth:`SessionControls.boundary`, between rounds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from channel.bus import Dropped, Subscription
from channel.commands import Command, DecideReview, Pause, Resume, SeatCall, SetNorm, SetSpeed, Step, Stop
from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import CommandRefused, NormChanged, SessionPaused, SessionResumed, SpeedChanged
from channel.vocab.norms import NormError, Norms


class SessionControls:
    """The state commands change: the norms in force, pause / step / speed, stop, and a person's
    review decisions (handed to ``on_decision``)."""

    def __init__(
        self,
        emit: Emit,
        norms: Norms,
        *,
        on_decision: Callable[[DecideReview], None],
        on_seat_call: Callable[[SeatCall], Awaitable[None]] | None = None,
        pace: float = 0.0,
        secret: str | None = None,
    ) -> None:
        self.emit = emit
        self.norms = norms
        """The norms in force; changed only at a round boundary."""
        self.pace = pace
        self.secret = secret
        self.stopped = False
        self.stop_requested = asyncio.Event()
        """Set by ``Stop``: a person's turn in an agent's seat ends at once (agents end theirs)."""
        self.speed = 1.0
        self._on_decision = on_decision
        self._on_seat_call = on_seat_call
        self._pending_norms: list[tuple[str, Any, str]] = []
        self._running = asyncio.Event()
        self._running.set()
        self._steps = 0
        self._wake = asyncio.Event()

    # --- commands ------------------------------------------------------------------------------

    async def listen(self, commands: Subscription) -> None:
        """Dispatch commands until cancelled; a bad command is refused and the listener keeps listening."""
        async for message in commands:
            if isinstance(message, Dropped):
                continue
            if not isinstance(message, SetNorm | DecideReview | Pause | Resume | Step | SetSpeed | Stop | SeatCall):
                continue  # an event published under cmd/: not a command, nothing to do
            try:
                await self.dispatch(message)
            except Exception as exc:
                reason = str(exc) if isinstance(exc, ScopewatchError) else f"{type(exc).__name__}: {exc}"
                await self.emit(CommandRefused(command=getattr(message, "kind", "?"), reason=reason))
            self._wake.set()

    async def dispatch(self, cmd: Command) -> None:
        """Check the reviewer secret, then act on one command (or refuse it with an event)."""
        if self.secret is not None and cmd.token != self.secret:
            await self.emit(
                CommandRefused(actor=cmd.sender, command=cmd.kind, reason="missing or wrong reviewer secret")
            )
            return
        match cmd:
            case SetNorm():
                try:
                    self.norms.with_value(cmd.key, cmd.value)  # validate now, apply at the next boundary
                except NormError as exc:
                    await self.emit(CommandRefused(actor=cmd.sender, command="SetNorm", reason=str(exc)))
                    return
                self._pending_norms.append((cmd.key, cmd.value, cmd.sender))
            case DecideReview():
                self._on_decision(cmd)
            case Pause():
                if self._running.is_set():
                    self._running.clear()
                    await self.emit(SessionPaused(actor=cmd.sender))
            case Resume():
                if not self._running.is_set():
                    self._running.set()
                    await self.emit(SessionResumed(actor=cmd.sender))
            case Step():
                if self._running.is_set():
                    self._running.clear()
                    await self.emit(SessionPaused(actor=cmd.sender))
                self._steps += 1
            case SetSpeed():
                self.speed = cmd.speed
                await self.emit(SpeedChanged(actor=cmd.sender, speed=cmd.speed))
            case Stop():
                self.stopped = True
                self.stop_requested.set()
            case SeatCall():
                if self._on_seat_call is None:
                    raise ScopewatchError(f"no seat here is played by a person ({cmd.seat})")
                await self._on_seat_call(cmd)

    # --- the round boundary ----------------------------------------------------------------------

    async def boundary(
        self, *, apply_decisions: Callable[[], Awaitable[None]], waits_for_human: Callable[[], bool]
    ) -> None:
        """Between rounds: apply norm changes and a person's decisions; wait while a person must
        decide, while paused (a step lets one round through), then keep the pace."""
        while True:
            await self._apply_norms()
            await apply_decisions()
            if self.stopped:
                return
            if waits_for_human():
                await self._wait_for_command()
                continue
            if not self._running.is_set():
                if self._steps > 0:
                    self._steps -= 1
                    break
                await self._wait_for_command()
                continue
            break
        if self.pace:
            await asyncio.sleep(self.pace / self.speed)

    async def _wait_for_command(self) -> None:
        self._wake.clear()
        await self._wake.wait()

    def queue_norm(self, key: str, value: Any, by: str) -> None:
        """A norm change to apply at the next boundary, as if ``by`` had sent it (a fork's changes)."""
        self._pending_norms.append((key, value, by))

    async def _apply_norms(self) -> None:
        pending, self._pending_norms = self._pending_norms, []
        for key, value, by in pending:
            try:
                new = self.norms.with_value(key, value)
            except NormError as exc:
                await self.emit(CommandRefused(actor=by, command="SetNorm", reason=str(exc)))
                continue
            old, self.norms = getattr(self.norms, key), new
            await self.emit(NormChanged(actor=by, key=key, old=old, new=getattr(new, key), norms=new))
