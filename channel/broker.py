"""Where the MQTT broker is and what it retains: the address from ``--bus``, the connection error,
and one look at retained messages (which sessions are live: channel.discovery)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from dataclasses import dataclass, field

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from channel.errors import ScopewatchError
from channel.vocab.topics import ROOT


class BusConnectError(ScopewatchError):
    """The broker named by ``--bus`` cannot be reached or refused the connection."""


def properties(packet_type: int) -> Properties:
    """MQTT v5 properties for a packet (paho's constructor carries no type hints)."""
    return Properties(packet_type)  # type: ignore[no-untyped-call]


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is and how to log in (parsed from ``mqtt://`` / ``mqtts://`` URLs)."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    insecure: bool = False

    @property
    def display(self) -> str:
        """The URL without the password, for messages."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"

    def tls_context(self) -> ssl.SSLContext | None:
        if not self.tls:
            return None
        try:
            context = ssl.create_default_context(cafile=self.ca_file)
            if self.cert_file:
                context.load_cert_chain(self.cert_file, self.key_file)
        except (OSError, ssl.SSLError) as exc:
            raise BusConnectError(f"{self.display}: cannot load TLS files ({exc})") from None
        if self.insecure:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        return context


async def release(client: aiomqtt.Client) -> None:
    """Disconnect a client that may already be gone, without leaving an error nobody reads."""
    with contextlib.suppress(Exception):
        await client.__aexit__(None, None, None)
    # aiomqtt keeps why the connection ended in a future; a lost connection we already handled
    # would otherwise be logged as "Future exception was never retrieved".
    gone = getattr(client, "_disconnected", None)
    if isinstance(gone, asyncio.Future) and gone.done() and not gone.cancelled():
        gone.exception()


SESSION_EXPIRY_S = 600
"""How long the broker keeps a disconnected bus's subscriptions and queued messages."""
KEEPALIVE_S = {"engine": 4}
"""Keepalive per role (others: 15 s): a broker sends the engine's Last Will ("left") within 1.5x
of it after the engine goes silent, so viewers say "engine gone" within seconds even when its host
vanished without closing the connection."""


class _Quiet(logging.Filter):
    """Drops aiomqtt's "Could not gracefully disconnect" (every failed reconnect releases a client that
    never connected; the bus says "connection lost; reconnecting" once instead)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Could not gracefully disconnect")


_PAHO_LOG = logging.getLogger("scopewatch.mqtt.client")
_PAHO_LOG.addFilter(_Quiet())


def session_client(address: BrokerAddress, identifier: str, will: aiomqtt.Will | None, role: str) -> aiomqtt.Client:
    """The client of a session's bus (channel.mqtt): MQTT v5, a session the broker keeps for
    :data:`SESSION_EXPIRY_S` across reconnects, the keepalive of ``role``, the Last Will ``will``."""
    props = properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = SESSION_EXPIRY_S
    return aiomqtt.Client(
        address.host,
        address.port,
        username=address.username,
        password=address.password,
        identifier=identifier,
        protocol=aiomqtt.ProtocolVersion.V5,
        will=will,
        # Never a clean start, not even the first time (the id is new anyway): mosquitto 2.0
        # persists across a restart only the sessions of clients that connected that way.
        clean_start=False,
        properties=props,
        tls_context=address.tls_context(),
        timeout=10,
        keepalive=KEEPALIVE_S.get(role, 15),
        logger=_PAHO_LOG,
    )


def _client(address: BrokerAddress, *, v5: bool = False) -> aiomqtt.Client:
    """A plain client for one look at the broker (no session state, no presence); ``v5`` to see the
    messages' user properties (signatures)."""
    return aiomqtt.Client(
        address.host,
        address.port,
        username=address.username,
        password=address.password,
        tls_context=address.tls_context(),
        protocol=aiomqtt.ProtocolVersion.V5 if v5 else None,
    )


async def retained_under(
    address: BrokerAddress, filters: tuple[str, ...], *, wait: float = 0.5
) -> list[tuple[str, bytes, object]]:
    """The messages the broker retains on topics matching ``filters`` (MQTT wildcards allowed), and any
    published there meanwhile, in arrival order, as (topic, payload, MQTT v5 properties), collected for
    ``wait`` seconds (how many are retained is not known in advance); cleared ones (empty) left out."""
    found: list[tuple[str, bytes, object]] = []
    client = _client(address, v5=True)
    try:
        async with client:
            for topic_filter in filters:
                await client.subscribe(topic_filter, qos=1)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    async for m in client.messages:
                        payload = m.payload if isinstance(m.payload, bytes) else str(m.payload).encode()
                        if payload:
                            found.append((m.topic.value, payload, m.properties))
    except aiomqtt.MqttError as exc:
        raise BusConnectError(f"{address.display}: cannot connect to the MQTT broker ({exc})") from None
    return found


RECORDING = "recording"
"""The session-relative topic where an engine leaves its whole recording (JSONL, retained) when the
session ends, so a late viewer can still replay it."""


async def retained(
    address: BrokerAddress, session: str, relative: str, *, wait: float = 1.0
) -> tuple[bytes, object] | None:
    """The message retained on a session-relative topic (its payload and MQTT v5 properties, where a
    signature travels), or None when the broker holds none there."""
    topic = f"{ROOT}/{session}/{relative}"
    client = _client(address, v5=True)
    try:
        async with client:
            await client.subscribe(topic, qos=1)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    async for m in client.messages:
                        payload = m.payload if isinstance(m.payload, bytes) else str(m.payload).encode()
                        return (payload, m.properties) if payload else None
    except aiomqtt.MqttError as exc:
        raise BusConnectError(f"{address.display}: cannot connect to the MQTT broker ({exc})") from None
    return None


async def fetch_recording(address: BrokerAddress, session: str, *, wait: float = 1.0) -> bytes | None:
    """The recording an engine left on the broker for ``session`` when it ended (JSONL bytes), or
    None when there is none (unchecked: ``tui.remote.ended_session`` checks its signature)."""
    found = await retained(address, session, RECORDING, wait=wait)
    return None if found is None else found[0]
