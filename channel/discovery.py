"""Which sessions are live on a broker: each engine's retained presence, believed only when the engine
signed it (channel.signing).

An engine announces itself retained on ``presence/engine`` ("online"; its Last Will and its goodbye
say "left"), signed with its session key, and announces that key retained and self-signed on
:data:`~channel.signing.KEY_TOPIC`. A presence is the engine's when it decodes, names the session of its
topic, and carries a valid signature by the key checked with (:func:`checked_presence`, the one check
:func:`engine_presence` and :func:`find_sessions` share). So an unsigned or forged "online" does not make
a session look live, and a forged "left" does not make a live one look ended.
"""

from __future__ import annotations

from channel.broker import BrokerAddress, retained, retained_under
from channel.codec import DecodeError, decode_event
from channel.events import PresenceChanged
from channel.signing import KEY_TOPIC, VerifyKey, announced, genuine
from channel.vocab.topics import ROOT, presence_topic

ENGINE = presence_topic("engine")


def checked_presence(
    session: str, payload: bytes, props: object, key: VerifyKey | None
) -> PresenceChanged | None:
    """The engine presence a message on ``session``'s presence topic carries: None when it is not a
    presence of that session, or, with ``key``, when ``key`` did not sign it (unchecked without one)."""
    if key is not None and not genuine(key, f"{ROOT}/{session}/{ENGINE}", payload, props):
        return None
    try:
        event = decode_event(payload)
    except DecodeError:
        return None
    if not isinstance(event, PresenceChanged) or event.session != session:
        return None
    return event


async def engine_presence(address: BrokerAddress, session: str, key: VerifyKey | None = None) -> PresenceChanged | None:
    """The engine's retained presence for ``session`` (None when there is none, or, with ``key``, when
    the engine did not sign it: a forged "left" must not turn a live session into an ended one)."""
    found = await retained(address, session, ENGINE)
    return None if found is None else checked_presence(session, *found, key)


async def find_sessions(address: BrokerAddress, *, wait: float = 0.5) -> list[PresenceChanged]:
    """The live sessions on the broker, most recent first: those whose engine's presence says "online"
    and is signed by the key the session announced (trust on first use, as ``watch`` without
    ``--key``). A session whose engine left, one that announces no key (an engine from before signing
    is not listed), and one whose presence that key did not sign are left out."""
    messages = await retained_under(address, (f"{ROOT}/+/{ENGINE}", f"{ROOT}/+/{KEY_TOPIC}"), wait=wait)
    presences: dict[str, tuple[bytes, object]] = {}
    keys: dict[str, VerifyKey | None] = {}
    for topic, payload, props in messages:
        session, _, relative = topic.removeprefix(f"{ROOT}/").partition("/")
        if relative == ENGINE:
            presences[session] = (payload, props)
        elif relative == KEY_TOPIC:
            keys[session] = announced(session, topic, payload, props)
    live = []
    for session, (payload, props) in presences.items():
        key = keys.get(session)
        presence = checked_presence(session, payload, props, key) if key is not None else None
        if presence is not None and presence.status == "online":
            live.append(presence)
    return sorted(live, key=lambda p: p.ts, reverse=True)
