"""Signed traffic: the engine signs what it publishes with a per-session key, readers holding the key
drop what is not signed by it.

The signature is an HMAC-SHA256 over the full topic and the payload, carried in the MQTT v5 user
property ``sw-sig`` (the payload stays the codec's JSON, the same line as in a recording). Binding
the topic stops a genuine message being moved elsewhere (a history reply into the live stream); a
re-sent genuine event is dropped by its seq. The key is 32 random bytes made by ``serve`` and given
to viewers out of band, in the join line ``serve`` prints (``--key HEX``); it never travels on the
bus. Signed and checked: the engine's events, its history replies and its presence (Last Will too).
Commands are not signed: they come from viewers, and the engine checks them (channel.commands).
HMAC is symmetric: whoever holds the key (every watcher) could sign; Ed25519 would not have that
limit (docs/mqtt.md, "What a deployment needs").
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from channel.broker import properties
from channel.errors import ScopewatchError

PROPERTY = "sw-sig"
KEY_BYTES = 32


class SigningKeyError(ScopewatchError):
    """A ``--key`` that is not the hex key ``serve`` printed."""


def new_key() -> bytes:
    """A fresh per-session key."""
    return secrets.token_bytes(KEY_BYTES)


def parse_key(text: str) -> bytes:
    """The key from its hex form (as printed in ``serve``'s join line)."""
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise SigningKeyError(f"--key: expected {2 * KEY_BYTES} hex digits (the key 'scopewatch serve' printed)")
    return key


def signature(key: bytes, topic: str, payload: bytes) -> str:
    return hmac.new(key, topic.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def signed(key: bytes | None, topic: str, payload: bytes) -> Properties | None:
    """PUBLISH properties carrying the signature (None without a key: nothing to sign with)."""
    if key is None:
        return None
    props = properties(PacketTypes.PUBLISH)
    props.UserProperty = [(PROPERTY, signature(key, topic, payload))]
    return props


def from_engine(relative: str) -> bool:
    """Whether a session-relative topic carries what only the engine publishes (so must be signed)."""
    if relative == "replay/request":
        return False
    return relative.startswith(("events/", "replay/")) or relative == "presence/engine"


def genuine(key: bytes, topic: str, payload: bytes, props: object) -> bool:
    """Whether a received message carries the engine's signature for this topic and payload."""
    pairs = getattr(props, "UserProperty", None) or []
    sig = next((value for name, value in pairs if name == PROPERTY), None)
    return isinstance(sig, str) and hmac.compare_digest(sig, signature(key, topic, payload))
