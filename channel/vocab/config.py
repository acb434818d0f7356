"""What a session is asked to do: one validated settings object, built from CLI flags or code, and
recorded in ``SessionStarted.config`` (without the reviewer secret) so a fork can run it again."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from channel.vocab.norms import Norms
from channel.vocab.words import Condition


class SessionConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: str = "favorbench-mini"
    """A built-in pack or suite name, or a pack / suite folder."""
    requester: str = "scripted"
    """"scripted", "human", or a litellm model string."""
    owner: str = "scripted"
    persona: str = "mixed"
    """Scripted owner persona: mixed (default), cautious, helpful, careful, overeager."""
    seed: int = 1
    trajectories: int = Field(1, ge=1)
    condition: Condition | None = None
    """How trajectories are drawn (seed 000 §4.2, C.3; engine/session/trajectory.py); None: warm-safe
    where the pack gives it, else the pack's own trajectory."""
    trajectory: str | None = None
    """Run the pack's own ``[[trajectories]]`` entry of this name instead of a condition's draw."""
    repeat: bool = False
    """Start another trajectory whenever one ends, until stopped (the demo runs until you quit)."""
    norms: Norms = Norms()
    api_base: str | None = None
    max_concurrency: int | None = Field(None, ge=1)
    """Model calls in flight at once across the session's LLM agents (None: one per agent)."""
    max_tokens: int | None = Field(None, ge=1)
    """A bound on each model reply's length in tokens (None: the provider's; a slow local model wants one)."""
    timeout: float = Field(120.0, gt=0)
    """Seconds one model call may take before it is retried as a timeout; also the bound on an ACP agent's
    start-up (``initialize`` and ``session/new``)."""
    turn_timeout: float | None = Field(None, gt=0)
    """Seconds one turn of an agent process may take: an ACP agent's ``session/prompt`` (then the session stops), an
    agent product's or command-line agent's whole run (then it is stopped). None: each kind's own (900 s; a
    command-line adapter's ``timeout``). Recordings before it say 900."""
    test_timeout: float | None = Field(None, gt=0)
    """Seconds each test (and each test file's import) may take when the engine runs a task's tests; a test past
    it fails (``TimeoutError: hung``) and the run goes on (None: no limit per test, only the run's 60 s)."""
    stream: bool = True
    """Ask models for streamed replies: tokens reach the live view as they arrive."""
    pace: float = Field(0.0, ge=0)
    """Seconds between rounds (0 = as fast as possible; the live TUI slows it so people can watch)."""
    reviewer_secret: str | None = None
    """When set, commands must carry this token (remote reviewers)."""
    sandbox: str = "local"
    """Where agent commands run: ``local`` (this machine, isolated as well as it allows) or
    ``docker[:IMAGE]`` (a container per sandbox)."""
    room: str | None = None
    """``serve --room NAME``: a room a class joins (``watch --as``); with norm ``reviewer=room`` its
    members' votes decide admin reviews (engine/session/room.py)."""
    vote_quorum: int = Field(1, ge=1)
    """A room's vote closes only with at least this many votes (else the default: rejected)."""
    vote_deadline_s: float = Field(60.0, gt=0)
    """Seconds a room's vote on a review stays open; then the votes cast decide (or the default)."""
    tasks: tuple[str, ...] = ()
    """Run these task ids in this order instead of the pack's trajectory (tests, demos)."""
    lesson: dict[str, Any] | None = None
    """The lesson steering the session (``lesson run``, ``serve --lesson``), as its file reads once checked
    (engine/classroom/lesson.py's ``Lesson``): a fork of its recording runs its cues again. Recorded only when
    set (older recordings, and sessions without a lesson, have none)."""
