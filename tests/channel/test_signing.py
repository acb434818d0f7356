"""Signed traffic (issue 31): the engine signs with a per-session Ed25519 key, viewers check with the
public key alone. A viewer holding the key gets the engine's events, its history and its presence,
and drops (with a count, a warning and a notice) what anyone else publishes on the engine's topics:
a forged ``SessionEnded`` with seq 10^9 never reaches it; a viewer holding everything a watcher holds
(the public key, a watcher token, every message it saw) cannot forge what another watcher accepts.
The engine announces its public key retained; a pinned key that differs is refused in one line.
Real mosquitto, loopback."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import io
import logging
import subprocess
import uuid

import aiomqtt
import pytest
from paho.mqtt.packettypes import PacketTypes

from channel.broker import RECORDING, properties
from channel.codec import encode
from channel.commands import Pause
from channel.connect import parse_bus_url
from channel.credentials import CommandGuard, Credentials
from channel.discovery import engine_presence
from channel.emitter import Emitter
from channel.events import Event, PresenceChanged, SessionEnded, SessionStarted, TurnStarted
from channel.mqtt import MqttBus
from channel.signing import (
    KEY_TOPIC,
    PROPERTY,
    SigningKeyError,
    announcement,
    fetch_key,
    new_key,
    parse_key,
    session_key,
)
from tests.channel.broker import Broker
from tests.channel.samples import turn
from tests.e2e.support import cli, until
from tui.cli.review import ReviewConsole
from tui.remote import RemoteError, attach_app, ended_session

GUARD = 30.0


def test_a_key_is_64_hex_digits_of_the_public_key() -> None:
    key = new_key()
    assert parse_key(key.public.hex()) == key.public
    assert key.public.hex() in repr(key)  # the repr shows the public half only
    with pytest.raises(SigningKeyError, match="--key: expected 64 hex digits"):
        parse_key("abc")


def _sig(value: str) -> object:
    props = properties(PacketTypes.PUBLISH)
    props.UserProperty = [(PROPERTY, value)]
    return props


async def test_forged_events_are_dropped_and_genuine_ones_delivered(
    mqtt_broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    viewer = MqttBus(address, session, key=key.public)
    events = await viewer.subscribe("events/#")
    presence = await viewer.subscribe("presence/engine")
    history = [turn(session, 1), turn(session, 2)]
    await engine.serve_history(history)
    forged_end = SessionEnded(session=session, seq=10**9, reason="completed")
    with caplog.at_level(logging.WARNING, logger="scopewatch.mqtt"):
        async with aiomqtt.Client("127.0.0.1", mqtt_broker.port) as raw:
            await raw.publish(f"scopewatch/v1/{session}/events/SessionEnded", encode(forged_end), qos=1)
        await engine.publish(history[0])
        await engine.publish(history[1])
        async with asyncio.timeout(GUARD):
            assert [await events.get(), await events.get()] == history
            while not isinstance(online := await presence.get(), PresenceChanged):
                pass
            assert online.status == "online"
            assert await viewer.fetch_history() == history  # signed history replies check out
    assert viewer.forged == 1
    assert "not signed by the engine" in caplog.text
    unkeyed = MqttBus(address, session, key=new_key().public)  # a wrong key drops even the engine's events
    dropped = asyncio.Event()
    unkeyed.on_forged(lambda _topic, _count: dropped.set())
    wrong = await unkeyed.subscribe("events/#")
    await engine.publish(turn(session, 3))
    async with asyncio.timeout(GUARD):
        await dropped.wait()
    assert unkeyed.forged >= 1 and not wrong._items
    for bus in (engine, viewer, unkeyed):
        await bus.close()


async def test_a_viewer_holding_everything_a_watcher_has_cannot_forge_an_event(mqtt_broker: Broker) -> None:
    """Mallory has the public key (the join line), a watcher token, and every message with its
    properties as the broker delivered it (none of which holds a credential: no token, master secret
    or private key). She tries: no signature, an HMAC keyed with the public key
    (what the HMAC scheme accepted from any key holder), an Ed25519 signature of her own, a genuine
    signature moved onto her payload, and a genuine message replayed. Alice accepts none of them."""
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    credentials = Credentials()
    watcher_token, instructor = credentials.issue("watcher").token, credentials.issue("instructor")
    engine = MqttBus(address, session, participant="engine", role="engine", key=key, guard=CommandGuard(credentials))
    alice = MqttBus(address, session, key=key.public)
    teacher = MqttBus(address, session, participant="teacher", key=key.public, credential=instructor)
    stream = await alice.subscribe("events/#")
    await engine.start()
    topic = f"scopewatch/v1/{session}/events/TurnStarted"
    captured: list[aiomqtt.Message] = []
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as mallory:
        await mallory.subscribe(f"scopewatch/v1/{session}/#", qos=1)
        await engine.publish(turn(session, 1))
        await teacher.publish(Pause(session=session, sender="teacher"))
        async with asyncio.timeout(GUARD):
            assert await stream.get() == turn(session, 1)
            async for m in mallory.messages:  # everything a passive subscriber reads, with its properties
                captured.append(m)
                if {topic, f"scopewatch/v1/{session}/cmd/Pause"} <= {c.topic.value for c in captured}:
                    break
        secrets = (instructor.key.hex(), credentials.master.hex(), key._private.private_bytes_raw().hex())
        seen = " ".join(f"{c.payload!r} {c.properties}" for c in captured)
        assert watcher_token.split(".")[-1] not in seen and not any(s in seen for s in secrets)
        event = next(c for c in captured if c.topic.value == topic)
        genuine_sig = dict(event.properties.UserProperty)[PROPERTY]  # type: ignore[union-attr]
        fake = encode(SessionEnded(session=session, seq=2, reason="completed"))
        end_topic = f"scopewatch/v1/{session}/events/SessionEnded"
        as_watcher = MqttBus(address, session, key=key.public)  # her own bus, with everything she holds
        await as_watcher.publish_raw("events/SessionEnded", fake)
        hmac_sig = hmac.new(key.public, end_topic.encode() + b"\0" + fake, hashlib.sha256).hexdigest()
        await mallory.publish(end_topic, fake, qos=1, properties=_sig(hmac_sig))
        await mallory.publish(end_topic, fake, qos=1, properties=_sig(new_key().sign(end_topic, fake)))
        await mallory.publish(end_topic, fake, qos=1, properties=_sig(genuine_sig))
        await mallory.publish(topic, event.payload, qos=1, properties=event.properties)  # a replay
        await as_watcher.close()
    await engine.publish(turn(session, 2))
    async with asyncio.timeout(GUARD):
        assert await stream.get() == turn(session, 2)  # the next genuine event, nothing forged before it
    assert alice.forged == 4 and not stream._items
    for bus in (engine, alice, teacher):
        await bus.close()


async def test_a_forged_event_is_dropped_with_a_notice_to_the_reviewer(mqtt_broker: Broker) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    bus = MqttBus(address, session, key=key.public)
    out = io.StringIO()
    ReviewConsole(bus, out=out)
    await bus.subscribe("events/#")
    impostor = MqttBus(address, session, participant="engine", role="engine", key=new_key())
    await impostor.publish(SessionEnded(session=session, seq=5, reason="completed"))
    await until(lambda: "dropped 1 message(s) not signed by the engine" in out.getvalue(), "the reviewer's notice")
    assert "events/SessionEnded" in out.getvalue()
    for b in (bus, impostor):
        await b.close()


async def test_the_announced_key_is_trusted_on_first_use_and_a_pinned_one_is_checked(mqtt_broker: Broker) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    await engine.start()  # announces the public key, retained, signed by itself
    assert await fetch_key(address, session) == key.public
    assert await session_key(address, session, None) == key.public  # trust on first use
    assert await session_key(address, session, key.public) == key.public
    other = new_key()
    with pytest.raises(SigningKeyError, match=f"session {session} announces a different signing key") as refused:
        await session_key(address, session, other.public)
    assert "\n" not in str(refused.value)
    # An announcement not signed by the key it names is no announcement.
    lone = f"t-{uuid.uuid4().hex[:8]}"
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as raw:
        await raw.publish(f"scopewatch/v1/{lone}/{KEY_TOPIC}", announcement(lone, other), qos=1, retain=True)
    assert await fetch_key(address, lone) is None
    await engine.close()


def test_watch_and_review_refuse_a_pinned_key_the_session_does_not_use_in_one_line(mqtt_broker: Broker) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)

    async def announce() -> MqttBus:
        engine = MqttBus(address, session, participant="engine", role="engine", key=key)
        await engine.start()
        await engine.close()
        return engine

    asyncio.run(announce())
    pinned = new_key().public.hex()
    for command in ("watch", "review"):
        done = subprocess.run(
            [*cli(command, "--bus", mqtt_broker.url, "--session", session, "--key", pinned)],
            capture_output=True,
            text=True,
            timeout=GUARD,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "announces a different signing key" in done.stderr


async def test_the_retained_recording_is_checked_against_the_key(mqtt_broker: Broker) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    recording = encode(turn(session, 1)) + b"\n"
    await engine.publish_raw(RECORDING, recording, retain=True)
    assert await ended_session(address, session, key.public) == [turn(session, 1)]
    await engine.close()
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as raw:
        fake = encode(turn(session, 2)) + b"\n"
        await raw.publish(f"scopewatch/v1/{session}/{RECORDING}", fake, qos=1, retain=True)
    with pytest.raises(RemoteError, match="not signed by the session's engine"):
        await ended_session(address, session, key.public)
    assert await ended_session(address, session) == [turn(session, 2)]  # unchecked without a key


async def test_watch_shows_a_notice_for_a_forged_event_and_never_acts_on_it(mqtt_broker: Broker) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    history: list[Event] = []
    emitter = Emitter(engine, session)
    emitter.add_listener(history.append)
    await engine.serve_history(history)
    await emitter.emit(SessionStarted(scenario="favorbench-mini", seed=3))
    # A forged "left" presence must not make the session look ended to a viewer holding the key.
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as raw:
        left = PresenceChanged(session=session, participant="engine", role="engine", status="left")
        await raw.publish(f"scopewatch/v1/{session}/presence/engine", encode(left), qos=1, retain=True)
    assert await engine_presence(address, session, key.public) is None
    assert (await engine_presence(address, session)) == left  # unchecked without a key
    app = attach_app(address, session, key=key.public, flash_seconds=0, notify_live=False)
    impostor = MqttBus(address, session, key=new_key())
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: app.status.scenario == "favorbench-mini", "the history arrived", pause=pilot.pause)
        await impostor.publish_raw("events/SessionEnded", encode(SessionEnded(session=session, seq=2, reason="x")))
        await until(
            lambda: "not signed by the engine" in app.notices.text,
            "the notice on screen",
            pause=pilot.pause,
        )
        await emitter.emit(TurnStarted(actor="requester", episode=1, turn=1, budget_left=0))
        await until(lambda: app.status.turn == 1, "the next genuine event", pause=pilot.pause)
        assert app.status.state != "ended"
    for bus in (engine, impostor):
        await bus.close()


async def test_a_batch_is_checked_once_as_one_message_and_forged_or_moved_batches_are_dropped(
    mqtt_broker: Broker,
) -> None:
    """Batches (events/batch, channel.outbox) carry one signature over the batch topic and all its
    lines: an unsigned batch, a genuine event's signature moved onto a batch of its payload, and a
    genuine batch replayed are all refused (the first two counted as forged, the replay seen once)."""
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    alice = MqttBus(address, session, key=key.public)
    stream = await alice.subscribe("events/#")
    await engine.start()
    prefix = f"scopewatch/v1/{session}/"
    captured: dict[str, aiomqtt.Message] = {}
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as mallory:
        await mallory.subscribe(prefix + "events/#", qos=1)
        await engine.publish_raw("events/batch", encode(turn(session, 1)) + b"\n" + encode(turn(session, 2)))
        await engine.publish(turn(session, 3))
        async with asyncio.timeout(GUARD):
            assert [await stream.get() for _ in range(3)] == [turn(session, i) for i in (1, 2, 3)]
            async for m in mallory.messages:
                captured[m.topic.value.removeprefix(prefix)] = m
                if len(captured) == 2:
                    break
        fake = encode(SessionEnded(session=session, seq=4, reason="completed"))
        single = captured["events/TurnStarted"]
        await mallory.publish(prefix + "events/batch", fake, qos=1)
        await mallory.publish(prefix + "events/batch", single.payload, qos=1, properties=single.properties)
        batch = captured["events/batch"]
        await mallory.publish(batch.topic.value, batch.payload, qos=1, properties=batch.properties)  # a replay
    await engine.publish(turn(session, 4))
    async with asyncio.timeout(GUARD):
        assert await stream.get() == turn(session, 4)  # the next genuine event, nothing forged before it
    assert alice.forged == 2 and not stream._items
    for bus in (engine, alice):
        await bus.close()
