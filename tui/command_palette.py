"""The command palette (ctrl+p): every norm value, pause / resume / step, review decisions, themes."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from channel.vocab.norms import choices_for
from themes import THEMES
from tui.host import SessionApp
from tui.widgets.norms import NORM_KEYS, fmt


class ScopewatchCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        app: SessionApp = self.app  # type: ignore[assignment]
        out: list[tuple[str, Callable[[], Any], str]] = []
        current = app.norms_panel.norms
        for _key, name in NORM_KEYS:
            for value in choices_for(name):
                if value == "room" and app.reviews.room.room is None:
                    continue  # reviewer=room only in a room
                if current.get(name) != value:
                    out.append(
                        (
                            f"Norm: {name} → {fmt(value)}",
                            partial(app.request_norm, name, value),
                            "publishes SetNorm; applies from the next turn",
                        )
                    )
        out += [
            ("Session: pause / resume", app.action_toggle_pause, "Pause or Resume command"),
            ("Session: step one turn", app.action_step, "Step command"),
            ("Review: approve highlighted", partial(app.action_decide, "approved"), "DecideReview approved"),
            ("Review: reject highlighted", partial(app.action_decide, "rejected"), "DecideReview rejected"),
        ]
        out += [(f"Theme: {name}", partial(app.set_theme, name), "switch theme") for name in THEMES]
        return out

    async def discover(self) -> Hits:
        for title, callback, help_ in self._commands():
            yield DiscoveryHit(title, callback, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_ in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_)
