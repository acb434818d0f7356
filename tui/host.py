"""The app as the parts it drives see it: its mode (:mod:`tui.modes`) and the command palette
(:mod:`tui.command_palette`) are typed against :class:`SessionApp`, and
:class:`~tui.app.ScopewatchApp` is its one subclass, so neither imports the app (which imports both).

Each method here is the app's to define; this class only names the ones its parts call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import App

from channel.bus import Bus
from channel.commands import _Command
from channel.events import Event
from tui.widgets.norms import NormsPanel
from tui.widgets.reviews import ReviewQueue
from tui.widgets.status import StatusBar


class SessionApp(App[int]):
    """A Textual app that shows one session: the panels its mode and palette read, the commands
    it publishes, and the session keys' actions."""

    norms_panel: NormsPanel
    reviews: ReviewQueue
    status: StatusBar

    def command(self, kind: type[_Command], **fields: Any) -> _Command:
        """A command of ``kind`` for this session, from the TUI."""
        raise NotImplementedError

    async def send(self, command: _Command) -> bool:
        """Publish a command for the session; False (with a notice) when there is nothing to command."""
        raise NotImplementedError

    async def follow(self, bus: Bus) -> None:
        """Subscribe to ``bus`` and fold this session's events in."""
        raise NotImplementedError

    def apply_events(self, batch: Sequence[Event], *, live: bool) -> None:
        """Fold a batch of events (in seq order) into every projection."""
        raise NotImplementedError

    def reset_projection(self) -> None:
        """Forget every event folded in."""
        raise NotImplementedError

    def request_norm(self, key: str, value: Any) -> None:
        """Ask for a norm change (published as SetNorm)."""
        raise NotImplementedError

    def set_theme(self, name: str) -> None:
        """Switch to the theme named ``name``."""
        raise NotImplementedError

    def action_decide(self, decision: str) -> None:
        raise NotImplementedError

    async def action_toggle_pause(self) -> None:
        raise NotImplementedError

    async def action_step(self) -> None:
        raise NotImplementedError
