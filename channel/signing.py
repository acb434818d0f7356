"""Signed traffic: the engine signs what it publishes with a per-session Ed25519 key; readers check it
with the public key alone, so nobody who only reads (every watcher) can sign.

The signature is Ed25519 over the full topic, a zero byte and the payload, carried (hex) in the MQTT
v5 user property ``sw-sig``; the payload stays the codec's JSON, the same line as in a recording.
Binding the topic stops a genuine message being moved elsewhere (a history reply into the live
stream); a re-sent genuine event is dropped by its seq. Signed and checked: the engine's events, its
history replies, its presence (Last Will too), the recording it leaves retained on the broker, and
the retained announcement of its public key (:data:`KEY_TOPIC`, signed by itself).

The private key (:class:`SessionKey`) is made by ``serve`` for each session and never leaves the
engine. Its public key (32 bytes, 64 hex digits) is printed in ``serve``'s join line (``--key HEX``)
and announced retained on :data:`KEY_TOPIC`. A viewer given ``--key`` pins it: an announcement of a
different key is refused (:func:`check_announced`). A viewer without ``--key`` trusts the announced
key (trust on first use): that stops forgery by anyone arriving after the engine announced, not by
someone who could replace the retained announcement first; pinning does.

Commands are not signed with this key: they come from viewers, who sign them with their per-role
token (channel.credentials); the engine checks them. A recording carries no signature: its lines are
the events' JSON whatever signed them on the wire, so recordings from before signing (unsigned, or
HMAC-signed on the wire) load unchanged.
"""

from __future__ import annotations

import functools
import logging

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from pydantic import BaseModel, ConfigDict, ValidationError

from channel.broker import BrokerAddress, properties, retained
from channel.errors import ScopewatchError
from channel.vocab.topics import ROOT

log = logging.getLogger("scopewatch.mqtt")

PROPERTY = "sw-sig"
KEY_BYTES = 32
KEY_TOPIC = "key"
"""The session-relative topic where the engine announces its public key (retained, self-signed)."""
ALGORITHM = "ed25519"


class SigningKeyError(ScopewatchError):
    """A ``--key`` that is not the public key ``serve`` printed, or one the engine does not use."""


class SessionKey:
    """The engine's private signing key for one session (never sent, never printed)."""

    def __init__(self, private: Ed25519PrivateKey | None = None) -> None:
        self._private = private if private is not None else Ed25519PrivateKey.generate()
        self.public = self._private.public_key().public_bytes_raw()
        """The public key: 32 bytes, what viewers check signatures with."""

    def sign(self, topic: str, payload: bytes) -> str:
        return self._private.sign(_signed_bytes(topic, payload)).hex()

    def __repr__(self) -> str:
        return f"SessionKey(public={self.public.hex()})"


VerifyKey = bytes
"""A public key, raw (32 bytes)."""


class KeyAnnouncement(BaseModel):
    """The payload on :data:`KEY_TOPIC`: which session the key signs for, and the key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str
    algorithm: str = ALGORITHM
    public_key: str


def new_key() -> SessionKey:
    """A fresh per-session key."""
    return SessionKey()


def parse_key(text: str) -> VerifyKey:
    """The public key from its hex form (as printed in ``serve``'s join line)."""
    try:
        key = bytes.fromhex(text)
        _public(key)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise SigningKeyError(
            f"--key: expected {2 * KEY_BYTES} hex digits (the public key in the line 'scopewatch serve' printed)"
        )
    return key


def public_of(key: SessionKey | VerifyKey | None) -> VerifyKey | None:
    """The public key that checks ``key``'s signatures (the engine checks its own with it)."""
    return key.public if isinstance(key, SessionKey) else key


def _signed_bytes(topic: str, payload: bytes) -> bytes:
    return topic.encode() + b"\0" + payload


@functools.lru_cache(maxsize=64)
def _public(key: VerifyKey) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(key)


def signed(key: SessionKey | VerifyKey | None, topic: str, payload: bytes) -> Properties | None:
    """PUBLISH properties carrying the signature (None without a private key: nothing to sign with)."""
    if not isinstance(key, SessionKey):
        return None
    props = properties(PacketTypes.PUBLISH)
    props.UserProperty = [(PROPERTY, key.sign(topic, payload))]
    return props


def from_engine(relative: str) -> bool:
    """Whether a session-relative topic carries what only the engine publishes (so must be signed)."""
    if relative == "replay/request":
        return False
    return relative.startswith(("events/", "replay/")) or relative in ("presence/engine", "recording", KEY_TOPIC)


def genuine(key: VerifyKey, topic: str, payload: bytes, props: object) -> bool:
    """Whether a received message carries a valid signature by ``key`` for this topic and payload."""
    pairs = getattr(props, "UserProperty", None) or []
    sig = next((value for name, value in pairs if name == PROPERTY), None)
    if not isinstance(sig, str) or len(sig) != 128:
        return False
    try:
        _public(key).verify(bytes.fromhex(sig), _signed_bytes(topic, payload))
    except (InvalidSignature, ValueError):
        return False
    return True


def announcement(session: str, key: SessionKey) -> bytes:
    """The payload announcing ``key``'s public half for ``session`` on :data:`KEY_TOPIC`."""
    return KeyAnnouncement(session=session, public_key=key.public.hex()).model_dump_json().encode()


def announced(session: str, topic: str, payload: bytes, props: object) -> VerifyKey | None:
    """The public key a message on :data:`KEY_TOPIC` announces for ``session``, when it is well formed
    and signed by that very key (else None: it announces nothing usable)."""
    try:
        note = KeyAnnouncement.model_validate_json(payload)
        key = parse_key(note.public_key)
    except (ValidationError, SigningKeyError):
        return None
    if note.session != session or note.algorithm != ALGORITHM or not genuine(key, topic, payload, props):
        return None
    return key


def check_announced(session: str, pinned: VerifyKey | None, seen: VerifyKey | None) -> VerifyKey | None:
    """The key to check the session's traffic with: the pinned one (refused, in one line, when the
    bus announces another), else the announced one (trust on first use), else None (unchecked)."""
    if pinned is not None and seen is not None and seen != pinned:
        raise SigningKeyError(
            f"--key: session {session} announces a different signing key ({seen.hex()[:16]}...) than the one "
            f"given ({pinned.hex()[:16]}...): refusing it (another publisher may be posing as the engine)"
        )
    return pinned if pinned is not None else seen


async def fetch_key(address: BrokerAddress, session: str, *, wait: float = 1.0) -> VerifyKey | None:
    """The public key the engine of ``session`` announced on the broker (None: none, or not self-signed)."""
    found = await retained(address, session, KEY_TOPIC, wait=wait)
    if found is None:
        return None
    return announced(session, f"{ROOT}/{session}/{KEY_TOPIC}", found[0], found[1])


async def session_key(address: BrokerAddress, session: str, pinned: VerifyKey | None) -> VerifyKey | None:
    """The key a viewer checks ``session``'s traffic with (:func:`check_announced`); None when the
    session announces none and none is pinned (an engine from before signing, or no engine: the caller
    says so once it knows which), logged when it trusts on first use."""
    key = check_announced(session, pinned, await fetch_key(address, session))
    if key is not None and pinned is None:
        log.info("scopewatch: trusting the signing key session %s announced (pin it with --key)", session)
    return key
