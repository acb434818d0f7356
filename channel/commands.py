"""Commands: requests sent to a running session (by the TUI, a remote viewer, a reviewer console).

Commands are not facts; the engine answers each with an event (``NormChanged``, ``ReviewDecided``,
``SessionPaused``, ``CommandRefused``, ...), which is what gets recorded.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from channel.vocab import Decision
from channel.vocab.recorded import NormValue
from channel.vocab.tools import ToolArgument


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str
    sender: str = "tui"
    token: str | None = None
    """Shared secret proving the reviewer role (checked by the engine when one is configured)."""


class SetNorm(_Command):
    kind: Literal["SetNorm"] = "SetNorm"
    key: str
    value: NormValue
    """The new value, or text as typed on a command line (``Norms.with_value`` parses it)."""


class DecideReview(_Command):
    kind: Literal["DecideReview"] = "DecideReview"
    request_id: str
    decision: Decision
    comment: str = ""


class Pause(_Command):
    kind: Literal["Pause"] = "Pause"


class Resume(_Command):
    kind: Literal["Resume"] = "Resume"


class Step(_Command):
    """Let exactly one agent turn run, then pause again."""

    kind: Literal["Step"] = "Step"


class SetSpeed(_Command):
    kind: Literal["SetSpeed"] = "SetSpeed"
    speed: float = Field(gt=0)


class Stop(_Command):
    kind: Literal["Stop"] = "Stop"


class SeatCall(_Command):
    """A person in an agent's seat calls one of the agent's tools (``pass`` ends the turn without
    acting). The engine answers with ``SeatAnswered`` (and the ``ToolCalled`` every call makes)."""

    kind: Literal["SeatCall"] = "SeatCall"
    seat: str
    """The agent id whose seat the person plays (owner, requester)."""
    tool: str
    args: dict[str, ToolArgument] = Field(default_factory=dict)
    call: str = ""
    """An id of the sender's choosing, repeated in the answer."""


Command = Annotated[
    SetNorm | DecideReview | Pause | Resume | Step | SetSpeed | Stop | SeatCall,
    Field(discriminator="kind"),
]
