"""Model usage: calls, tokens and cost per agent and per episode, from ``ModelCalled`` events."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from channel.events import Event, ModelCalled


@dataclass(frozen=True)
class Usage:
    """Model calls, tokens and cost (USD, litellm's offline cost map; 0 for unknown models)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    estimated_calls: int = 0
    """Calls whose provider reported no usage (their tokens are litellm's estimate, or 0)."""

    def add(self, prompt_tokens: int, completion_tokens: int, cost_usd: float, estimated: bool = False) -> Usage:
        return Usage(
            self.calls + 1,
            self.prompt_tokens + prompt_tokens,
            self.completion_tokens + completion_tokens,
            self.cost_usd + cost_usd,
            self.estimated_calls + estimated,
        )

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class UsageMeter:
    """Tokens and cost per agent and per episode, fed ``ModelCalled`` events one by one (the live
    scoreboard) or from a recording. Episode 0 collects calls made outside an episode."""

    READS: frozenset[type[Event]] = frozenset({ModelCalled})
    """The kinds of event the meter reads."""

    def __init__(self) -> None:
        self.by_episode: dict[str, dict[int, Usage]] = {}
        self.totals: dict[str, Usage] = {}

    def feed(self, event: Any) -> None:
        if not isinstance(event, ModelCalled):
            return
        per_episode = self.by_episode.setdefault(event.actor, {})
        args = (event.prompt_tokens, event.completion_tokens, event.cost_usd, event.usage_estimated)
        per_episode[event.episode] = per_episode.get(event.episode, Usage()).add(*args)
        self.totals[event.actor] = self.totals.get(event.actor, Usage()).add(*args)


def usage_by_agent(events: Iterable[Any]) -> dict[str, dict[int, Usage]]:
    """Tokens and cost per agent and per episode of an event stream."""
    meter = UsageMeter()
    for event in events:
        meter.feed(event)
    return meter.by_episode


def usage_totals(events: Iterable[Any]) -> dict[str, Usage]:
    """Tokens and cost per agent over a whole event stream."""
    meter = UsageMeter()
    for event in events:
        meter.feed(event)
    return meter.totals
