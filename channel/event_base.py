"""What every event carries (``channel.events`` builds the union of events on it)."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator

from channel.text import escape_bytes


class BaseEvent(BaseModel):
    """What every event carries. Build an event with its own fields (and ``actor``); the emitter
    stamps ``session``, ``seq`` and ``ts`` when it is emitted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str = ""
    seq: int = 0
    ts: float = 0.0
    actor: str = "engine"

    @model_validator(mode="before")
    @classmethod
    def _escape_bytes(cls, data: Any) -> Any:
        """Bytes that are not UTF-8 (a file name's) written ``\\xNN`` (:mod:`channel.text`): every
        event can be encoded as JSON."""
        return _escaped(data) if isinstance(data, dict) else data

    TRANSIENT: ClassVar[bool] = False
    """A transient event (a live view's, e.g. streamed tokens) is published to watchers but never
    recorded, never numbered (``seq`` 0) and never seen by the engine's listeners: what it says
    arrives again, whole, in a recorded event (``ModelCalled`` carries the reply's final text)."""


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return escape_bytes(value)
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_escaped(v) for v in value)
    return value
