"""Commands are checked before they act or are recorded (issue 31): bad numbers, huge fields, unknown
norms and another session's commands are refused with an event; a flood becomes a bounded number of
events. Against a real mosquitto on loopback, sent by a plain MQTT client."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from pathlib import Path

import aiomqtt
import pytest
from pydantic import ValidationError

from channel.commands import SetNorm, SetSpeed
from channel.connect import parse_bus_url
from channel.emitter import Emitter
from channel.events import CommandRefused, SpeedChanged
from channel.mqtt import MqttBus
from channel.ratelimit import Rate, RateLimiter
from channel.recorder import Recorder, load_recording
from channel.vocab.norms import Norms
from engine.session.controls import SessionControls
from engine.session.gate import PER_SENDER, CommandGate
from tests.channel.broker import Broker
from tests.channel.samples import event_samples

GUARD = 60.0


def test_numbers_must_be_finite_and_in_range_and_texts_bounded() -> None:
    for bad in ({"speed": float("inf")}, {"speed": 1e9}, {"speed": 0}):
        with pytest.raises(ValidationError):
            SetSpeed(session="s", **bad)
    with pytest.raises(ValidationError, match="unknown norm"):
        SetNorm(session="s", key="no_such_norm", value=True)
    with pytest.raises(ValidationError):
        SetNorm(session="s" * 5000, key="admin_only", value=True)


def test_a_flood_from_one_sender_is_one_refusal_then_one_count() -> None:
    now = [0.0]
    gate = CommandGate("s", per_sender=Rate(3, 1.0), overall=Rate(1000, 1000.0), clock=lambda: now[0])
    verdicts = [gate.admit("mallory", "Pause", "s") for _ in range(10_000)]
    assert sum(ok for ok, _ in verdicts) == 3
    refusals = [r for _, r in verdicts if r is not None]
    assert len(refusals) == 1 and "rate limit" in refusals[0].reason
    assert gate.settle() == []  # still flooding
    now[0] = 10.0
    (count,) = gate.settle()
    assert "9996 more command(s) refused" in count.reason
    assert gate.admit("mallory", "Pause", "other")[1] is not None  # the wrong session is refused


def test_made_up_sender_names_do_not_grow_the_limiter() -> None:
    limiter = RateLimiter(Rate(1, 0.0), max_keys=10)
    assert sum(limiter.take(f"sender-{i}") for i in range(1000)) == 10 + 1  # then all share one bucket
    assert len(limiter._buckets) == 11


async def test_a_bad_speed_and_a_flood_over_mqtt_leave_a_readable_bounded_recording(
    mqtt_broker: Broker, tmp_path: Path
) -> None:
    session = f"t-{uuid.uuid4().hex[:8]}"
    bus = MqttBus(parse_bus_url(mqtt_broker.url), session)
    path = tmp_path / "rec.jsonl"
    emitter = Emitter(bus, session, recorder=Recorder(path))
    await emitter.emit(event_samples(session)[0])  # SessionStarted
    counted, settled = asyncio.Event(), asyncio.Event()

    def on_event(event: object) -> None:
        if "more command(s) refused" in getattr(event, "reason", ""):
            counted.set()
        if isinstance(event, SpeedChanged) and event.speed == 2.0:
            settled.set()  # the last command before the flood has been acted on

    emitter.add_listener(on_event)
    controls = SessionControls(emitter.emit, Norms(), on_decision=lambda _: None, session=session)
    commands = await bus.subscribe("cmd/#")
    bus.on_rejected(controls.refuse)
    listener = asyncio.create_task(controls.listen(commands))
    topic = f"scopewatch/v1/{session}/cmd/"
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port) as raw:
        await raw.publish(
            topic + "SetSpeed", b'{"kind":"SetSpeed","session":"%s","speed":1e999}' % session.encode(), qos=1
        )
        huge = json.dumps(
            {
                "kind": "DecideReview",
                "session": session,
                "request_id": "r",
                "decision": "approved",
                "comment": "x" * 5_000_000,
            }
        )
        await raw.publish(topic + "DecideReview", huge.encode(), qos=1)
        await raw.publish(topic + "Pause", json.dumps({"kind": "Pause", "session": "someone-else"}).encode(), qos=1)
        await raw.publish(topic + "SetSpeed", json.dumps({"kind": "SetSpeed", "session": session, "speed": 2}), qos=1)
        async with asyncio.timeout(GUARD):
            await settled.wait()  # the four commands before the flood are handled before it starts
        flood = json.dumps({"kind": "SetSpeed", "session": session, "sender": "flooder", "speed": 4}).encode()
        started = time.monotonic()
        for _ in range(10_000):
            await raw.publish(topic + "SetSpeed", flood, qos=0)
        await raw.publish(topic + "SetSpeed", flood, qos=1)
    async with asyncio.timeout(GUARD):
        await counted.wait()
    flooding = time.monotonic() - started
    listener.cancel()
    emitter.recorder.close()  # type: ignore[union-attr]
    await bus.close()
    events = load_recording(path)  # readable: no speed: null, no 5 MB line
    assert max(len(line) for line in path.read_bytes().splitlines()) < 10_000
    refused = [e for e in events if isinstance(e, CommandRefused)]
    reasons = " | ".join(e.reason for e in refused)
    assert "speed" in reasons and "finite" in reasons
    assert "comment" in reasons or "bytes" in reasons
    assert "someone-else" in reasons
    speeds = [e for e in events if isinstance(e, SpeedChanged)]
    assert speeds[0].speed == 2.0
    # the bound is the sender's bucket: its burst plus its rate over however long the flood took to
    # arrive (a loaded machine takes longer, and the bucket refills meanwhile), never the flood's size
    accepted = PER_SENDER.burst + PER_SENDER.per_second * flooding + 3
    assert len(speeds) <= accepted, f"{len(speeds)} speed changes from a flood over {flooding:.1f} s"
    assert len(events) < 100 + accepted, f"a flood of 10,000 commands became {len(events)} events"
    assert sum("rate limit" in e.reason for e in refused) <= 4


async def test_history_requests_are_rate_limited_per_client(mqtt_broker: Broker) -> None:
    from channel.broker import BusConnectError
    from channel.replay import PER_CLIENT

    session = f"t-{uuid.uuid4().hex[:8]}"
    engine = MqttBus(parse_bus_url(mqtt_broker.url), session)
    await engine.serve_history(event_samples(session)[:5])
    joiner = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="greedy")
    async with asyncio.timeout(GUARD):
        answers = await asyncio.gather(
            *(joiner.fetch_history() for _ in range(3 * PER_CLIENT.burst)), return_exceptions=True
        )
        served = [a for a in answers if isinstance(a, list)]
        refused = [str(a) for a in answers if isinstance(a, BusConnectError)]
        assert len(served) + len(refused) == len(answers)
        assert all(len(a) == 5 for a in served) and 0 < len(served) <= PER_CLIENT.burst + 2
        assert refused and all("refused history" in r for r in refused)
        other = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="polite")
        assert len(await other.fetch_history()) == 5  # another client is not punished
    for bus in (engine, joiner, other):
        await bus.close()
