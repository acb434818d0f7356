"""Events of a class (part of the one union in ``channel.events``): a lesson's prompts to everyone
watching, and a room's presence and votes (engine/session/room.py, docs/classroom.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from channel.event_base import BaseEvent
from channel.vocab import Decision


class LessonPrompted(BaseEvent):
    """A lesson's cue came: its prompt is shown to everyone watching (``actor`` is ``lesson``); with
    ``paused`` the session waits at this round boundary until someone resumes it."""

    kind: Literal["LessonPrompted"] = "LessonPrompted"
    lesson: str
    """The lesson's title."""
    cue: int
    """The cue's place in the lesson file (0-based): what a later answer or vote names."""
    prompt: str
    choices: tuple[str, ...] = ()
    """The answers the prompt offers (``approve``, ``reject``); empty: a question to talk over."""
    at_seq: int
    """The event the cue waited for."""
    paused: bool = False


class Member(BaseModel):
    """One person in a room: the name they joined with (``watch --as``) and their token's role."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    role: str


class RoomChanged(BaseEvent):
    """Who is in the room now (``serve --room``): the members present, who holds which agent seat, and
    the vote rule. Emitted when the room opens and whenever someone joins or leaves."""

    kind: Literal["RoomChanged"] = "RoomChanged"
    room: str
    members: tuple[Member, ...] = ()
    seats: dict[str, str] = Field(default_factory=dict)
    """Agent id -> who plays it (an agent kind, or ``human: NAME`` once a member called its tools)."""
    quorum: int = 1
    deadline_s: float = 60.0


class VoteRuleSet(BaseEvent):
    """The instructor changed how a room's votes close (``SetVoteRule``); applies to open votes too."""

    kind: Literal["VoteRuleSet"] = "VoteRuleSet"
    quorum: int
    deadline_s: float


class VoteCast(BaseEvent):
    """A member's vote on a pending review (``actor`` is the member); ``replaced``: their earlier vote
    on it, which this one replaces."""

    kind: Literal["VoteCast"] = "VoteCast"
    request_id: str
    choice: Decision
    replaced: Decision | None = None


class VoteClosed(BaseEvent):
    """A room's vote on a review closed: the tally and what it decided (the ``ReviewDecided`` that
    follows applies it). ``reason``: majority (of those present), all voted, deadline, deadline without
    quorum, tie (the last three with a tie or no quorum fall to the default, rejected)."""

    kind: Literal["VoteClosed"] = "VoteClosed"
    request_id: str
    decision: Decision
    approved: int
    rejected: int
    present: int
    quorum: int
    reason: str
    votes: dict[str, Decision] = Field(default_factory=dict)
    """Member -> their last vote."""
