"""The one adapter between messages (events and commands) and JSON, for the bus and recordings."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, TypeAdapter, ValidationError

from channel.commands import Command
from channel.errors import ScopewatchError
from channel.events import Event

Message = Annotated[Event | Command, Field(discriminator="kind")]

_message = TypeAdapter[Message](Message)
_event = TypeAdapter[Event](Event)
_event_json = _event.validator.validate_json
"""The validator itself: a recording of millions of events calls it once per line (the adapter's
wrapper would add a fifth to the cost of a line)."""


class DecodeError(ScopewatchError):
    """A payload that is not a valid scopewatch message."""


def encode(message: Message) -> bytes:
    """Serialise an event or command to compact JSON bytes (one line, no newline)."""
    return message.model_dump_json().encode()


def decode(data: bytes | str) -> Message:
    """Parse JSON into an event or command; raises DecodeError with a one-line reason."""
    try:
        return _message.validate_json(data)
    except ValidationError as exc:
        raise DecodeError(_one_line(exc)) from None


def decode_event(data: bytes | str) -> Event:
    """Parse JSON that must be an event (not a command)."""
    try:
        return _event_json(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise DecodeError(_one_line(exc)) from None


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "payload"
    if err["type"] == "missing_field":  # a field every line of its kind has carried (channel.event_history)
        where = f"{where}.{err['ctx']['field']}"
    return f"{where}: {err['msg']} ({exc.error_count()} error(s))"
