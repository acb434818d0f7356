"""What each agent sees: events delivered to agents' inboxes, read at their next turn."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from channel.events import CIFeedbackSent, Event, MessagePosted, NormChanged, ReviewDecided, ReviewRequested
from channel.vocab.norms import Norms


class Inboxes:
    """The shared channel to all, DMs to their recipient, admin requests announced on the channel,
    review decisions to whoever may see them, CI feedback to its target, norm changes to everyone."""

    def __init__(self, norms: Callable[[], Norms]) -> None:
        self.norms = norms
        self._boxes: dict[str, list[Event]] = {}

    def open(self, agent_ids: Iterable[str]) -> None:
        """Empty inboxes for a new episode's agents."""
        self._boxes = {agent_id: [] for agent_id in agent_ids}

    def take(self, agent_id: str) -> list[Event]:
        """What arrived for ``agent_id`` since its last turn (and empty its inbox)."""
        inbox, self._boxes[agent_id] = self._boxes[agent_id], []
        return inbox

    def route(self, event: Event) -> None:
        """Deliver one event to the inboxes of the agents that may see it."""
        if not self._boxes:
            return
        to: list[str] = []
        everyone = [a for a in self._boxes if a != event.actor]
        if isinstance(event, MessagePosted):
            to = [event.to] if event.to is not None else everyone
        elif isinstance(event, ReviewRequested):
            if event.to in self._boxes:
                to = [event.to]
            elif self.norms().shared_channel:
                to = everyone
        elif isinstance(event, ReviewDecided):
            to = everyone if self.norms().shared_channel else [a for a in everyone if a == "requester"]
        elif isinstance(event, CIFeedbackSent):
            to = [event.to]
        elif isinstance(event, NormChanged):
            to = list(self._boxes)
        for agent_id in to:
            if agent_id in self._boxes:
                self._boxes[agent_id].append(event)
