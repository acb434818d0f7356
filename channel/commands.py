"""Commands: requests sent to a running session (by the TUI, a remote viewer, a reviewer console).

Commands are not facts; the engine answers each with an event (``NormChanged``, ``ReviewDecided``,
``SessionPaused``, ``CommandRefused``, ...), which is what gets recorded.

A command is checked whole before anything acts on it or records it: numbers are finite and in
range (``SetSpeed``), every text field is bounded (:data:`SHORT_TEXT`, :data:`LONG_TEXT`), a whole
command is at most :data:`MAX_COMMAND_BYTES` of JSON, and ``SetNorm`` names a known norm. A payload
that fails is never decoded into a command: the engine refuses it with a ``CommandRefused`` event.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from channel.vocab import Decision
from channel.vocab.norms import Norms
from channel.vocab.recorded import NormValue
from channel.vocab.tools import ToolArgument

SHORT_TEXT = 200
"""The longest id, name or key a command may carry (session, sender, request id, seat, tool...)."""
LONG_TEXT = 16_000
"""The longest free text a command may carry (a review comment, a norm value as typed)."""
MAX_COMMAND_BYTES = 256 * 1024
"""The largest command, as JSON (a person's seat call carries file contents in its arguments)."""
MAX_SPEED = 64.0
"""The fastest replay/pace multiplier ``SetSpeed`` accepts (the TUI's steps stop well below it)."""

Short = Annotated[str, StringConstraints(max_length=SHORT_TEXT)]
Text = Annotated[str, StringConstraints(max_length=LONG_TEXT)]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    session: Short
    sender: Short = "tui"
    token: Short | None = None
    """Shared secret proving the reviewer role to a local session (``run --secret``); never sent over
    MQTT, where commands are signed instead (channel.credentials)."""
    nonce: Short | None = None
    """Set by the MQTT bus when it signs the command: a captured command cannot be replayed."""

    @model_validator(mode="after")
    def _bounded(self) -> Self:
        size = len(self.model_dump_json())
        if size > MAX_COMMAND_BYTES:
            raise ValueError(f"command is {size} bytes of JSON; at most {MAX_COMMAND_BYTES} allowed")
        return self


class SetNorm(_Command):
    kind: Literal["SetNorm"] = "SetNorm"
    key: Short
    value: NormValue
    """The new value, or text as typed on a command line (``Norms.with_value`` parses it)."""

    @field_validator("key")
    @classmethod
    def _known(cls, key: str) -> str:
        if key not in Norms.model_fields:
            raise ValueError(f"unknown norm; known norms: {', '.join(Norms.model_fields)}")
        return key

    @field_validator("value")
    @classmethod
    def _short(cls, value: NormValue) -> NormValue:
        if isinstance(value, str) and len(value) > LONG_TEXT:
            raise ValueError(f"a norm value is at most {LONG_TEXT} characters")
        return value


class DecideReview(_Command):
    kind: Literal["DecideReview"] = "DecideReview"
    request_id: Short
    decision: Decision
    comment: Text = ""


class Pause(_Command):
    kind: Literal["Pause"] = "Pause"


class Resume(_Command):
    kind: Literal["Resume"] = "Resume"


class Step(_Command):
    """Let exactly one agent turn run, then pause again."""

    kind: Literal["Step"] = "Step"


class SetSpeed(_Command):
    kind: Literal["SetSpeed"] = "SetSpeed"
    speed: float = Field(gt=0, le=MAX_SPEED)


class Stop(_Command):
    kind: Literal["Stop"] = "Stop"


class SeatCall(_Command):
    """A person in an agent's seat calls one of the agent's tools (``pass`` ends the turn without
    acting). The engine answers with ``SeatAnswered`` (and the ``ToolCalled`` every call makes)."""

    kind: Literal["SeatCall"] = "SeatCall"
    seat: Short
    """The agent id whose seat the person plays (owner, requester)."""
    tool: Short
    args: dict[Short, ToolArgument] = Field(default_factory=dict, max_length=32)
    call: Short = ""
    """An id of the sender's choosing, repeated in the answer."""


class CastVote(_Command):
    """A room member's vote on a pending review (norm ``reviewer=room``); a later vote by the same
    member on the same review replaces it. Answered with ``VoteCast`` or ``CommandRefused``."""

    kind: Literal["CastVote"] = "CastVote"
    request_id: Short
    choice: Decision


class SetVoteRule(_Command):
    """The instructor sets how a room's vote closes: ``quorum`` votes at least, within ``deadline_s``
    seconds of the request (engine/session/room.py). Answered with ``VoteRuleSet``."""

    kind: Literal["SetVoteRule"] = "SetVoteRule"
    quorum: int = Field(ge=1, le=10_000)
    deadline_s: float = Field(gt=0, le=86_400)


Command = Annotated[
    SetNorm | DecideReview | Pause | Resume | Step | SetSpeed | Stop | SeatCall | CastVote | SetVoteRule,
    Field(discriminator="kind"),
]
