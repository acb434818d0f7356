"""The outbox (issue 31): the emitter never waits for the broker; events are published in seq order
with many acknowledgements awaited at once; a full outbox sheds and counts; a flush is bounded.
The order is checked against a real mosquitto through a 40 ms-delay proxy."""

from __future__ import annotations

import asyncio
import uuid

from channel.bus import Overflow, Subscription
from channel.codec import Message
from channel.connect import parse_bus_url
from channel.emitter import Emitter
from channel.events import TurnStarted
from channel.mqtt import MqttBus
from channel.outbox import Outbox
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
