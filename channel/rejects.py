"""Commands that never became commands: a payload on a session's command topics that failed the
command models (:mod:`channel.commands`) or their size bound. The bus that received it tells the
engine (:class:`RejectedCommands`), which refuses it with a ``CommandRefused`` event; nothing of the
payload but its claimed sender and kind (both cut short) reaches that event.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from channel.commands import MAX_COMMAND_BYTES, SHORT_TEXT


@dataclass(frozen=True)
class Rejected:
    """One payload refused before decoding finished: who it says sent it, what it says it is, why."""

    sender: str
    command: str
    reason: str


RejectHandler = Callable[[Rejected], Awaitable[None]]


@runtime_checkable
class RejectedCommands(Protocol):
    """A bus that reports the command payloads it could not decode (the MQTT bus; the in-process bus
    carries command objects, already validated when they were built)."""

    def on_rejected(self, handler: RejectHandler) -> None: ...


def too_large(payload: bytes) -> Rejected | None:
    """A command payload over :data:`MAX_COMMAND_BYTES`, refused without parsing it."""
    if len(payload) <= MAX_COMMAND_BYTES:
        return None
    return Rejected("?", "?", f"command is {len(payload)} bytes; at most {MAX_COMMAND_BYTES} allowed")


def rejected(payload: bytes, reason: str) -> Rejected:
    """What a payload that failed the command models claims about itself, and the reason it failed."""
    sender, kind = "?", "?"
    try:
        data = json.loads(payload)
    except ValueError:
        data = None
    if isinstance(data, dict):
        sender = str(data.get("sender", "?"))[:SHORT_TEXT]
        kind = str(data.get("kind", "?"))[:SHORT_TEXT]
    return Rejected(sender, kind, f"not a valid command: {reason}")
