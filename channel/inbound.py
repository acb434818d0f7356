"""What an MQTT bus does with a message from the broker before any reader sees it.

- on the engine's topics (events, history replies, its presence, its key, its recording) a bus
  holding the session's key drops what the engine did not sign (channel.signing), counted in
  ``forged`` and told to its ``on_forged`` handlers;
- on the command topics the engine's bus (the one with a :class:`~channel.credentials.CommandGuard`)
  refuses what is too large or not signed with a valid credential of the session; a refused command
  never reaches the command models, the engine records one ``CommandRefused`` for it;
- each subscription is the in-process bounded, ordered queue, and drops an event whose ``seq`` it
  has already delivered (a QoS 1 re-send is seen once);
- a batch (several events in one message on ``events/batch``, channel.outbox) is checked once, as
  one message, then each of its events goes to the subscriptions whose pattern matches the topic it
  would have had alone (:func:`deliver_batch`); a bus subscribing to some events but not to the batch
  topic subscribes to it as well (:func:`wants_batches`), so batching changes no subscriber's stream.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import cast

from channel.bus import Overflow
from channel.codec import DecodeError, Message, decode_event
from channel.credentials import CommandGuard
from channel.events import PresenceChanged
from channel.memory import InProcessBus, MemorySubscription
from channel.rejects import Rejected, rejected, too_large
from channel.signing import VerifyKey, from_engine, genuine
from channel.topics import matches, topic_for
from channel.vocab.topics import BATCH

log = logging.getLogger("scopewatch.mqtt")

ForgedHandler = Callable[[str, int], None]
"""Told of a dropped forged message: its session-relative topic and how many were dropped so far."""


class MqttSubscription(MemorySubscription):
    """The in-process bounded, ordered queue, fed from the broker; ``on_close`` tells its bus."""

    def __init__(
        self,
        on_close: Callable[[MqttSubscription], Awaitable[None]],
        pattern: str,
        maxsize: int,
        overflow: Overflow,
        sid: int,
    ) -> None:
        # The queue never calls back into its bus except in close(), which is overridden here.
        super().__init__(cast(InProcessBus, None), pattern, maxsize, overflow)
        self.sid = sid
        self._on_close = on_close
        self._last_seq: dict[str, int] = {}

    def _fresh(self, message: Message) -> bool:
        """False for an event this subscription already delivered (a QoS 1 re-send)."""
        seq = getattr(message, "seq", 0)
        if not seq or isinstance(message, PresenceChanged):
            return True
        session = message.session
        if seq <= self._last_seq.get(session, 0):
            return False
        self._last_seq[session] = seq
        return True

    async def close(self) -> None:
        await self._on_close(self)
        self._items.clear()
        self._end()


def forged(key: VerifyKey | None, relative: str, topic: str, payload: bytes, props: object) -> bool:
    """Whether a message on the engine's topics lacks the engine's signature (only with a key)."""
    return key is not None and from_engine(relative) and not genuine(key, topic, payload, props)


def refused_command(guard: CommandGuard | None, topic: str, payload: bytes, props: object) -> Rejected | None:
    """Why a command payload is refused before decoding (its size; with a guard, its credential)."""
    refused = too_large(payload)
    if refused is not None or guard is None:
        return refused
    reason = guard.check(topic, payload, props)
    if reason is None:
        return None
    kept = rejected(payload, reason)
    return Rejected(kept.sender, kept.command, reason)


def wants_batches(pattern: str) -> bool:
    """Whether a subscription to ``pattern`` takes events that may come in a batch, without the
    pattern covering the batch topic itself (then its bus subscribes to that too)."""
    return pattern.split("/", 1)[0] in ("events", "+") and not matches(pattern, BATCH)


async def deliver_batch(
    topic: str, payload: bytes, patterns: dict[int, str], subs: dict[int, list[MqttSubscription]]
) -> int:
    """Hand each event of a batch (checked already) to the subscriptions whose pattern matches the
    topic it has alone, in order; returns how many lines were not events (skipped, logged)."""
    skipped = 0
    for line in payload.split(b"\n"):
        try:
            event = decode_event(line)
        except DecodeError as exc:
            skipped += 1
            log.warning("%s: skipped a line that is not an event (%s)", topic, exc)
            continue
        inner = topic_for(event)
        for sid in [sid for sid, pattern in patterns.items() if matches(pattern, inner)]:
            for sub in list(subs.get(sid, ())):
                if sub._fresh(event):
                    await sub._deliver(event)
    return skipped
