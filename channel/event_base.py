"""What every event carries (``channel.events`` builds the union of events on it)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class BaseEvent(BaseModel):
    """What every event carries. Build an event with its own fields (and ``actor``); the emitter
    stamps ``session``, ``seq`` and ``ts`` when it is emitted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str = ""
    seq: int = 0
    ts: float = 0.0
    actor: str = "engine"

    TRANSIENT: ClassVar[bool] = False
    """A transient event (a live view's, e.g. streamed tokens) is published to watchers but never
    recorded, never numbered (``seq`` 0) and never seen by the engine's listeners: what it says
    arrives again, whole, in a recorded event (``ModelCalled`` carries the reply's final text)."""
