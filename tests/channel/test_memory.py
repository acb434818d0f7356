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


async def test_transient_events_are_published_but_never_numbered_recorded_or_listened_to(tmp_path) -> None:
    from channel.codec import decode_event
    from channel.emitter import Emitter
    from channel.events import ModelCalled, TokensStreamed
    from channel.recorder import Recorder

    bus = InProcessBus()
    sub = await bus.subscribe("#")
    recorder = Recorder(tmp_path / "r.jsonl")
    emitter = Emitter(bus, "s1", recorder=recorder)
    heard: list[object] = []
    emitter.add_listener(heard.append)
    tokens = await emitter.emit(TokensStreamed(actor="owner", call=1, text="Hel"))
    called = await emitter.emit(ModelCalled(actor="owner", model="m", text="Hello"))
    recorder.close()
    assert (tokens.seq, tokens.session, called.seq) == (0, "s1", 1)
    assert [await sub.get(), await sub.get()] == [tokens, called]
    assert heard == [called] and [decode_event(line) for line in (tmp_path / "r.jsonl").read_bytes().splitlines()] == [
        called
    ]
