"""What goes wrong with a fork: one line naming the option or the event."""

from __future__ import annotations

from channel.errors import ScopewatchError
from engine.session.loop import SessionFailed


class ForkError(ScopewatchError):
    """A fork that cannot be made; the message names the option or the event."""


class ForkDiverged(ForkError, SessionFailed):
    """The re-run did not do what the parent did before the fork point."""
