"""The Bus contract, run against both implementations: InProcessBus and MqttBus (real mosquitto).

Each test gets a publishing bus and a subscribing bus. In-process they are the same object; over MQTT
they are two clients of one broker, so every message really crosses the network.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from channel.bus import Bus, BusClosed, Dropped, Subscription
from channel.codec import Message
from channel.commands import DecideReview, SetNorm, _Command
from channel.connect import parse_bus_url
from channel.events import MessagePosted, PresenceChanged
from channel.memory import InProcessBus
from channel.mqtt import MqttBus
from tests.channel.broker import Broker
from tests.channel.samples import command_samples, event_samples, turn

GUARD = 20.0
"""A hang guard, not a speed claim: a broken bus fails instead of blocking the run."""


@dataclass
class Pair:
    kind: str
    session: str
    pub: Bus
    sub: Bus


@pytest.fixture(params=["memory", "mqtt"])
async def pair(request: pytest.FixtureRequest) -> AsyncIterator[Pair]:
    session = f"contract-{uuid.uuid4().hex[:8]}"
    if request.param == "memory":
        bus = InProcessBus()
        yield Pair("memory", session, bus, bus)
        await bus.close()
        return
    broker: Broker = request.getfixturevalue("mqtt_broker")
    address = parse_bus_url(broker.url)
    pub, sub = MqttBus(address, session), MqttBus(address, session)
    await pub.start()
    await sub.start()
    yield Pair("mqtt", session, pub, sub)
    await sub.close()
    await pub.close()


async def take(sub: Subscription, n: int) -> list[Message | Dropped]:
    async with asyncio.timeout(GUARD):
        return [await sub.get() for _ in range(n)]


def seqs(items: list[Message | Dropped]) -> list[int]:
    return [getattr(m, "seq", -1) for m in items]


async def test_order_is_kept_per_topic_and_across_topics(pair: Pair) -> None:
    everything = await pair.sub.subscribe("#")
    turns = await pair.sub.subscribe("events/TurnStarted")
    n = 300
    for i in range(1, n + 1):
        if i % 3:
            await pair.pub.publish(turn(pair.session, i))
        else:
            await pair.pub.publish(MessagePosted(session=pair.session, seq=i, text=f"m{i}"))
    assert seqs(await take(everything, n)) == list(range(1, n + 1))
    assert seqs(await take(turns, n - n // 3)) == [i for i in range(1, n + 1) if i % 3]


async def test_fan_out_reaches_every_subscriber(pair: Pair) -> None:
    subs = [await pair.sub.subscribe("#"), await pair.sub.subscribe("#"), await pair.sub.subscribe("events/#")]
    if pair.pub is not pair.sub:
        subs.append(await pair.pub.subscribe("events/TurnStarted"))
    for i in range(1, 21):
        await pair.pub.publish(turn(pair.session, i))
    for sub in subs:
        assert seqs(await take(sub, 20)) == list(range(1, 21))


async def test_every_event_and_command_passes_unchanged(pair: Pair) -> None:
    sub = await pair.sub.subscribe("#")
    messages: list[Message] = [*event_samples(pair.session), *command_samples(pair.session)]
    for m in messages:
        await pair.pub.publish(m)
    got = await take(sub, len(messages))
    if pair.kind == "mqtt":  # a token never goes on the broker (channel.credentials)
        assert all(m.token is None for m in got if isinstance(m, _Command))
        got = [
            m.model_copy(update={"token": w.token}) if isinstance(m, _Command) else m
            for m, w in zip(got, messages, strict=True)
        ]
    assert got == messages


async def test_topic_patterns(pair: Pair) -> None:
    s = pair.session
    one_level = await pair.sub.subscribe("events/+")
    posts = await pair.sub.subscribe("events/MessagePosted/#")
    dms = await pair.sub.subscribe("events/MessagePosted/dm/+")
    commands = await pair.sub.subscribe("cmd/#")
    presence = await pair.sub.subscribe("presence/+")
    reviews = await pair.sub.subscribe("cmd/DecideReview")
    sent: list[Message] = [
        turn(s, 1),
        MessagePosted(session=s, seq=2, text="hi all"),
        MessagePosted(session=s, seq=3, text="psst", to="bob"),
        SetNorm(session=s, key="own_task_only", value=True),
        DecideReview(session=s, request_id="r1", decision="approved"),
        PresenceChanged(session=s, participant="viewer-9", role="viewer", status="online"),
        turn(s, 4),
    ]
    for m in sent:
        await pair.pub.publish(m)
    assert await take(one_level, 2) == [sent[0], sent[6]]
    assert await take(posts, 2) == [sent[1], sent[2]]
    assert await take(dms, 1) == [sent[2]]
    assert await take(commands, 2) == [sent[3], sent[4]]
    assert await take(reviews, 1) == [sent[4]]
    assert await take(presence, 1) == [sent[5]]
    # Nothing else arrived on the narrow patterns: a marker sent last is the next item everywhere.
    marker = DecideReview(session=s, request_id="end", decision="rejected")
    await pair.pub.publish(marker)
    assert await take(reviews, 1) == [marker]
    assert await take(commands, 1) == [marker]


async def test_large_payloads_arrive_whole(pair: Pair) -> None:
    sub = await pair.sub.subscribe("events/#")
    big = "".join(f"+line {i} {'x' * 90}\n" for i in range(20_000))  # ~2 MB diff
    sent = [turn(pair.session, 1, payload=big), turn(pair.session, 2), turn(pair.session, 3, payload=big[::-1])]
    for m in sent:
        await pair.pub.publish(m)
    assert await take(sub, 3) == sent


async def test_closing_a_subscription_stops_it_only(pair: Pair) -> None:
    a = await pair.sub.subscribe("#")
    b = await pair.sub.subscribe("#")
    await pair.pub.publish(turn(pair.session, 1))
    assert seqs(await take(a, 1)) == [1]
    await a.close()
    await pair.pub.publish(turn(pair.session, 2))
    assert seqs(await take(b, 2)) == [1, 2]
    with pytest.raises(StopAsyncIteration):
        await a.get()


async def test_closing_the_bus_ends_iteration_after_what_was_queued(pair: Pair) -> None:
    sub = await pair.sub.subscribe("#")
    witness = await pair.sub.subscribe("#")
    for i in range(1, 5):
        await pair.pub.publish(turn(pair.session, i))
    assert seqs(await take(sub, 1)) == [1]
    await take(witness, 4)  # so 2 and 3 are queued in this process when the bus closes
    await pair.sub.close()
    async with asyncio.timeout(GUARD):
        rest = [m async for m in sub]
    assert seqs(rest)[:2] == [2, 3]
    with pytest.raises(BusClosed):
        await pair.sub.publish(turn(pair.session, 9))
    late = await pair.sub.subscribe("#")
    with pytest.raises(StopAsyncIteration):
        await late.get()


async def test_a_slow_blocking_subscriber_loses_nothing(pair: Pair) -> None:
    slow = await pair.sub.subscribe("#", maxsize=3, overflow="block")
    n = 200

    async def publisher() -> None:
        for i in range(1, n + 1):
            await pair.pub.publish(turn(pair.session, i))

    async def consumer() -> list[Message | Dropped]:
        got = []
        for _ in range(n):
            got.append(await slow.get())
            if len(got) % 10 == 0:
                await asyncio.sleep(0.001)
        return got

    async with asyncio.timeout(GUARD):
        _, got = await asyncio.gather(publisher(), consumer())
    assert seqs(got) == list(range(1, n + 1))


async def test_a_dropping_subscriber_announces_every_loss(pair: Pair) -> None:
    dropping = await pair.sub.subscribe("#", maxsize=5, overflow="drop")
    witness = await pair.sub.subscribe("#")
    n = 60
    for i in range(1, n + 1):
        await pair.pub.publish(turn(pair.session, i))
    await take(witness, n)  # everything has reached this process
    delivered: list[int] = []
    dropped = 0
    async with asyncio.timeout(GUARD):
        while len(delivered) + dropped < n:
            item = await dropping.get()
            if isinstance(item, Dropped):
                dropped += item.count
            else:
                delivered.append(item.seq)  # type: ignore[union-attr]
    assert delivered == [1, 2, 3, 4, 5]
    assert dropped == n - 5
    # After the notice, the subscription goes on normally.
    await pair.pub.publish(turn(pair.session, n + 1))
    assert seqs(await take(dropping, 1)) == [n + 1]
