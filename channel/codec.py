"""The one adapter between messages (events and commands) and JSON, for the bus and recordings."""

from __future__ import annotations

import json
from typing import Annotated, Any, cast

from pydantic import Field, TypeAdapter, ValidationError

from channel.commands import Command
from channel.errors import ScopewatchError
from channel.event_base import NewerEvent
from channel.events import EVENT_TYPES, Event

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


KINDS = frozenset(t.model_fields["kind"].default for t in EVENT_TYPES)
"""Every event kind this scopewatch knows."""


def decode_newer(data: bytes | str) -> Event | None:
    """A recording's line that :func:`decode_event` refused, read as a newer writer's at the same
    ``schema_version``: a field this version does not know is dropped; a line of a kind it does not
    know becomes a :class:`~channel.event_base.NewerEvent` (its place kept, read by nothing). None
    when the line is wrong in another way (a field missing or of the wrong type: still refused)."""
    try:
        return _event_json(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        return _newer(data, exc)


def _newer(data: bytes | str, exc: ValidationError) -> Event | None:
    """The event a newer writer's line holds, read as far as this version can; None when the line is
    wrong in another way."""
    try:
        raw = json.loads(data)
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    kind = raw.get("kind")
    if isinstance(kind, str) and kind not in KINDS:
        base = {k: raw[k] for k in ("session", "seq", "ts", "actor") if k in raw}
        if len(base) < 4:
            return None
        try:
            newer = json.dumps({**base, "kind": "NewerEvent", "newer_kind": kind})
            return cast(Event, NewerEvent.model_validate_json(newer))
        except ValidationError:
            return None
    errors = exc.errors()
    if not all(e["type"] == "extra_forbidden" for e in errors):
        return None
    try:
        for err in errors:
            _drop(raw, err["loc"][1:])  # loc[0] is the kind (the union's tag)
        return _event_json(json.dumps(raw))  # type: ignore[no-any-return]
    except (ValidationError, LookupError, TypeError):  # a nested union's tag in the path: not followed
        return None


def _drop(raw: Any, loc: tuple[int | str, ...]) -> None:
    """Remove the field at ``loc`` (a path of keys and indexes) from ``raw``."""
    for key in loc[:-1]:
        raw = raw[key]
    if isinstance(raw, dict):
        raw.pop(loc[-1], None)


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    if err["type"] == "union_tag_invalid":  # not pydantic's list of every known kind (a 900-character line)
        return f"payload: unknown kind {err['ctx']['tag']!r}"
    where = ".".join(str(p) for p in err["loc"]) or "payload"
    if err["type"] == "missing_field":  # a field every line of its kind has carried (channel.event_history)
        where = f"{where}.{err['ctx']['field']}"
    return f"{where}: {err['msg']} ({exc.error_count()} error(s))"
