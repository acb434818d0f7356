"""The command palette (ctrl+p): every norm value (every norm, those without a number key too; a
turn budget typed as a number: ``turn_budget 30``), pause / resume / step, review decisions, themes,
and in a room the vote rule (``SetVoteRule``, the instructor's: ``quorum 3``, ``deadline 300`` typed,
or a step either way from the rule in force)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from channel.commands import SetVoteRule
from channel.vocab.norms import NormError, Norms, choices_for
from themes import THEMES
from tui.host import SessionApp
from tui.widgets.norms import NORM_KEYS, fmt

KEYED = [name for _key, name in NORM_KEYS]
NORMS = KEYED + [name for name in Norms.model_fields if name not in KEYED]
"""Every norm: those with a number key first (the Norms panel's order), then the others."""
BUDGET = re.compile(r"turn_budget\D*?(\d+)")
QUORUM = re.compile(r"quorum\D*?(\d+)")
DEADLINE = re.compile(r"deadline\D*?(\d+(?:\.\d+)?)")
"""A room's vote rule typed in the palette: ``quorum 3``, ``deadline 300`` (seconds)."""
"""A turn budget typed in the palette: any value, not only the paper's 15 / 8 / 4."""


def _norm(app: SessionApp, name: str, value: Any) -> tuple[str, Callable[[], Any], str]:
    return (
        f"Norm: {name} → {fmt(value)}",
        partial(app.request_norm, name, value),
        "publishes SetNorm; applies from the next turn",
    )


def _rule(app: SessionApp, quorum: int, deadline_s: float) -> tuple[str, Callable[[], Any], str]:
    async def send() -> None:
        await app.send(app.command(SetVoteRule, quorum=quorum, deadline_s=deadline_s))

    return (
        f"Vote rule: quorum {quorum}, deadline {deadline_s:g}s",
        send,
        "publishes SetVoteRule (instructor token); applies to open votes too",
    )


def _rules(app: SessionApp, query: str | None = None) -> list[tuple[str, Callable[[], Any], str]]:
    """In a room: the vote rule one step either way from the one in force; with ``query``, the one typed
    in it (``quorum 3``, ``deadline 300``)."""
    room = app.reviews.room.room
    if room is None:
        return []
    q, d = room.quorum, room.deadline_s
    wanted = {(max(1, q - 1), d), (q + 1, d), (q, d + 60), (q, max(10.0, d / 2))} - {(q, d)}
    if query is not None:
        wanted = set()
        if (typed := QUORUM.search(query)) and 1 <= int(typed.group(1)) <= 10_000:
            wanted.add((int(typed.group(1)), d))
        if (typed := DEADLINE.search(query)) and 0 < float(typed.group(1)) <= 86_400:
            wanted.add((q, float(typed.group(1))))
    return [_rule(app, quorum, deadline) for quorum, deadline in sorted(wanted)]


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
        for title, callback, help_ in [*self._commands(), *_rules(self.app)]:  # type: ignore[arg-type]
            yield DiscoveryHit(title, callback, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        typed = BUDGET.search(query)
        if typed and _valid_budget(int(typed.group(1))):
            title, callback, help_ = _norm(self.app, "turn_budget", int(typed.group(1)))  # type: ignore[arg-type]
            yield Hit(1.0, title, callback, help=help_)
        for title, callback, help_ in _rules(self.app, query):  # type: ignore[arg-type]
            yield Hit(1.0, title, callback, help=help_)
        for title, callback, help_ in [*self._commands(), *_rules(self.app)]:  # type: ignore[arg-type]
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_)
