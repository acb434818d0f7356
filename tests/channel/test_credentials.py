"""Per-role credentials (issue 31): commands are signed with a token that never travels on the bus;
a passive subscriber who captures every command can neither reuse a credential nor replay one; a
watcher's token cannot command; ``serve`` knows when anonymous clients may publish. Real mosquitto,
loopback."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from collections.abc import Callable
from pathlib import Path

import aiomqtt
import pytest
from paho.mqtt.packettypes import PacketTypes

from channel.broker import properties
from channel.commands import Pause, SetNorm
from channel.connect import parse_bus_url
from channel.credentials import (
    NONCE_WINDOW_S,
    CommandGuard,
    CredentialError,
    Credentials,
    new_nonce,
    parse_token,
    sign_command,
)
from channel.exposure import anonymous_publish
from channel.mqtt import MqttBus
from channel.rejects import Rejected
from tests.channel.broker import Broker

GUARD = 30.0
TOPIC = "scopewatch/v1/s-1/cmd/SetNorm"


def _payload(kind: str = "SetNorm", sender: str = "ann", nonce: str | None = None) -> bytes:
    return (
        f'{{"kind":"{kind}","session":"s-1","sender":"{sender}","key":"admin_only","value":true,'
        f'"nonce":"{nonce or new_nonce()}"}}'
    ).encode()


def test_a_token_round_trips_and_a_bad_one_fails_in_one_line() -> None:
    creds = Credentials()
    reviewer = creds.issue("reviewer")
    assert parse_token(reviewer.token) == reviewer
    assert reviewer.token.startswith("sw1.reviewer..")
    for bad in ("", "sw1.admin..00", "sw1.reviewer.." + "zz" * 32, "x" * 70):
        with pytest.raises(CredentialError, match=r"--token: expected sw1\.ROLE\.NAME\.HEX"):
            parse_token(bad)
    with pytest.raises(CredentialError, match="unknown role"):
        creds.issue("admin")


def test_the_guard_checks_signature_role_participant_and_nonce() -> None:
    now = [1_000_000.0]
    creds = Credentials()
    guard = CommandGuard(creds, clock=lambda: now[0])
    instructor, watcher = creds.issue("instructor"), creds.issue("watcher")
    ann = creds.issue("reviewer", "ann")

    def check(cred: object, payload: bytes, topic: str = TOPIC) -> str | None:
        props = sign_command(cred, topic, payload) if cred is not None else None  # type: ignore[arg-type]
        return guard.check(topic, payload, props)

    fresh = lambda: new_nonce(lambda: now[0])  # noqa: E731
    assert check(None, _payload(nonce=fresh())) is not None and "unsigned" in str(check(None, _payload()))
    assert check(instructor, _payload(nonce=fresh())) is None
    other = Credentials().issue("instructor")  # another session's instructor
    assert "bad signature" in str(check(other, _payload(nonce=fresh())))
    assert "role watcher may not send SetNorm" == check(watcher, _payload(nonce=fresh()))
    assert "role reviewer may not send SetNorm" == check(ann, _payload(sender="ann", nonce=fresh()))
    assert check(ann, _payload("DecideReview", sender="ann", nonce=fresh())) is None
    # A room's vote rule (quorum, deadline) is the instructor's alone; a vote is anyone's in the room.
    assert "role watcher may not send SetVoteRule" == check(watcher, _payload("SetVoteRule", nonce=fresh()))
    assert "role reviewer may not send SetVoteRule" == check(ann, _payload("SetVoteRule", sender="ann", nonce=fresh()))
    assert check(instructor, _payload("SetVoteRule", nonce=fresh())) is None
    assert check(watcher, _payload("CastVote", nonce=fresh())) is None
    assert "belongs to ann" in str(check(ann, _payload("DecideReview", sender="bob", nonce=fresh())))
    # Replays: the same signed command twice; a nonce older than the window; none at all.
    payload = _payload(nonce=fresh())
    assert check(instructor, payload) is None
    assert "replayed" in str(check(instructor, payload))
    old = new_nonce(lambda: now[0] - NONCE_WINDOW_S - 1)
    assert "stale nonce" in str(check(instructor, _payload(nonce=old)))
    assert "no nonce" in str(check(instructor, _payload(nonce="garbage")))
    # A genuine signature moved to another topic no longer checks out.
    assert "bad signature" in str(
        guard.check(TOPIC.replace("SetNorm", "Stop"), payload, sign_command(instructor, TOPIC, payload))
    )


async def test_a_passive_subscriber_sees_no_token_and_cannot_replay_what_it_captured(mqtt_broker: Broker) -> None:
    session = f"t-{uuid.uuid4().hex[:8]}"
    address = parse_bus_url(mqtt_broker.url)
    creds = Credentials()
    refused: list[Rejected] = []
    three = asyncio.Event()
    engine = MqttBus(address, session, participant="engine", role="engine", guard=CommandGuard(creds))

    async def refuse(rejected: Rejected) -> None:
        refused.append(rejected)
        if len(refused) == 3:
            three.set()

    engine.on_rejected(refuse)
    commands = await engine.subscribe("cmd/#")
    instructor = creds.issue("instructor")
    viewer = MqttBus(address, session, credential=instructor)
    watcher = MqttBus(address, session, credential=creds.issue("watcher"))
    captured: list[tuple[str, bytes, object]] = []
    async with (
        aiomqtt.Client("127.0.0.1", mqtt_broker.port, protocol=aiomqtt.ProtocolVersion.V5) as spy,
        asyncio.timeout(GUARD),
    ):
        await spy.subscribe(f"scopewatch/v1/{session}/cmd/#", qos=1)
        await viewer.publish(Pause(session=session, sender="ann", token="never-on-the-wire"))
        assert isinstance(await commands.get(), Pause)
        async for m in spy.messages:
            captured.append((m.topic.value, bytes(m.payload), m.properties))  # type: ignore[arg-type]
            break
        topic, payload, props = captured[0]
        assert instructor.key.hex().encode() not in payload and b"never-on-the-wire" not in payload
        assert instructor.key.hex() not in str(getattr(props, "UserProperty", ""))
        # Replayed as captured (signature and all): refused, never delivered.
        replay = properties(PacketTypes.PUBLISH)
        replay.UserProperty = list(getattr(props, "UserProperty", []))
        await spy.publish(topic, payload, qos=1, properties=replay)
        await watcher.publish(SetNorm(session=session, key="admin_only", value=True, sender="w"))
        await spy.publish(topic, payload, qos=1)  # unsigned copy
        await three.wait()
    reasons = sorted(r.reason.split(":")[0] for r in refused)
    assert reasons == ["replayed command", "role watcher may not send SetNorm", "unsigned command"]
    assert not commands._items  # nothing else was delivered
    for bus in (engine, viewer, watcher):
        await bus.close()


def _logged_in_broker(make_broker: Callable[[], Broker], tmp_path: Path) -> Broker:
    """A broker that refuses anonymous clients; user ``engine`` (password ``pw``) may do anything."""
    broker = make_broker()
    broker.stop()
    passwords = tmp_path / "passwd"
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(passwords), "engine", "pw"], check=True, timeout=GUARD)
    passwords.chmod(0o600)
    broker.conf.write_text(
        broker.conf.read_text().replace("allow_anonymous true", f"allow_anonymous false\npassword_file {passwords}")
    )
    broker.start()
    return broker


async def test_serve_knows_whether_anonymous_clients_may_publish_commands(
    mqtt_broker: Broker, make_broker: Callable[[], Broker], tmp_path: Path
) -> None:
    open_bus = MqttBus(parse_bus_url(mqtt_broker.url), f"t-{uuid.uuid4().hex[:8]}")
    assert await anonymous_publish(open_bus) is True
    await open_bus.close()
    closed = _logged_in_broker(make_broker, tmp_path)
    bus = MqttBus(parse_bus_url(f"mqtt://engine:pw@127.0.0.1:{closed.port}"), f"t-{uuid.uuid4().hex[:8]}")
    assert await anonymous_publish(bus, wait=0.5) is False
    await bus.close()
