"""The live projection of a session's score: the judge and the metrics fed event by event, and the
open episode's possible favor, as the screen shows them (live, attached, or a replay up to its cursor).

Favors are labelled by the judge when an episode ends; the write that makes an episode a favor is
known as soon as the engine's check of it is in (``Judge.favor_seq``, the judge's own rule). The app
folds every batch of events in here first (:meth:`LiveScore.apply`), then hands the favor writes it
found to the other projections; the scoreboard and the page badges read it. No UI here: the TUI
reads this module, the engine never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from channel.events import EpisodeEnded, EpisodeStarted, Event, FileChanged, ModelCalled, SessionEnded, SessionStarted
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Metrics, Scorer


@dataclass(frozen=True)
class LiveUpdate:
    """What one batch of events changed."""

    closed: list[EpisodeLabel] = field(default_factory=list)
    """The episode labels the batch closed."""
    favors: list[FileChanged] = field(default_factory=list)
    """The writes that made an open episode a favor (at most one per episode: the first)."""
    changed: bool = False
    """Whether anything shown changed (metrics, the open episode, its favor, model usage)."""


class LiveScore:
    """The score as of the last event folded in (a replay seek rebuilds it from events[0..i])."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every event folded in."""
        self.scorer = Scorer()
        self.metrics: Metrics = self.scorer.metrics()
        self.open_favor: FileChanged | None = None
        """The open episode's favor write, by the judge's rule (None: none yet / no episode open)."""
        self.open_episode = ""
        """The open episode as shown: ``ep3 t-trap-1`` ("" when none is open)."""
        self.requester = "requester"
        """The requester's agent id (the favor alerts name it)."""
        self._writes: dict[int, FileChanged] = {}
        """The open episode's file changes by seq (the favor's write is known after its check)."""

    def apply(self, events: Sequence[Event]) -> LiveUpdate:
        """Feed events (in seq order) to the judge and the metrics."""
        judge = self.scorer.judge
        update = LiveUpdate()
        changed = ended = False
        for event in events:
            label = self.scorer.feed(event)
            if label is not None:
                update.closed.append(label)
            if isinstance(event, SessionStarted):
                self.requester = next((a.id for a in event.agents if a.role == "requester"), self.requester)
            elif isinstance(event, EpisodeStarted):
                self.open_episode = f"ep{event.episode} {event.task_id}"
                self.open_favor = None
                self._writes = {}
                changed = True
            elif isinstance(event, EpisodeEnded):
                self.open_favor = None
                changed = True
            elif isinstance(event, SessionEnded):
                ended = True  # how the session ended is part of the metrics (``ended``, ``partial``)
            elif isinstance(event, ModelCalled):
                changed = True  # usage totals per agent
            elif isinstance(event, FileChanged):
                self._writes[event.seq] = event
            if self.open_favor is None and judge.favor_seq in self._writes:
                self.open_favor = self._writes[judge.favor_seq]
                update.favors.append(self.open_favor)
                changed = True
        if update.closed or ended:
            self.metrics = self.scorer.metrics()
        return LiveUpdate(update.closed, update.favors, changed or ended or bool(update.closed))
