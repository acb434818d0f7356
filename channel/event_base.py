"""What every event carries (``channel.events`` builds the union of events on it)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError

from channel.event_history import ADDED_LATER
from channel.text import escape_bytes

ESCAPED: dict[str, bool] = {"escaped": True}
"""The validation context of an event built again from an event's dump (``model_validate(data, context=ESCAPED)``:
a redacted copy): its strings are escaped already, and are not escaped twice."""


class BaseEvent(BaseModel):
    """What every event carries. Build an event with its own fields (and ``actor``); the emitter
    stamps ``session``, ``seq`` and ``ts`` when it is emitted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str = ""
    seq: int = 0
    ts: float = 0.0
    actor: str = "engine"

    _WRITTEN: ClassVar[frozenset[str]] = frozenset()
    """The fields every recorded line of this kind has carried (all but :data:`ADDED_LATER`'s)."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._WRITTEN = frozenset(cls.model_fields) - ADDED_LATER.get(cls.__name__, frozenset())

    @model_validator(mode="after")
    def _escape_bytes(self, info: ValidationInfo) -> Self:
        """Bytes that are not UTF-8 (a file name's) are written ``\\xNN`` (:mod:`channel.text`) as an
        event is built, so every event can be encoded as JSON. Decoding skips this on purpose:
        pydantic's JSON parser refuses lone surrogates and bytes that are not UTF-8, so a decoded
        event holds nothing to escape. (After validation, not before: a validator before would make
        pydantic build every decoded event's JSON as Python objects first, half the cost of reading
        a recording.) Nor when built again from an event's own fields (``context`` :data:`ESCAPED`): the
        scheme is one-to-one, not idempotent."""
        if isinstance(info.context, dict) and info.context.get("escaped"):
            return self
        if info.mode == "json":
            if not self._WRITTEN <= self.__pydantic_fields_set__:  # a line cut or edited: refused
                missing = min(self._WRITTEN - self.__pydantic_fields_set__)
                raise PydanticCustomError("missing_field", "Field required", {"field": missing})
            return self
        for name, value in self.__dict__.items():
            escaped = _escaped(value)
            if escaped is not value:
                object.__setattr__(self, name, escaped)  # the event is frozen; this is its own validation
        return self

    TRANSIENT: ClassVar[bool] = False
    """A transient event (a live view's, e.g. streamed tokens) is published to watchers but never
    recorded, never numbered (``seq`` 0) and never seen by the engine's listeners: what it says
    arrives again, whole, in a recorded event (``ModelCalled`` carries the reply's final text)."""


def _escaped(value: Any) -> Any:
    """``value`` with every string escaped; ``value`` itself when nothing needed it."""
    if isinstance(value, str):
        escaped = escape_bytes(value)
        return value if escaped == value else escaped
    if isinstance(value, dict):
        items = {k: _escaped(v) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    if isinstance(value, (list, tuple)):
        parts = [_escaped(v) for v in value]
        return value if all(p is v for p, v in zip(parts, value, strict=True)) else type(value)(parts)
    if isinstance(value, BaseModel):
        fields = {k: _escaped(v) for k, v in value.__dict__.items()}
        changed = {k: v for k, v in fields.items() if v is not value.__dict__[k]}
        return value.model_copy(update=changed) if changed else value
    return value


class NewerEvent(BaseEvent):
    """A recorded line of a kind this scopewatch does not know, at a ``schema_version`` it does: an
    event a newer writer added (:func:`channel.codec.decode_recorded`). It keeps the line's place
    (its ``seq``) and is read by no projection or score; it is in no union, so never decoded or sent."""

    kind: Literal["NewerEvent"] = "NewerEvent"
    newer_kind: str = ""
    """The kind the line named."""
