"""The outbox (issue 31): the emitter never waits for the broker; events are published in seq order
with many acknowledgements awaited at once; a full outbox sheds and counts; a flush is bounded.
The order is checked against a real mosquitto through a 40 ms-delay proxy."""

from __future__ import annotations

import asyncio
import uuid

import aiomqtt

from channel.bus import Overflow, Subscription
from channel.codec import Message
from channel.connect import parse_bus_url
from channel.emitter import Emitter
from channel.events import SessionPaused, TurnStarted
from channel.mqtt import MqttBus
from channel.outbox import Outbox
from channel.signing import new_key
from channel.vocab.topics import EVENTS, event_topic
from tests.channel.broker import Broker
from tests.channel.proxy import Proxy

GUARD = 60.0


class StuckBus:
    """A bus whose publishes wait until ``release`` is set (a broker gone, a very slow link)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started: list[Message] = []
        self.done: list[Message] = []
        self.window_full = asyncio.Event()

    async def publish(self, message: Message) -> None:
        self.started.append(message)
        if len(self.started) == 8:
            self.window_full.set()
        await self.release.wait()
        self.done.append(message)

    async def subscribe(self, pattern: str = "#", *, maxsize: int = 0, overflow: Overflow = "block") -> Subscription:
        raise NotImplementedError

    async def close(self) -> None:
        pass


async def test_emitting_never_waits_for_the_broker_and_a_full_outbox_sheds() -> None:
    bus = StuckBus()
    emitter = Emitter(bus, "s-1")
    emitter.outbox = Outbox(bus, limit=100, window=8)
    async with asyncio.timeout(GUARD):
        for i in range(1, 201):
            await emitter.emit(TurnStarted(actor="a", episode=1, turn=i, budget_left=0))
        assert emitter.last_seq == 200  # none of the 200 emits waited on the stuck bus
        await bus.window_full.wait()
        assert len(bus.started) == 8  # the window: no more publishes under way than that
        shed = emitter.outbox.shed
        assert 200 - 100 - 8 <= shed <= 200 - 100 and emitter.outbox.waiting == 200 - shed
        assert await emitter.outbox.flush(0.05) is False
        bus.release.set()
        assert await emitter.outbox.flush(GUARD) is True
    seqs = [m.seq for m in bus.done]  # type: ignore[union-attr]
    assert seqs == list(range(1, 200 - shed + 1))  # in order, the first ones kept, later ones shed
    await emitter.outbox.close()


async def test_through_a_40ms_link_events_arrive_in_order_each_once(mqtt_broker: Broker) -> None:
    session = f"t-{uuid.uuid4().hex[:8]}"
    viewer = MqttBus(parse_bus_url(mqtt_broker.url), session)
    events = await viewer.subscribe("events/#")
    async with Proxy(mqtt_broker.port, delay=0.04) as proxy, asyncio.timeout(GUARD):
        engine = MqttBus(parse_bus_url(proxy.url), session)
        await engine.start()
        emitter = Emitter(engine, session)
        emitter.outbox = Outbox(engine)
        for i in range(1, 501):
            await emitter.emit(TurnStarted(actor="a", episode=1, turn=i, budget_left=0))
        assert await emitter.outbox.flush(GUARD)
        got = [(await events.get()).seq for _ in range(500)]  # type: ignore[union-attr]
        await emitter.outbox.close()
        await engine.close()
    assert got == list(range(1, 501))
    await viewer.close()


async def test_what_waits_goes_as_one_signed_batch_and_every_subscriber_gets_each_event_once(
    mqtt_broker: Broker,
) -> None:
    """A served engine's outbox sends the events waiting together as one message on events/batch
    (one signature); a viewer of every event and one of a single kind each get their events in
    order, once, as if each had come alone; a wire subscriber counts far fewer messages than events."""
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    everything = MqttBus(address, session, key=key.public)
    turns_only = MqttBus(address, session, key=key.public)
    every, turns = await everything.subscribe(EVENTS), await turns_only.subscribe(event_topic("TurnStarted"))
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    await engine.start()
    emitter = Emitter(engine, session)
    emitter.outbox = Outbox(engine, raw=engine)
    wire: list[aiomqtt.Message] = []
    async with (
        aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as raw,
        asyncio.timeout(GUARD),
    ):
        await raw.subscribe(f"scopewatch/v1/{session}/events/#", qos=1)
        for i in range(1, 301):  # none of these emits waits: they all wait in the outbox together
            event = TurnStarted(actor="a", episode=1, turn=i, budget_left=0) if i % 3 else SessionPaused(actor="a")
            await emitter.emit(event)
        assert await emitter.outbox.flush(GUARD)
        got = [await every.get() for _ in range(300)]
        mine = [await turns.get() for _ in range(200)]
        async for m in raw.messages:
            wire.append(m)
            if sum(len(bytes(m.payload).split(b"\n")) for m in wire) >= 300:  # type: ignore[arg-type]
                break
    assert [e.seq for e in got] == list(range(1, 301))  # type: ignore[union-attr]
    assert [e.seq for e in mine] == [i for i in range(1, 301) if i % 3]  # type: ignore[union-attr]
    assert all(isinstance(e, TurnStarted) for e in mine) and not every._items and not turns._items
    assert emitter.outbox.batches >= 1 and len(wire) < 300
    assert {m.topic.value.rsplit("/", 1)[1] for m in wire} >= {"batch"}
    assert everything.forged == turns_only.forged == 0
    await emitter.outbox.close()
    for bus in (engine, everything, turns_only):
        await bus.close()
