"""What only the in-process bus does: a full blocking subscriber holds the publisher back."""

from __future__ import annotations

import asyncio

from channel.memory import InProcessBus
from tests.channel.samples import turn


async def test_a_full_blocking_subscriber_makes_the_publisher_wait() -> None:
    bus = InProcessBus()
    sub = await bus.subscribe("#", maxsize=2)
    publisher = asyncio.create_task(bus.publish(turn("s", 3)))
    await bus.publish(turn("s", 1))
    await bus.publish(turn("s", 2))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not publisher.done() and len(sub) == 2
    assert (await sub.get()).seq == 1  # type: ignore[union-attr]
    await publisher
    assert [(await sub.get()).seq for _ in range(2)] == [2, 3]  # type: ignore[union-attr]


async def test_closing_the_bus_releases_a_blocked_publisher() -> None:
    bus = InProcessBus()
    await bus.subscribe("#", maxsize=1)
    await bus.publish(turn("s", 1))
    publisher = asyncio.create_task(bus.publish(turn("s", 2)))
    await asyncio.sleep(0)
    await bus.close()
    await asyncio.wait_for(publisher, 5)
