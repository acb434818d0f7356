"""Commands to a running session, and the round boundary where their effects land.

The session's command listener hands each command to :meth:`SessionControls.dispatch` (one case per
command type). Nothing a command asks for happens mid-round: a norm change, a person's review
decision, pause and step all take effect at :meth:`SessionControls.boundary`, between rounds.
Every command first passes the :class:`~engine.session.gate.CommandGate` (the right session, rate
limits); a payload the bus could not decode into a command is refused through the same gate.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from channel.bus import Dropped, Subscription
from channel.commands import (
    CastVote,
    Command,
    DecideReview,
    Pause,
    Resume,
    SeatCall,
    SetNorm,
    SetSpeed,
    SetVoteRule,
    Step,
    Stop,
)
from channel.emitter import Emit
from channel.errors import ScopewatchError
from channel.events import CommandRefused, NormChanged, SessionPaused, SessionResumed, SpeedChanged
from channel.rejects import Rejected
from channel.vocab.norms import NormError, Norms
from engine.session.gate import CommandGate

SETTLE_EVERY_S = 0.5
"""How often the listener looks for floods that are over, to record their counts."""


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
        on_room: Callable[[CastVote | SetVoteRule], Awaitable[None]] | None = None,
        pace: float = 0.0,
        secret: str | None = None,
        session: str | None = None,
    ) -> None:
        self.emit = emit
        self.gate = CommandGate(session)
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
        self.on_room = on_room
        """A room's votes and rule (engine/session/room.py); None: the session has no room."""
        self._pending_norms: list[tuple[str, Any, str, bool]] = []
        self._running = asyncio.Event()
        self._running.set()
        self._steps = 0
        self._wake = asyncio.Event()

    # --- commands ------------------------------------------------------------------------------

    async def listen(self, commands: Subscription) -> None:
        """Dispatch commands until cancelled; a bad command is refused and the listener keeps listening."""
        settler = asyncio.create_task(self._settle_floods(), name="scopewatch-floods")
        try:
            await self._listen(commands)
        finally:
            settler.cancel()

    async def _listen(self, commands: Subscription) -> None:
        async for message in commands:
            if isinstance(message, Dropped):
                continue
            if not isinstance(
                message,
                SetNorm | DecideReview | Pause | Resume | Step | SetSpeed | Stop | SeatCall | CastVote | SetVoteRule,
            ):
                continue  # an event published under cmd/: not a command, nothing to do
            admitted, refusal = self.gate.admit(message.sender, message.kind, message.session)
            if refusal is not None:
                await self.emit(refusal)
            if not admitted:
                continue
            try:
                await self.dispatch(message)
            except Exception as exc:
                reason = str(exc) if isinstance(exc, ScopewatchError) else f"{type(exc).__name__}: {exc}"
                await self.emit(CommandRefused(command=getattr(message, "kind", "?"), reason=reason))
            self._wake.set()

    async def refuse(self, rejected: Rejected) -> None:
        """A command payload that failed the command models: refused (through the gate's limits)."""
        admitted, refusal = self.gate.admit(rejected.sender, rejected.command, None)
        if admitted:
            refusal = CommandRefused(actor=rejected.sender, command=rejected.command, reason=rejected.reason)
        if refusal is not None:
            await self.emit(refusal)

    async def settle(self, *, final: bool = False) -> None:
        """Record the counts of the floods that are over (all of them when ``final``: the session ends)."""
        for refusal in self.gate.settle(final=final):
            await self.emit(refusal)

    async def _settle_floods(self) -> None:
        while True:
            await asyncio.sleep(SETTLE_EVERY_S)
            await self.settle()

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
                    self._room_check(cmd.key, cmd.value)
                except NormError as exc:
                    await self.emit(CommandRefused(actor=cmd.sender, command="SetNorm", reason=str(exc)))
                    return
                self._pending_norms.append((cmd.key, cmd.value, cmd.sender, True))
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
            case CastVote() | SetVoteRule():
                if self.on_room is None:
                    raise ScopewatchError("this session has no room: serve it with --room NAME")
                await self.on_room(cmd)

    # --- the round boundary ----------------------------------------------------------------------

    async def boundary(
        self,
        *,
        apply_decisions: Callable[[], Awaitable[None]],
        waits_for_human: Callable[[], bool],
        wait_s: Callable[[], float | None] = lambda: None,
    ) -> None:
        """Between rounds: apply norm changes and a person's decisions; wait while a person must
        decide (at most ``wait_s()`` seconds: a room's vote deadline), while paused (a step lets one
        round through), then keep the pace."""
        while True:
            await self.apply_norms()
            await apply_decisions()
            if self.stopped:
                return
            if waits_for_human():
                await self._wait_for_command(wait_s())
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

    async def _wait_for_command(self, within: float | None = None) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                await self._wake.wait()

    def wake(self) -> None:
        """Look at the boundary again now (a room's members changed, a vote came)."""
        self._wake.set()

    def _room_check(self, key: str, value: Any) -> None:
        """reviewer=room only in a room: elsewhere no vote would ever decide a review (report F16)."""
        if key == "reviewer" and str(value) == "room" and self.on_room is None:
            raise NormError("norm reviewer=room: this session has no room (serve it with --room NAME)")

    def queue_norm(self, key: str, value: Any, by: str, *, room_checked: bool = True) -> None:
        """A norm change to apply at the next boundary, as if ``by`` had sent it (a fork's changes).
        ``room_checked=False``: a change a parent session made (in its room) that a fork repeats as it was."""
        self._pending_norms.append((key, value, by, room_checked))

    async def apply_norms(self) -> None:
        """Apply the norm changes due (at a round boundary, and before an episode starts)."""
        pending, self._pending_norms = self._pending_norms, []
        for key, value, by, room_checked in pending:
            try:
                new = self.norms.with_value(key, value)
                if room_checked:
                    self._room_check(key, value)
            except NormError as exc:
                await self.emit(CommandRefused(actor=by, command="SetNorm", reason=str(exc)))
                continue
            old, self.norms = getattr(self.norms, key), new
            await self.emit(NormChanged(actor=by, key=key, old=old, new=getattr(new, key), norms=new))
