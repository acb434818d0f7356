"""The Bus protocol: publish messages, subscribe by topic pattern, close.

Two implementations share one contract test suite: :class:`channel.memory.InProcessBus` (default)
and :class:`channel.mqtt.MqttBus`. Topics are session-relative (see :mod:`channel.topics`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal, Protocol

from channel.codec import Message
from channel.vocab.topics import ALL

Overflow = Literal["block", "drop"]


@dataclass(frozen=True)
class Dropped:
    """Delivered in place of ``count`` messages a ``drop``-mode subscriber had no room for."""

    count: int


class BusClosed(RuntimeError):
    """Publishing on a bus that was closed."""


class Subscription(Protocol):
    """An ordered stream of the messages matching one pattern."""

    pattern: str

    def __aiter__(self) -> AsyncIterator[Message | Dropped]: ...

    async def get(self) -> Message | Dropped:
        """The next message; raises StopAsyncIteration once the bus or subscription is closed."""
        ...

    async def close(self) -> None: ...


class Bus(Protocol):
    async def publish(self, message: Message) -> None:
        """Deliver a message to every matching subscription, in publish order."""
        ...

    async def subscribe(
        self, pattern: str = ALL, *, maxsize: int = 10_000, overflow: Overflow = "block"
    ) -> Subscription:
        """Subscribe to a topic pattern. ``block``: a full queue makes publishers wait
        (back-pressure); ``drop``: excess messages are counted and announced with ``Dropped``."""
        ...

    async def close(self) -> None: ...
