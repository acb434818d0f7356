"""Late joiners of long sessions (issue 31): a watcher joining a 12,000-event session late gets every
event exactly once, in order, then the live stream: on loopback, through a 100 ms-delay proxy, and
through a proxy that drops its connections every few seconds. Real mosquitto; the engine on loopback."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest

from channel import codec, replay
from channel.bus import Dropped
from channel.connect import parse_bus_url
from channel.emitter import Emitter
from channel.events import Event, TurnStarted
from channel.mqtt import MqttBus
from tests.channel.broker import Broker
from tests.channel.proxy import Proxy
from tui.remote import SeqFollower

LATE = 12_000
LIVE = 50


async def _join_late(broker: Broker, *, delay: float = 0.0, drop_every: float | None = None) -> tuple[list[int], int]:
    """A session of LATE events, a joiner through the proxy, LIVE more events while it catches up;
    returns the seqs the joiner delivered and how many times the proxy cut it off."""
    session = f"t-{uuid.uuid4().hex[:8]}"
    engine = MqttBus(parse_bus_url(broker.url), session, participant="engine", role="engine")
    history: list[Event] = [
        TurnStarted(session=session, seq=i, actor="alice", episode=1, turn=i, budget_left=0) for i in range(1, LATE + 1)
    ]
    emitter = Emitter(engine, session, start_seq=LATE)
    emitter.add_listener(history.append)
    await engine.serve_history(history)
    got: list[int] = []
    done = asyncio.Event()

    async def deliver(event: Event) -> None:
        got.append(event.seq)
        if event.seq == LATE + LIVE:
            done.set()

    async with Proxy(broker.port, delay=delay, drop_every=drop_every) as proxy:
        joiner = MqttBus(parse_bus_url(proxy.url), session, participant="late-watcher")
        follower = SeqFollower(joiner.fetch_history, deliver)
        live = await joiner.subscribe("events/#")

        async def follow() -> None:
            async for item in live:
                if not isinstance(item, Dropped):
                    await follower.offer(item)  # type: ignore[arg-type]

        async def emit_live() -> None:
            for i in range(1, LIVE + 1):
                await emitter.emit(TurnStarted(actor="alice", episode=2, turn=i, budget_left=0))

        async with asyncio.timeout(240):
            producer = asyncio.create_task(emit_live())
            await follower.catch_up()
            reader = asyncio.create_task(follow())
            await producer
            await done.wait()
            reader.cancel()
        await joiner.close()
        drops = proxy.drops
    await engine.close()
    return got, drops


async def test_a_late_joiner_of_12000_events_gets_each_once_on_loopback(mqtt_broker: Broker) -> None:
    got, _ = await _join_late(mqtt_broker)
    assert got == list(range(1, LATE + LIVE + 1))


async def test_a_late_joiner_gets_each_event_once_over_a_100ms_link(mqtt_broker: Broker) -> None:
    got, _ = await _join_late(mqtt_broker, delay=0.1)
    assert got == list(range(1, LATE + LIVE + 1))


async def test_a_late_joiner_ends_complete_through_a_link_that_keeps_dropping(mqtt_broker: Broker) -> None:
    # A 150 ms link cut every 2.5 s: the joiner is cut off several times mid-way through the history.
    got, drops = await _join_late(mqtt_broker, delay=0.15, drop_every=2.5)
    assert got == list(range(1, LATE + LIVE + 1))
    assert drops >= 1  # the link was cut while the joiner caught up


async def test_a_class_joining_at_once_is_answered_at_once_not_told_busy(
    mqtt_broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 25 joiners asking at the start of a session each want a few kilobytes: answers are budgeted
    # by the bytes under way (replay.MAX_ANSWER_BYTES), so none is refused "busy" (it was past 4
    # answers at once: 21 of them waited 1-2 s and asked again). No retry after "busy" here.
    monkeypatch.setattr(replay, "BUSY_RETRIES", 0)
    session = f"t-{uuid.uuid4().hex[:8]}"
    engine = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="engine", role="engine")
    await engine.serve_history(
        [TurnStarted(session=session, seq=i, actor="alice", episode=1, turn=i, budget_left=0) for i in range(1, 41)]
    )
    joiners = [MqttBus(parse_bus_url(mqtt_broker.url), session, participant=f"j{i}") for i in range(25)]
    try:
        async with asyncio.timeout(120):
            got = await asyncio.gather(*(j.fetch_history() for j in joiners))
        assert all([e.seq for e in events] == list(range(1, 41)) for events in got)
    finally:
        for bus in [*joiners, engine]:
            await bus.close()


async def test_each_event_is_encoded_once_for_all_the_answers(
    mqtt_broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoded: list[int] = []
    real = codec.encode

    def counting(message: Any) -> bytes:
        encoded.append(message.seq)
        return real(message)

    monkeypatch.setattr(replay, "encode", counting)
    session = f"t-{uuid.uuid4().hex[:8]}"
    engine = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="engine", role="engine")
    history: list[Event] = []
    emitter = Emitter(engine, session)
    emitter.add_listener(history.append)
    await engine.serve_history(history)
    joiner = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="j")
    try:
        for turn in range(1, 31):
            await emitter.emit(TurnStarted(actor="alice", episode=1, turn=turn, budget_left=0))
        assert [e.seq for e in await joiner.fetch_history()] == list(range(1, 31))
        assert [e.seq for e in await joiner.fetch_history(after=10)] == list(range(11, 31))
        await emitter.emit(TurnStarted(actor="alice", episode=1, turn=31, budget_left=0))
        assert [e.seq for e in await joiner.fetch_history(after=29)] == [30, 31]
        assert sorted(encoded) == list(range(1, 32))  # once each, however many answers held it
    finally:
        await joiner.close()
        await engine.close()
