"""Events of forks and of people in agents' seats (part of the one union in ``channel.events``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from channel.event_base import BaseEvent
from channel.vocab.recorded import NormValue


class Forked(BaseEvent):
    """The first event of a fork's recording: which recording it continues, from which event, with
    which changes (applied at the first round boundary after ``at``, as a live toggle would be)."""

    kind: Literal["Forked"] = "Forked"
    parent: str
    """The parent recording's content hash (sha256 of its lines uncompressed, hex; forks recorded
    before it named the sha256 of the file's bytes: :func:`channel.recording_files.recording_hashes`)."""
    parent_session: str
    at: int
    """The ``seq`` of the parent's event the fork starts after."""
    norms: dict[str, NormValue] = Field(default_factory=dict)
    """The norms changed at the fork point (key -> new value; ``Norms`` checks each when applied)."""
    agents: dict[str, str] = Field(default_factory=dict)
    """The seats given another agent at the fork point (agent id -> kind: scripted, human, a model)."""


class SeatChanged(BaseEvent):
    """Another agent took a seat mid-session (a fork's ``--owner human``, say); it acts from the
    next round on, with the same tools, budget and norms."""

    kind: Literal["SeatChanged"] = "SeatChanged"
    agent_id: str
    old: str
    new: str
    """The agents' kinds, before and after (scripted:..., llm:..., human)."""


class SeatPrompted(BaseEvent):
    """A person's turn in an agent's seat began: what an agent in that seat would be told now
    (its brief on the first turn, then what arrived since its last turn). ``actor`` is the seat."""

    kind: Literal["SeatPrompted"] = "SeatPrompted"
    episode: int
    turn: int
    budget_left: int
    text: str


class SeatAnswered(BaseEvent):
    """The result of a person's tool call in an agent's seat, whole (up to the agent's limit), for
    the screen that sent it; the call itself is a ``ToolCalled`` like any agent's."""

    kind: Literal["SeatAnswered"] = "SeatAnswered"
    call: str
    """The id the sender gave the call (``SeatCall.call``)."""
    tool: str
    ok: bool = True
    result: str = ""
    turn_over: bool = False
    """Whether this call ended the person's turn (every tool but list_files and read_file does)."""
