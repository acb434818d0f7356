"""The MQTT bus: the Bus protocol over a real broker (mosquitto) with aiomqtt.

Every message of a session lives under ``scopewatch/v1/<session>/`` followed by the relative topic
of :mod:`channel.topics`; the payload is the JSON of :mod:`channel.codec` (the same line as in a
recording). What MQTT adds to the in-process semantics:

- events and commands are published with QoS 1 and ``publish`` returns once the broker acknowledged
  them; what was not acknowledged when the connection dropped is re-sent, in order, after the bus
  reconnects (it retries forever, with backoff, until closed);
- a subscriber's session survives a broker restart (MQTT v5 session expiry, persistent broker), and
  each subscription drops an event whose ``seq`` it has already delivered, so a re-send is seen once;
- a bus with a ``participant`` announces itself retained on ``presence/<participant>/<connection>``
  (the engine on ``presence/engine``) and leaves a retained Last Will saying "left", so everyone sees a
  killed process go, and one name's two connections are two presences;
- subscriptions are the in-process bounded queues: ``block`` holds the reader (messages wait in this
  process, none is lost), ``drop`` counts what did not fit and announces it with ``Dropped``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import aiomqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.subscribeoptions import SubscribeOptions

from channel import replay
from channel.broker import BrokerAddress, BusConnectError, properties, release, session_client
from channel.bus import BusClosed, Overflow
from channel.codec import DecodeError, Message, decode, encode
from channel.commands import _Command
from channel.credentials import CommandGuard, Credential, new_nonce, sign_command
from channel.events import Event, PresenceChanged
from channel.inbound import ForgedHandler, MqttSubscription, deliver_batch, forged, refused_command, wants_batches
from channel.rejects import RejectHandler, rejected
from channel.replay import RawHandler
from channel.signing import KEY_TOPIC, SessionKey, VerifyKey, announcement, public_of, signed
from channel.tasks import cancel_and_wait, outcome_read
from channel.topics import matches, topic_for
from channel.vocab import Presence
from channel.vocab.topics import ALL, BATCH, ROOT, presence_topic

log = logging.getLogger("scopewatch.mqtt")

@dataclass
class _Outgoing:
    topic: str
    payload: bytes
    qos: int
    retain: bool
    done: asyncio.Future[None]
    props: Any = None


class MqttBus:
    """A session's bus on an MQTT broker. Connects on first use (or ``await bus.start()``)."""

    def __init__(
        self,
        address: BrokerAddress,
        session: str,
        *,
        participant: str | None = None,
        role: str = "viewer",
        qos: int = 1,
        client_id: str | None = None,
        max_backoff: float = 2.0,
        key: SessionKey | VerifyKey | None = None,
        credential: Credential | None = None,
        guard: CommandGuard | None = None,
    ) -> None:
        self.address = address
        self.session = session
        self.participant = participant
        self.role = role
        self.qos = qos
        self.prefix = f"{ROOT}/{session}/"
        self.client_id = client_id or f"sw-{session[:24]}-{participant or 'bus'}-{uuid.uuid4().hex[:8]}"
        self.connection = "" if role == "engine" else uuid.uuid4().hex[:12]
        """This bus's own presence topic under its participant's (``presence/NAME/CONNECTION``); the engine has one."""
        self.key = key  # the session's key (channel.signing): the engine's private one signs, a public one checks
        self.credential = credential  # signs this participant's commands (channel.credentials)
        self.guard = guard  # the engine's: refuses commands without a valid credential
        self.forged = 0  # messages on the engine's topics dropped: not signed with ``key``
        self._on_forged: list[ForgedHandler] = []
        self.rejected = 0  # payloads on the session's topics that were no valid scopewatch messages (skipped)
        self.reconnects = 0
        self._max_backoff = max_backoff
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._lost: asyncio.Future[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._start_lock = asyncio.Lock()
        self._closed = False
        self._sid_counter = itertools.count(1)
        self._sids: dict[str, int] = {}
        self._subs: dict[int, list[MqttSubscription]] = {}
        self._raw: dict[int, RawHandler] = {}
        self._patterns: dict[int, str] = {}
        self._out_counter = itertools.count()
        self._outbox: dict[int, _Outgoing] = {}
        self._on_rejected: list[RejectHandler] = []
        self._on_link: list[Callable[[bool], None]] = []

    # --- connection ------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """Whether the bus is connected to the broker now."""
        return self._connected.is_set()

    def _presence_topic(self) -> str:
        assert self.participant is not None
        return self.prefix + presence_topic(self.participant, self.connection)

    def _presence(self, status: Presence) -> bytes:
        assert self.participant is not None
        who, at, role, s = self.participant, time.time(), self.role, self.session
        presence = PresenceChanged(session=s, ts=at, actor=who, participant=who, role=role, status=status)
        return encode(presence.model_copy(update={"connection": self.connection}))

    def _make_client(self) -> aiomqtt.Client:
        will = None
        if self.participant is not None:
            topic, left = self._presence_topic(), self._presence("left")
            will = aiomqtt.Will(topic, left, qos=1, retain=True, properties=signed(self.key, topic, left))
        return session_client(self.address, self.client_id, will, self.role)

    async def start(self) -> None:
        """Connect now (raises BusConnectError naming the broker when it cannot)."""
        if self._closed:
            raise BusClosed("start on a closed bus")
        async with self._start_lock:
            if self._reader is not None:
                return
            client = self._make_client()
            try:
                await client.__aenter__()
            except aiomqtt.MqttError as exc:
                raise BusConnectError(f"{self.address.display}: cannot connect to the MQTT broker ({exc})") from None
            await self._connection_up(client)
            self._reader = asyncio.create_task(self._read_forever(), name=f"mqtt-reader-{self.client_id}")

    async def _connection_up(self, client: aiomqtt.Client) -> None:
        """Restore subscriptions, announce presence, re-send what was not acknowledged, then open."""
        self._client = client
        self._lost = asyncio.get_running_loop().create_future()
        if isinstance(self.key, SessionKey):  # the public key first, retained: viewers may pin or trust it
            topic, note = self.prefix + KEY_TOPIC, announcement(self.session, self.key)
            await client.publish(topic, note, qos=1, retain=True, properties=signed(self.key, topic, note))
        # Listening before "online": a joiner asking for the history as it sees the engine is heard.
        for sid, pattern in list(self._patterns.items()):
            await self._subscribe_on(client, pattern, sid)
        if self.participant is not None:
            topic, online = self._presence_topic(), self._presence("online")
            await client.publish(topic, online, qos=1, retain=True, properties=signed(self.key, topic, online))
        while self._outbox:
            key, out = next(iter(self._outbox.items()))
            # A finite timeout: a connection lost during the re-send must not hang the reader.
            await client.publish(out.topic, out.payload, qos=out.qos, retain=out.retain, properties=out.props)
            self._outbox.pop(key, None)
            if not out.done.done():
                out.done.set_result(None)
        self._connected.set()

    async def _read_forever(self) -> None:
        backoff = 0.05
        while not self._closed:
            client = self._client
            assert client is not None
            try:
                async for m in client.messages:
                    await self._dispatch(m)
            except aiomqtt.MqttError as exc:
                if self._closed:
                    return
                log.warning("%s: connection lost (%s); reconnecting", self.address.display, exc)
            self._connected.clear()
            if self._lost is not None and not self._lost.done():
                self._lost.set_result(None)
            self._tell_link(False)
            await release(client)
            while not self._closed:
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff)
                client = self._make_client()
                try:
                    await client.__aenter__()
                    await self._connection_up(client)
                except aiomqtt.MqttError:
                    await release(client)
                    continue
                self.reconnects += 1
                backoff = 0.05
                self._tell_link(True)
                break

    async def _dispatch(self, m: aiomqtt.Message) -> None:
        sids: Sequence[int] = []
        if m.properties is not None and hasattr(m.properties, "SubscriptionIdentifier"):
            sids = m.properties.SubscriptionIdentifier
        topic = m.topic.value
        payload = m.payload if isinstance(m.payload, bytes) else str(m.payload).encode()
        relative = topic[len(self.prefix) :] if topic.startswith(self.prefix) else topic
        if forged(public_of(self.key), relative, topic, payload, m.properties):
            self.forged += 1
            log.warning("%s: dropped a message not signed by the engine (forged, or a wrong --key)", topic)
            for notice in self._on_forged:
                notice(relative, self.forged)
            return
        if relative == BATCH:  # checked once above; each event as if it came on its own topic
            self.rejected += await deliver_batch(topic, payload, self._patterns, self._subs)
            return
        if not sids:  # a broker without subscription identifiers: match locally
            sids = [sid for sid, p in self._patterns.items() if matches(p, relative)]
        message: Message | None = None
        for sid in sids:
            raw = self._raw.get(sid)
            if raw is not None:
                await raw(relative, payload)
                continue
            subs = self._subs.get(sid)
            if not subs:
                continue
            if message is None:
                command = relative.startswith("cmd/")
                refused = refused_command(self.guard, topic, payload, m.properties) if command else None
                try:
                    if refused is not None:
                        raise DecodeError(refused.reason)
                    message = decode(payload)
                except DecodeError as exc:
                    self.rejected += 1
                    log.warning("%s: skipped a payload that is not an acceptable message (%s)", topic, exc)
                    for handler in self._on_rejected if command else ():
                        await handler(refused if refused is not None else rejected(payload, str(exc)))
                    return
            for sub in list(subs):
                if sub._fresh(message):
                    await sub._deliver(message)

    def on_forged(self, handler: ForgedHandler) -> None:
        """Tell ``handler(relative_topic, count)`` of every message dropped as forged (a viewer's notice)."""
        self._on_forged.append(handler)

    def on_link(self, handler: Callable[[bool], None]) -> None:
        """Tell ``handler(False)`` when the connection drops, ``handler(True)`` when it is back
        (channel.liveness: a broker outage is not the engine's death)."""
        self._on_link.append(handler)

    def _tell_link(self, up: bool) -> None:
        for handler in self._on_link:
            handler(up)

    def on_rejected(self, handler: RejectHandler) -> None:
        """Hand every command payload that failed to decode to ``handler`` (the engine refuses it)."""
        self._on_rejected.append(handler)

    # --- the Bus protocol ------------------------------------------------------------------

    async def publish(self, message: Message) -> None:
        """Publish, wait for the broker's acknowledgement (QoS 1; QoS 0 for transient events, streamed
        tokens a later event repeats whole); survives reconnects. Retained: presence."""
        retain, qos = isinstance(message, PresenceChanged), 0 if getattr(message, "TRANSIENT", False) else None
        if isinstance(message, _Command):  # a token never goes on the bus; a credential signs instead
            nonce = new_nonce() if self.credential is not None else message.nonce
            message = message.model_copy(update={"token": None, "nonce": nonce})
        await self.publish_raw(topic_for(message), encode(message), retain=retain, qos=qos)

    async def publish_raw(self, relative: str, payload: bytes, *, retain: bool = False, qos: int | None = None) -> None:
        """Publish bytes on a session-relative topic (for the replay protocol and tools)."""
        if self._closed:
            raise BusClosed("publish on a closed bus")
        await self.start()
        loop = asyncio.get_running_loop()
        topic = self.prefix + relative
        out = _Outgoing(topic, payload, self.qos if qos is None else qos, retain, loop.create_future())
        if self.credential is not None and relative.startswith("cmd/"):
            out.props = sign_command(self.credential, topic, payload)
        else:
            out.props = signed(self.key, topic, payload)
        key = next(self._out_counter)
        self._outbox[key] = out

        def acknowledged(task: asyncio.Future[None]) -> bool:
            if task.cancelled() or task.exception() is not None:  # (reading it: never "unretrieved")
                return False
            self._outbox.pop(key, None)
            if not out.done.done():
                out.done.set_result(None)
            return True

        try:
            if self._connected.is_set():
                client, lost = self._client, self._lost
                assert client is not None and lost is not None
                task = asyncio.ensure_future(
                    client.publish(
                        out.topic, out.payload, qos=out.qos, retain=out.retain, properties=out.props, timeout=math.inf
                    )
                )
                try:
                    await asyncio.wait((task, lost), return_when=asyncio.FIRST_COMPLETED)
                except asyncio.CancelledError:
                    task.add_done_callback(acknowledged)  # an ack arriving later still counts
                    raise
                if task.done() and acknowledged(task):
                    return
                task.cancel()
            # Not acknowledged: the reconnect re-sends everything in the outbox, in order.
            await out.done
        except asyncio.CancelledError:
            # The caller stopped waiting (e.g. the session was cancelled). The message stays in the
            # outbox (at least once) but nobody reads its outcome: close() must not log it as lost.
            out.done.add_done_callback(outcome_read)
            raise

    async def subscribe(
        self, pattern: str = ALL, *, maxsize: int = 10_000, overflow: Overflow = "block"
    ) -> MqttSubscription:
        if self._closed:
            sub = MqttSubscription(self._unsubscribe, pattern, maxsize, overflow, 0)
            sub._end()
            return sub
        await self.start()
        sid = self._sids.get(pattern)
        if sid is not None:
            sub = MqttSubscription(self._unsubscribe, pattern, maxsize, overflow, sid)
            self._subs[sid].append(sub)
            return sub
        sid = next(self._sid_counter)
        sub = MqttSubscription(self._unsubscribe, pattern, maxsize, overflow, sid)
        self._sids[pattern] = sid
        self._subs[sid] = [sub]
        await self._add_pattern(pattern, sid)
        if wants_batches(pattern) and BATCH not in self._patterns.values():
            await self._add_pattern(BATCH, next(self._sid_counter))
        return sub

    async def subscribe_raw(self, pattern: str, handler: RawHandler) -> int:
        """Call ``handler(relative_topic, payload)`` for every message on a session-relative pattern
        (from the reader task, in order). Returns an id for :meth:`unsubscribe_raw`. Before the bus
        started, the pattern is subscribed as it connects, before its presence is announced."""
        sid = next(self._sid_counter)
        self._raw[sid] = handler
        if self._reader is None and not self._closed:
            self._patterns[sid] = pattern
            await self.start()
            return sid
        await self.start()
        await self._add_pattern(pattern, sid)
        return sid

    async def unsubscribe_raw(self, sid: int) -> None:
        self._raw.pop(sid, None)
        await self._drop_pattern(sid)

    async def _add_pattern(self, pattern: str, sid: int) -> None:
        self._patterns[sid] = pattern
        while not self._closed:
            await self._connected.wait()
            client = self._client
            assert client is not None
            try:
                await self._subscribe_on(client, pattern, sid)
                return
            except aiomqtt.MqttError:
                # The reconnect re-subscribes every pattern; wait for it.
                self._connected.clear()

    async def _subscribe_on(self, client: aiomqtt.Client, pattern: str, sid: int) -> None:
        props = properties(PacketTypes.SUBSCRIBE)
        props.SubscriptionIdentifier = sid
        await client.subscribe(self.prefix + pattern, options=SubscribeOptions(qos=self.qos), properties=props)

    async def _unsubscribe(self, sub: MqttSubscription) -> None:
        subs = self._subs.get(sub.sid)
        if subs is None or sub not in subs:
            return
        subs.remove(sub)
        if not subs:
            del self._subs[sub.sid]
            self._sids.pop(sub.pattern, None)
            await self._drop_pattern(sub.sid)

    async def _drop_pattern(self, sid: int) -> None:
        pattern = self._patterns.pop(sid, None)
        client = self._client
        if pattern is None or client is None or not self._connected.is_set():
            return
        if pattern in self._patterns.values():
            return  # another subscription (raw or not) still needs this filter
        with contextlib.suppress(aiomqtt.MqttError):
            await client.unsubscribe(self.prefix + pattern)

    async def close(self) -> None:
        """Say "left" (retained), drop this bus's subscriptions on the broker and disconnect.
        Queued messages are still delivered to readers; then their iteration ends."""
        if self._closed:
            return
        self._closed = True
        for subs in self._subs.values():
            for sub in subs:
                sub._end()
        client, reader = self._client, self._reader
        if client is not None and self._connected.is_set():
            with contextlib.suppress(aiomqtt.MqttError):
                if self.participant is not None:
                    topic, left = self._presence_topic(), self._presence("left")
                    await client.publish(topic, left, qos=1, retain=True, properties=signed(self.key, topic, left))
                if self._patterns:
                    await client.unsubscribe([self.prefix + p for p in set(self._patterns.values())])
        self._subs.clear()
        self._raw.clear()
        self._patterns.clear()
        await cancel_and_wait(reader)
        if client is not None:
            await release(client)
        for out in self._outbox.values():
            if not out.done.done():
                out.done.set_exception(BusClosed("bus closed before the broker acknowledged a message"))
        self._outbox.clear()
        self._connected.clear()

    # --- late joiners: the replay protocol (channel.replay) -----------------------------------

    async def serve_history(self, history: Sequence[Event]) -> None:
        """Answer late joiners' replay requests from this session's (growing) list of events."""
        await replay.serve_history(self, history)

    async def fetch_history(self, after: int = 0, *, wait: float = 5.0) -> list[Event]:
        """The events the engine serving this session has after ``after``."""
        return await replay.fetch_history(self, after, wait=wait, client=self.participant or self.client_id)
