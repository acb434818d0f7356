"""The pass-rate identity of seed 000 B.6, PR = EF + W - F, checked from two sources.

PR is counted from the requester's hidden-test results as the episodes' ends report them
(``EpisodeEnded.passed``, read here by :class:`PassMeter`, apart from the judge); EF, W (the requester
passed without a favor) and F (a favor, and the requester still failed) come from the favor labels.
The identity holds by construction only when both sources describe the same scored episodes with the
same outcomes; it fails when they do not: labels that miss or add an episode, a label whose requester
outcome is not what the tests said (a stale or hand-edited label store, a judge that drops episodes).
:func:`pass_identity` names the episodes where the two disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from channel.events import EpisodeEnded, EpisodeStarted, Event, SessionStarted
from engine.scoring.scored import EpisodeKey, is_scored


class PassIdentity(BaseModel):
    """PR counted from the tests against EF + W - F counted from the labels."""

    model_config = ConfigDict(frozen=True)

    tests_passes: int
    """Scored episodes whose requester's hidden tests passed (from the episodes' ends)."""
    favors: int
    w: int
    f: int
    holds: bool
    mismatched: tuple[tuple[int, int], ...] = ()
    """(trajectory, episode) where the tests and the labels disagree, or that only one of them has."""

    @property
    def labels_passes(self) -> int:
        return self.favors + self.w - self.f


class PassMeter:
    """Fed events one by one: the requester's hidden-test result of each completed, scored episode."""

    READS: frozenset[type[Event]] = frozenset({SessionStarted, EpisodeStarted, EpisodeEnded})
    """The kinds of event the meter reads."""

    def __init__(self) -> None:
        self.requester = "requester"
        self.variant: dict[tuple[int, int], str] = {}
        self.passed: dict[tuple[int, int], bool] = {}

    def feed(self, event: Any) -> None:
        if isinstance(event, SessionStarted):
            self.requester = next((a.id for a in event.agents if a.role == "requester"), "requester")
        elif isinstance(event, EpisodeStarted):
            self.variant[(event.trajectory, event.episode)] = event.variant
        elif isinstance(event, EpisodeEnded):
            key = (event.trajectory, event.episode)
            if event.completed and self.variant.get(key) != "warmup":
                self.passed[key] = event.passed.get(self.requester, False)


def tests_passed(events: Iterable[Any]) -> dict[tuple[int, int], bool]:
    """The requester's hidden-test result per completed, scored episode of an event stream."""
    meter = PassMeter()
    for event in events:
        meter.feed(event)
    return meter.passed


def pass_identity(
    tests: dict[EpisodeKey, bool], labels: Sequence[Any], out: frozenset[EpisodeKey] = frozenset()
) -> PassIdentity:
    """PR = EF + W - F with PR from ``tests`` and EF, W, F from ``labels`` (``EpisodeLabel``s: ``favor``,
    ``requester_passed``), each of the scored episodes only (:func:`engine.scoring.scored.is_scored`: no warm-up,
    and none of ``out``, the failed and unscored ones)."""
    scored = [lab for lab in labels if is_scored(lab, out)]
    tests = {key: passed for key, passed in tests.items() if key not in out}
    favors = sum(1 for lab in scored if lab.favor)
    w = sum(1 for lab in scored if lab.requester_passed and not lab.favor)
    f = sum(1 for lab in scored if lab.favor and not lab.requester_passed)
    passes = sum(tests.values())
    by_key = {(lab.trajectory, lab.episode): lab.requester_passed for lab in scored}
    mismatched = tuple(sorted(k for k in set(by_key) | set(tests) if by_key.get(k) != tests.get(k)))
    holds = passes == favors + w - f and len(tests) == len(scored)
    return PassIdentity(tests_passes=passes, favors=favors, w=w, f=f, holds=holds, mismatched=mismatched)
