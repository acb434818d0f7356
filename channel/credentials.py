"""Who may command a served session: per-role (and per-participant) credentials, signed commands,
replay protection.

``serve`` makes a master secret and prints one token per role (:data:`ROLES`); a token is
``sw1.ROLE.PARTICIPANT.HEX`` (PARTICIPANT empty for a role-wide token), where HEX is derived from
the master secret, so the engine checks any token without storing it. A token never travels on the
bus: a command is sent with the user properties ``sw-role``, ``sw-who`` and ``sw-sig`` (an
HMAC-SHA256 of the full topic and the payload under the token's key), and its payload carries a
fresh ``nonce`` (``MILLISECONDS-RANDOM``). A passive subscriber sees signatures, never a key; a
captured command replayed is refused (its nonce was seen, or is older than :data:`NONCE_WINDOW_S`).

The engine's :class:`CommandGuard` checks, for every command payload, before it is decoded: a
known role, a valid signature, a command kind the role may send (:data:`ALLOWED`), a sender equal
to the token's participant when the token names one, and a fresh nonce. Roles are general
(instructor, reviewer, watcher): a classroom builds rooms on them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from channel.broker import properties
from channel.errors import ScopewatchError

ROLES = ("instructor", "reviewer", "watcher")
"""Instructor: every command; reviewer: review decisions, a person's seat and a vote; watcher: a
vote in a room (engine/session/room.py), nothing else."""
_EVERY = frozenset(
    {"SetNorm", "DecideReview", "Pause", "Resume", "Step", "SetSpeed", "Stop", "SeatCall", "CastVote", "SetVoteRule"}
)
ALLOWED: dict[str, frozenset[str]] = {
    "instructor": _EVERY,
    "reviewer": frozenset({"DecideReview", "SeatCall", "CastVote"}),
    "watcher": frozenset({"CastVote"}),
}
"""The command kinds each role may send."""
NONCE_WINDOW_S = 300.0
"""How old (or how far ahead of the engine's clock) a command's nonce may be."""
MAX_NONCES = 100_000
"""Nonces remembered at most: past it (and inside the window) commands are refused, never forgotten."""
PREFIX = "sw1"
ROLE_PROPERTY, WHO_PROPERTY, SIG_PROPERTY = "sw-role", "sw-who", "sw-sig"


class CredentialError(ScopewatchError):
    """A ``--token`` that is not one ``serve`` printed."""


@dataclass(frozen=True)
class Credential:
    """A participant's proof of a role: what signs its commands (never sent)."""

    role: str
    participant: str
    key: bytes

    @property
    def token(self) -> str:
        return f"{PREFIX}.{self.role}.{self.participant}.{self.key.hex()}"


def _derive(master: bytes, role: str, participant: str) -> bytes:
    return hmac.new(master, f"scopewatch-role\0{role}\0{participant}".encode(), hashlib.sha256).digest()


class Credentials:
    """The engine's side: a master secret; tokens for roles and participants derived from it."""

    def __init__(self, master: bytes | None = None) -> None:
        self.master = master if master is not None else secrets.token_bytes(32)

    def issue(self, role: str, participant: str = "") -> Credential:
        if role not in ROLES:
            raise CredentialError(f"unknown role {role!r}; roles: {', '.join(ROLES)}")
        if "." in participant:
            raise CredentialError(f"a participant name has no '.' ({participant!r})")
        return Credential(role, participant, _derive(self.master, role, participant))

    def key_for(self, role: str, participant: str) -> bytes | None:
        return _derive(self.master, role, participant) if role in ROLES else None


def parse_token(text: str) -> Credential:
    """A credential from the token ``serve`` printed (one line naming ``--token`` when it is not one)."""
    parts = text.strip().split(".")
    key = b""
    if len(parts) == 4 and parts[0] == PREFIX and parts[1] in ROLES:
        try:
            key = bytes.fromhex(parts[3])
        except ValueError:
            key = b""
    if len(key) != 32:
        raise CredentialError(
            "--token: expected sw1.ROLE.NAME.HEX, one of the tokens 'scopewatch serve' printed "
            f"(roles: {', '.join(ROLES)})"
        )
    return Credential(parts[1], parts[2], key)


def new_nonce(clock: Callable[[], float] = time.time) -> str:
    return f"{int(clock() * 1000)}-{secrets.token_hex(8)}"


def _mac(key: bytes, topic: str, payload: bytes) -> str:
    return hmac.new(key, topic.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def sign_command(credential: Credential, topic: str, payload: bytes) -> Properties:
    """PUBLISH properties proving ``credential`` sent ``payload`` on ``topic``."""
    props = properties(PacketTypes.PUBLISH)
    props.UserProperty = [
        (ROLE_PROPERTY, credential.role),
        (WHO_PROPERTY, credential.participant),
        (SIG_PROPERTY, _mac(credential.key, topic, payload)),
    ]
    return props


class CommandGuard:
    """The engine's check of each command payload (see the module docstring); remembers nonces."""

    def __init__(self, credentials: Credentials, *, clock: Callable[[], float] = time.time) -> None:
        self.credentials = credentials
        self._clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()

    def check(self, topic: str, payload: bytes, props: object) -> str | None:
        """None when the command may go on to be decoded; else the reason it is refused."""
        pairs = dict(getattr(props, "UserProperty", None) or [])
        role, who, sig = pairs.get(ROLE_PROPERTY), pairs.get(WHO_PROPERTY, ""), pairs.get(SIG_PROPERTY)
        if not isinstance(role, str) or not isinstance(sig, str):
            return "unsigned command: send it with a token 'scopewatch serve' printed (--token)"
        key = self.credentials.key_for(role, str(who))
        if key is None or not hmac.compare_digest(sig, _mac(key, topic, payload)):
            return "bad signature: not sent with a token of this session"
        try:
            data = json.loads(payload)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            return None  # signed but not a command: the command models refuse it
        kind = str(data.get("kind", ""))
        if kind not in ALLOWED[role]:
            return f"role {role} may not send {kind or 'this command'}"
        if who and data.get("sender") != who:
            return f"this token belongs to {who}, not {str(data.get('sender'))[:60]}"
        return self._fresh(str(data.get("nonce") or ""))

    def _fresh(self, nonce: str) -> str | None:
        stamp, _, _rest = nonce.partition("-")
        try:
            sent = int(stamp) / 1000
        except ValueError:
            return "no nonce: a command must carry a fresh nonce"
        now = self._clock()
        if abs(now - sent) > NONCE_WINDOW_S:
            return f"stale nonce: the command is more than {NONCE_WINDOW_S:g}s old (or the clocks disagree)"
        if nonce in self._seen:
            return "replayed command: its nonce was already used"
        while self._seen and next(iter(self._seen.values())) < now - NONCE_WINDOW_S:
            self._seen.popitem(last=False)
        if len(self._seen) >= MAX_NONCES:
            return f"too many commands: more than {MAX_NONCES} in {NONCE_WINDOW_S:g}s"
        self._seen[nonce] = sent
        return None
