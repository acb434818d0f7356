"""Whether a broker lets anonymous clients publish on a session's command topics.

``serve`` asks before its session starts: a client with no username, no password and no client
certificate connects and publishes a probe on ``cmd/Probe-<random>``; if the engine's own bus
receives it, anyone who can reach the broker can flood the command topics (commands still need a
token to act, but a deployment should say who may write: docs/mqtt.md, "What a deployment needs").
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import replace

import aiomqtt

from channel.mqtt import MqttBus

PROBE_WAIT_S = 2.0
"""How long the engine waits for the anonymous probe to arrive before deciding it was refused."""


async def anonymous_publish(bus: MqttBus, *, wait: float = PROBE_WAIT_S) -> bool:
    """True when an anonymous client's publish on the session's command topics reached ``bus``."""
    probe = f"cmd/Probe-{uuid.uuid4().hex[:12]}"
    arrived = asyncio.Event()

    async def seen(_topic: str, _payload: bytes) -> None:
        arrived.set()

    sid = await bus.subscribe_raw(probe, seen)
    try:
        anonymous = replace(bus.address, username=None, password=None, cert_file=None, key_file=None)
        try:
            async with aiomqtt.Client(
                anonymous.host,
                anonymous.port,
                tls_context=anonymous.tls_context(),
                protocol=aiomqtt.ProtocolVersion.V5,
                timeout=wait,
            ) as client:
                await client.publish(bus.prefix + probe, b"{}", qos=1, timeout=wait)
        except aiomqtt.MqttError:
            return False  # refused at connect (or publish): anonymous clients cannot write
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(arrived.wait(), wait)
        return arrived.is_set()
    finally:
        await bus.unsubscribe_raw(sid)
