"""Which sessions are live (channel/discovery.py): ``find_sessions`` lists a session only when its engine's
retained presence says "online" and is signed by the key the session announced; an engine that left,
an unsigned or forged presence, and a genuine presence moved to another session's topic are not
listed, and ``watch`` without ``--session`` says so in one line. Real mosquitto, loopback, a broker
of its own per test (nothing else announced on it)."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import aiomqtt
import pytest

from channel.broker import BrokerAddress
from channel.codec import encode
from channel.connect import parse_bus_url
from channel.discovery import ENGINE, find_sessions
from channel.events import PresenceChanged
from channel.mqtt import MqttBus
from channel.signing import KEY_TOPIC, SessionKey, announcement, new_key, signed
from channel.vocab.topics import ROOT
from tests.channel.broker import Broker
from tui.remote import RemoteError, resolve_session


def _id() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


async def _engine(address: BrokerAddress, session: str, key: SessionKey | None = None) -> MqttBus:
    engine = MqttBus(address, session, participant="engine", role="engine", key=key or new_key())
    await engine.start()  # the key announced, presence "online", both retained and signed
    return engine


async def _publish(broker: Broker, topic: str, payload: bytes, props: object = None) -> None:
    async with aiomqtt.Client("127.0.0.1", broker.port, protocol=aiomqtt.ProtocolVersion.V5) as raw:
        await raw.publish(topic, payload, qos=1, retain=True, properties=props)  # type: ignore[arg-type]


def _online(session: str) -> bytes:
    return encode(PresenceChanged(session=session, participant="engine", role="engine", status="online"))


def _sig(key: SessionKey, topic: str, session: str) -> object:
    """The properties signing ``session``'s "online" presence for ``topic`` with ``key``."""
    return signed(key, topic, _online(session))


async def _announce(broker: Broker, session: str, key: SessionKey) -> None:
    """``key`` announced for ``session``, retained and self-signed, as an engine does."""
    topic, note = f"{ROOT}/{session}/{KEY_TOPIC}", announcement(session, key)
    await _publish(broker, topic, note, signed(key, topic, note))


async def test_only_live_engines_are_listed(make_broker: Callable[[], Broker]) -> None:
    broker = make_broker()
    address = parse_bus_url(broker.url)
    live, gone = _id(), _id()
    first = await _engine(address, live)
    second = await _engine(address, gone)
    assert {p.session for p in await find_sessions(address)} == {live, gone}
    await second.close()  # says "left", retained and signed
    found = await find_sessions(address)
    assert [(p.session, p.status) for p in found] == [(live, "online")]
    assert await resolve_session(address, None) == live
    await first.close()
    assert await find_sessions(address) == []
    with pytest.raises(RemoteError, match=r"--session: no session announced on .* is live"):
        await resolve_session(address, None)


async def test_an_unsigned_or_forged_presence_is_not_a_live_session(make_broker: Callable[[], Broker]) -> None:
    broker = make_broker()
    address = parse_bus_url(broker.url)
    # No key announced, an unsigned "online": an engine from before signing, or anyone.
    unsigned = _id()
    await _publish(broker, f"{ROOT}/{unsigned}/{ENGINE}", _online(unsigned))
    # A key announced (self-signed), but the "online" is signed by another key.
    forged, key, other = _id(), new_key(), new_key()
    await _announce(broker, forged, key)
    topic = f"{ROOT}/{forged}/{ENGINE}"
    await _publish(broker, topic, _online(forged), _sig(other, topic, forged))
    # A genuine engine's presence copied onto another session that announces the same key.
    engine_session, engine_key = _id(), new_key()
    engine = await _engine(address, engine_session, engine_key)
    await _announce(broker, copy := _id(), engine_key)
    moved = _sig(engine_key, f"{ROOT}/{engine_session}/{ENGINE}", engine_session)
    await _publish(broker, f"{ROOT}/{copy}/{ENGINE}", _online(engine_session), moved)
    try:
        assert [p.session for p in await find_sessions(address)] == [engine_session]
        # Signed by the announced key, the same "online" is listed.
        await _publish(broker, topic, _online(forged), _sig(key, topic, forged))
        assert {p.session for p in await find_sessions(address)} == {engine_session, forged}
    finally:
        await engine.close()
