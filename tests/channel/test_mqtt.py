"""What the MQTT bus adds to the contract: the topic tree on the wire, presence with a Last Will,
re-sends seen once, surviving a broker restart, late joiners, and one-line errors."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import uuid
from pathlib import Path

import aiomqtt
import pytest

from channel.broker import BusConnectError
from channel.codec import decode, decode_event, encode
from channel.commands import DecideReview
from channel.connect import BusURLError, connect_bus, parse_bus_url
from channel.emitter import Emitter
from channel.events import Event, PresenceChanged, TurnStarted
from channel.mqtt import MqttBus
from channel.recorder import Recorder
from tests.channel.broker import Broker, free_port
from tests.channel.samples import turn

GUARD = 30.0
ROOT = Path(__file__).resolve().parents[2]


def new_session() -> str:
    return f"t-{uuid.uuid4().hex[:8]}"


async def test_messages_are_on_the_documented_topics_as_codec_json(mqtt_broker: Broker) -> None:
    session = new_session()
    bus = MqttBus(parse_bus_url(mqtt_broker.url), session)
    event = turn(session, 1)
    command = DecideReview(session=session, request_id="r1", decision="approved", sender="mosquitto_pub")
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port) as raw:
        await raw.subscribe(f"scopewatch/v1/{session}/#", qos=1)
        await bus.publish(event)
        await bus.publish(command)
        async with asyncio.timeout(GUARD):
            got = [await anext(raw.messages) for _ in range(2)]
    await bus.close()
    assert [m.topic.value for m in got] == [
        f"scopewatch/v1/{session}/events/TurnStarted",
        f"scopewatch/v1/{session}/cmd/DecideReview",
    ]
    assert [m.payload for m in got] == [encode(event), encode(command)]


async def test_a_plain_mqtt_client_can_send_a_command(mqtt_broker: Broker) -> None:
    session = new_session()
    bus = MqttBus(parse_bus_url(mqtt_broker.url), session)
    commands = await bus.subscribe("cmd/#")
    payload = json.dumps({"kind": "DecideReview", "session": session, "request_id": "r7", "decision": "rejected"})
    async with aiomqtt.Client("127.0.0.1", mqtt_broker.port) as raw:
        await raw.publish(f"scopewatch/v1/{session}/cmd/DecideReview", b"not json at all", qos=1)
        await raw.publish(f"scopewatch/v1/{session}/cmd/DecideReview", payload, qos=1)
    async with asyncio.timeout(GUARD):
        got = await commands.get()
    assert got == DecideReview(session=session, request_id="r7", decision="rejected")
    assert bus.rejected == 1  # the bad payload was skipped and counted, not delivered
    await bus.close()


async def test_a_resent_event_is_delivered_once(mqtt_broker: Broker) -> None:
    session = new_session()
    address = parse_bus_url(mqtt_broker.url)
    pub, sub = MqttBus(address, session), MqttBus(address, session)
    events = await sub.subscribe("events/#")
    for seq in (1, 2, 2, 1, 3):
        await pub.publish(turn(session, seq))
    async with asyncio.timeout(GUARD):
        got = [await events.get() for _ in range(3)]
    assert [m.seq for m in got] == [1, 2, 3]  # type: ignore[union-attr]
    await pub.close()
    await sub.close()


PARTICIPANT = """
import asyncio, sys
from channel.connect import connect_bus

async def main():
    bus = connect_bus(sys.argv[1], sys.argv[2], participant="agent-x", role="agent")
    await bus.start()
    print("ready", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_a_killed_participant_shows_as_left(mqtt_broker: Broker) -> None:
    session = new_session()
    viewer = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="viewer-1", role="viewer")
    presence = await viewer.subscribe("presence/#")  # a participant's connections: presence/NAME/CONNECTION
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PARTICIPANT, mqtt_broker.url, session, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"ready"
        seen: list[tuple[str, str]] = []
        async with asyncio.timeout(GUARD):
            while ("agent-x", "online") not in seen:
                m = await presence.get()
                assert isinstance(m, PresenceChanged)
                seen.append((m.participant, m.status))
            proc.send_signal(signal.SIGKILL)
            while seen[-1] != ("agent-x", "left"):
                m = await presence.get()
                assert isinstance(m, PresenceChanged)
                seen.append((m.participant, m.status))
        assert ("viewer-1", "online") in seen
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    await viewer.close()
    # The Will is retained: a late joiner sees "left" too; the viewer said "left" on close.
    late = MqttBus(parse_bus_url(mqtt_broker.url), session)
    states = await late.subscribe("presence/#")
    async with asyncio.timeout(GUARD):
        got = {m.participant: m.status for m in [await states.get(), await states.get()]}  # type: ignore[union-attr]
    assert got == {"agent-x": "left", "viewer-1": "left"}
    await late.close()


async def test_a_broker_restart_loses_nothing_and_duplicates_nothing(make_broker, tmp_path: Path) -> None:
    broker: Broker = make_broker()
    session = new_session()
    address = parse_bus_url(broker.url)
    engine_bus = MqttBus(address, session, participant="engine", role="engine")
    viewer_bus = MqttBus(address, session, participant="viewer", role="viewer")
    recording = tmp_path / "viewer.jsonl"
    recorder = Recorder(recording)
    n, cut = 400, 150
    events = await viewer_bus.subscribe("events/#")

    async def record() -> None:
        while True:
            m = await events.get()
            if isinstance(m, TurnStarted):
                recorder.write(m)
                if m.seq == n:
                    return

    emitter = Emitter(engine_bus, session)

    async def run_session() -> None:
        for i in range(1, n + 1):
            await emitter.emit(TurnStarted(actor="alice", episode=1, turn=i, budget_left=0))
            if i == cut:
                await asyncio.to_thread(broker.stop)  # SIGTERM: the broker saves its state and exits
                restart = asyncio.create_task(asyncio.sleep(0.3))
                restart.add_done_callback(lambda _: broker.start())

    async with asyncio.timeout(GUARD):
        await asyncio.gather(run_session(), record())
    recorder.close()
    seqs = [decode_event(line).seq for line in recording.read_bytes().splitlines()]  # turns only: no SessionStarted
    assert seqs == list(range(1, n + 1)), f"gaps or duplicates; broker log:\n{broker.log()[-2000:]}"
    assert engine_bus.reconnects >= 1 and viewer_bus.reconnects >= 1
    await viewer_bus.close()
    await engine_bus.close()


async def test_a_late_joiner_gets_the_history_then_the_live_stream(mqtt_broker: Broker) -> None:
    session = new_session()
    address = parse_bus_url(mqtt_broker.url)
    engine_bus = MqttBus(address, session)
    history: list[Event] = []
    emitter = Emitter(engine_bus, session)
    emitter.add_listener(history.append)
    await engine_bus.serve_history(history)
    for i in range(1, 6):
        await emitter.emit(TurnStarted(episode=1, turn=i, budget_left=0))
    viewer = MqttBus(address, session)
    assert [e.seq for e in await viewer.fetch_history()] == [1, 2, 3, 4, 5]
    assert [e.seq for e in await viewer.fetch_history(after=3)] == [4, 5]
    await engine_bus.close()
    with pytest.raises(BusConnectError, match="no engine answered"):
        await viewer.fetch_history(wait=0.2)
    await viewer.close()


def test_bus_urls_parse_or_fail_in_one_line() -> None:
    a = parse_bus_url("mqtt://u%40x:p%3As@broker.lan:1884")
    assert (a.host, a.port, a.username, a.password, a.tls) == ("broker.lan", 1884, "u@x", "p:s", False)
    assert a.display == "mqtt://u@x@broker.lan:1884" and "p:s" not in repr(a)
    t = parse_bus_url("mqtts://h?ca=/etc/ca.pem&insecure=1")
    assert (t.port, t.tls, t.ca_file, t.insecure) == (8883, True, "/etc/ca.pem", True)
    assert parse_bus_url("mqtt://localhost").port == 1883
    for bad, why in [
        ("http://h:1", "unknown scheme 'http'"),
        ("localhost:1883", "unknown scheme"),
        ("mqtt://:1883", "no host"),
        ("mqtt://h:99999", "--bus 'mqtt://h:99999'"),
        ("mqtt://h/x", "unexpected path"),
        ("mqtts://h?verify=0", "unknown option 'verify'"),
        ("mqtt://h?ca=x", "TLS options need mqtts://"),
    ]:
        with pytest.raises(BusURLError, match=why) as info:
            parse_bus_url(bad)
        assert "\n" not in str(info.value)


async def test_connect_bus_picks_the_bus_and_names_an_unreachable_broker() -> None:
    bus = connect_bus(f"mqtt://127.0.0.1:{free_port()}", "s")
    assert isinstance(bus, MqttBus)
    with pytest.raises(BusConnectError, match=r"mqtt://127\.0\.0\.1:\d+: cannot connect to the MQTT broker"):
        await bus.start()
    await bus.close()


def test_codec_round_trip_is_what_goes_on_the_wire() -> None:
    m = turn("s", 3)
    assert decode(encode(m)) == m


def test_every_broker_bus_of_the_product_comes_from_connect_bus() -> None:
    root = Path(__file__).resolve().parents[2]
    built = [
        p.relative_to(root).as_posix()
        for folder in ("channel", "engine", "sandbox", "scenarios", "tui")
        for p in (root / folder).rglob("*.py")
        if "MqttBus(" in p.read_text(encoding="utf-8").replace("class MqttBus(", "")
    ]
    assert built == ["channel/connect.py"]
