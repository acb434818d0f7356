"""Signed traffic (issue 31): a viewer holding the session's key gets the engine's events, its
history and its presence, and drops (with a count and a warning) what anyone else publishes on the
engine's topics: a forged ``SessionEnded`` with seq 10^9 never reaches it. Real mosquitto, loopback."""

from __future__ import annotations

import asyncio
import logging
import uuid

import aiomqtt
import pytest

from channel.codec import encode
from channel.connect import parse_bus_url
from channel.events import PresenceChanged, SessionEnded
from channel.mqtt import MqttBus
from channel.signing import SigningKeyError, new_key, parse_key
from tests.channel.broker import Broker
from tests.channel.samples import turn

GUARD = 30.0


def test_a_key_is_64_hex_digits() -> None:
    key = new_key()
    assert parse_key(key.hex()) == key
    with pytest.raises(SigningKeyError, match="--key: expected 64 hex digits"):
        parse_key("abc")


async def test_forged_events_are_dropped_and_genuine_ones_delivered(
    mqtt_broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    session, key = f"t-{uuid.uuid4().hex[:8]}", new_key()
    address = parse_bus_url(mqtt_broker.url)
    engine = MqttBus(address, session, participant="engine", role="engine", key=key)
    viewer = MqttBus(address, session, key=key)
    events = await viewer.subscribe("events/#")
    presence = await viewer.subscribe("presence/engine")
    history = [turn(session, 1), turn(session, 2)]
    await engine.serve_history(history)
    forged_end = SessionEnded(session=session, seq=10**9, reason="completed")
    with caplog.at_level(logging.WARNING, logger="scopewatch.mqtt"):
        async with aiomqtt.Client("127.0.0.1", mqtt_broker.port) as raw:
            await raw.publish(f"scopewatch/v1/{session}/events/session/SessionEnded", encode(forged_end), qos=1)
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
    unkeyed = MqttBus(address, session, key=new_key())  # a wrong key drops even the engine's events
    wrong = await unkeyed.subscribe("events/#")
    await engine.publish(turn(session, 3))
    await asyncio.sleep(0.5)
    assert unkeyed.forged >= 1 and not wrong._items
    for bus in (engine, viewer, unkeyed):
        await bus.close()
