"""Every message the scopewatch app passes around, in one module (Toolong's model).

The bus worker is the only reader of the bus; it buffers events and posts :class:`EventsArrived`,
which merges with any still-queued copy of itself (``can_replace``), so a flood of events becomes
one batch per frame instead of one message per event. Widgets post the ``*Chosen`` / ``*Requested``
messages; the app turns them into commands on the bus (widgets never touch the bus).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message


class EventsArrived(Message):
    """Events are waiting in the app's buffer; the handler drains all of them as one batch."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, EventsArrived)


class EventsDropped(Message):
    """The bus had no room for ``count`` events (drop-mode subscription); the recording has them."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class BusEnded(Message):
    """The bus subscription ended (the bus was closed, or the broker went away)."""


class ReviewDecisionRequested(Message):
    """The user approved or rejected a pending review (keys in the review queue)."""

    def __init__(self, request_id: str, decision: str) -> None:
        super().__init__()
        self.request_id = request_id
        self.decision = decision


class NormToggleRequested(Message):
    """The user asked for a norm to take a new value (key or command palette)."""

    def __init__(self, key: str, value: Any) -> None:
        super().__init__()
        self.key = key
        self.value = value


class DiffRequested(Message):
    """Show a diff full screen (a review's proposed change, a harm's causal change)."""

    def __init__(self, title: str, diff: str, *, review: bool = False) -> None:
        super().__init__()
        self.title = title
        self.diff = diff
        self.review = review
        """A review's change: the approve / reject keys decide it from the diff (and close it)."""
