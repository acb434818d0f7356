"""The gate every command passes before it acts: the right session, and rate limits per sender and
overall. A flood is bounded: its first refused command is answered with a ``CommandRefused`` at once,
the rest are only counted, and one more ``CommandRefused`` gives the count when the flood is over
(the sender was quiet until its bucket refilled) or the session ends. So 10,000 commands from one
sender become a few dozen accepted ones and two refusals, not 10,000 events.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from channel.events import CommandRefused
from channel.ratelimit import Rate, RateLimiter

PER_SENDER = Rate(burst=20, per_second=5.0)
"""What one sender may send: a person at a keyboard stays well inside it."""
OVERALL = Rate(burst=100, per_second=50.0)
"""What all senders together may send (senders' names are whatever they say they are)."""
EVERYONE = "*"
"""The flood key of the overall limit."""


@dataclass
class _Flood:
    actor: str
    command: str
    refused: int = 0


class CommandGate:
    """Admit or refuse each command; the refusals to record come back as events."""

    def __init__(
        self,
        session: str | None,
        *,
        per_sender: Rate = PER_SENDER,
        overall: Rate = OVERALL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self._senders = RateLimiter(per_sender, clock=clock)
        self._overall = RateLimiter(overall, clock=clock)
        self._floods: dict[str, _Flood] = {}

    def admit(self, sender: str, command: str, session: str | None) -> tuple[bool, CommandRefused | None]:
        """Whether to act on one command, and the refusal to record (None: nothing to record now)."""
        if not self._senders.take(sender):
            return False, self._refuse(
                sender, sender, command, PER_SENDER_REASON.format(sender=sender, rate=self._senders.rate.describe())
            )
        if not self._overall.take(EVERYONE):
            return False, self._refuse(
                EVERYONE, sender, command, OVERALL_REASON.format(rate=self._overall.rate.describe())
            )
        if self.session is not None and session is not None and session != self.session:
            return False, CommandRefused(
                actor=sender,
                command=command,
                reason=f"command for session {session!r} sent to session {self.session!r}",
            )
        return True, None

    def settle(self, *, final: bool = False) -> list[CommandRefused]:
        """The counts of the floods that are over (all of them when ``final``), as refusals."""
        done = []
        for key, flood in list(self._floods.items()):
            limiter = self._overall if key == EVERYONE else self._senders
            if final or limiter.idle(key):
                del self._floods[key]
                if flood.refused:
                    done.append(
                        CommandRefused(
                            actor=flood.actor,
                            command=flood.command,
                            reason=f"rate limit: {flood.refused} more command(s) refused, not acted on",
                        )
                    )
        return done

    @property
    def flooding(self) -> bool:
        """Whether a flood is being counted (its count is still to be recorded)."""
        return bool(self._floods)

    def _refuse(self, key: str, actor: str, command: str, reason: str) -> CommandRefused | None:
        flood = self._floods.get(key)
        if flood is not None:
            flood.refused += 1
            return None
        self._floods[key] = _Flood(actor, command)
        return CommandRefused(actor=actor, command=command, reason=reason)


PER_SENDER_REASON = "rate limit: {sender} sent more than {rate}; further commands are counted, not acted on"
OVERALL_REASON = "rate limit: commands arrive faster than {rate}; further ones are counted, not acted on"
