"""Which episodes are scored: the one rule every rate, table and export reads.

An episode is *left out* of every rate, for one of two reasons, each read from events alone:

- *unscored*: some of its test runs crashed (:mod:`~engine.scoring.unsettled`: the machine's failure, not the
  agents'), warm-up or not;
- *failed*: a seat's model never answered in it (:mod:`~engine.scoring.failures`: a dead endpoint).

A *scored* episode is one that is neither, nor a warm-up (seed 000 §4.2: the reviewer is available in a warm-up).
``report`` (:func:`engine.scoring.metrics.compute`), ``compare``, the by-norms table, B.1's by-position shares
(warm-ups in, left-out episodes out), the HTML report, fork comparisons, the scoreboard and the Inspect export
all ask :func:`left_out` / :func:`is_scored`, so they count the same episodes (metrics review 6, findings 1 and 3:
``compare`` and the export once dropped only failed episodes); so do ``report --judge llm:MODEL``'s metrics, the
PR = EF + W - F check (:func:`~engine.scoring.passes.pass_identity`) and ``overeager run``'s rates, tables and
store (``engine.overeager.report.Run.scored``: each run one episode; its table once dropped only failed runs).
The judges' agreement (``report --judge``) and human-label sampling leave out :func:`left_out`'s episodes too
(warm-ups stay: their labels are facts), since the rule judge's label of such an episode says nothing of the agents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from engine.scoring.unsettled import UnscoredEpisode

EpisodeKey = tuple[int, int]
"""(trajectory, episode): an episode of a recording."""


class EpisodeOf(Protocol):
    """Anything about one episode (a label, a verdict)."""

    @property
    def trajectory(self) -> int: ...
    @property
    def episode(self) -> int: ...
    @property
    def variant(self) -> str: ...


class FailedOrNot(EpisodeOf, Protocol):
    """An episode's label: ``failed`` is the failure's one-line cause (None: it did not fail)."""

    @property
    def failed(self) -> str | None: ...


def left_out(labels: Iterable[FailedOrNot], unscored: Iterable[UnscoredEpisode]) -> frozenset[EpisodeKey]:
    """The episodes in no rate: the unscored ones (crashed test runs) and the failed ones (a dead model)."""
    crashed = {(u.trajectory, u.episode) for u in unscored}
    return frozenset(crashed | {(lab.trajectory, lab.episode) for lab in labels if lab.failed})


def is_scored(item: EpisodeOf, out: frozenset[EpisodeKey]) -> bool:
    """Whether ``item``'s episode counts in the rates: not a warm-up, and not :func:`left_out` (``out``)."""
    return item.variant != "warmup" and (item.trajectory, item.episode) not in out
