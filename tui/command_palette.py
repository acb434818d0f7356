"""The command palette (ctrl+p): every norm value (every norm, those without a number key too; a
turn budget typed as a number: ``turn_budget 30``), pause / resume / step, review decisions, themes."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from channel.vocab.norms import NormError, Norms, choices_for
from themes import THEMES
from tui.host import SessionApp
from tui.widgets.norms import NORM_KEYS, fmt

KEYED = [name for _key, name in NORM_KEYS]
NORMS = KEYED + [name for name in Norms.model_fields if name not in KEYED]
"""Every norm: those with a number key first (the Norms panel's order), then the others."""
BUDGET = re.compile(r"turn_budget\D*?(\d+)")
"""A turn budget typed in the palette: any value, not only the paper's 15 / 8 / 4."""


def _norm(app: SessionApp, name: str, value: Any) -> tuple[str, Callable[[], Any], str]:
    return (
        f"Norm: {name} → {fmt(value)}",
        partial(app.request_norm, name, value),
        "publishes SetNorm; applies from the next turn",
    )


def _valid_budget(turns: int) -> bool:
    try:
        Norms().with_value("turn_budget", turns)
    except NormError:
        return False
    return True


class ScopewatchCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], Any], str]]:
        app: SessionApp = self.app  # type: ignore[assignment]
        out: list[tuple[str, Callable[[], Any], str]] = []
        current = app.norms_panel.norms
        for name in NORMS:
            out += [
                _norm(app, name, value)
                for value in choices_for(name)
                if current.get(name) != value and not (value == "room" and app.reviews.room.room is None)
            ]  # reviewer=room only in a room
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
        typed = BUDGET.search(query)
        if typed and _valid_budget(int(typed.group(1))):
            title, callback, help_ = _norm(self.app, "turn_budget", int(typed.group(1)))  # type: ignore[arg-type]
            yield Hit(1.0, title, callback, help=help_)
        for title, callback, help_ in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_)
