"""A fork beside its parent, row by row: both courses from the fork point, aligned by episode and
round, the first difference and the episode labels that differ marked (the split view plays it).

A round is the agents' turns with one turn number in an episode: an event belongs to the round of
the last ``TurnStarted`` before it in its episode (round 0: before the first turn). Rows are the
(episode, round) pairs either course reaches, in order; a row differs when its events, compared as
two runs must agree on them (:func:`~engine.fork.course.comparable`), differ. The fork's own
changes (the ``NormChanged`` / ``SeatChanged`` its fork point applies) are shown and marked, but are
no difference: the first difference is the first event after the fork point where what happened
differs, the first place the changes changed something.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from channel.events import EpisodeStarted, Event, Forked, TurnStarted
from engine.fork.compare import CompareError, Divergence, check_parent, first_difference, own_change
from engine.fork.course import changes_text, comparable_pair, course, describe, positions
from engine.scoring.judge import judge

LABEL_FIELDS = ("favor", "execution_type", "favor_type", "harm", "requester_passed", "owner_passed")
"""The episode label fields the split view compares."""


class SplitLine(BaseModel):
    seq: int
    text: str
    change: bool = False
    """One of the fork's own changes, applied at its fork point."""


class SplitRow(BaseModel):
    """One (episode, round) of both courses."""

    episode: int
    round: int
    parent: list[SplitLine]
    fork: list[SplitLine]
    differs: bool
    first: bool = False
    """This row holds the first difference."""


class EpisodeLabels(BaseModel):
    episode: int
    task_id: str
    parent: dict[str, Any] | None
    fork: dict[str, Any] | None
    differing: list[str]
    """The label fields whose values differ (every field, when one side did not run the episode)."""


class SplitCourse(BaseModel):
    at: int
    changes: str
    rows: list[SplitRow]
    episodes: list[EpisodeLabels]
    first_difference: Divergence | None

    @property
    def first_row(self) -> int | None:
        """The index of the row holding the first difference (None: the same course)."""
        return next((i for i, row in enumerate(self.rows) if row.first), None)


def _rounds(events: Sequence[Event]) -> list[tuple[int, int, Event]]:
    """Each event of a course with its (episode, round)."""
    out: list[tuple[int, int, Event]] = []
    episode = turn = 0
    for event in events:
        if isinstance(event, EpisodeStarted):
            episode, turn = event.episode, 0
        elif isinstance(event, TurnStarted):
            turn = max(turn, event.turn)
        out.append((episode, turn, event))
    return out


def split_course(
    parent: Sequence[Event],
    fork: Sequence[Event],
    *,
    parent_hash: str | tuple[str, ...] | None = None,
    parent_name: str = "this file",
) -> SplitCourse:
    """Both courses from the fork's fork point on, aligned; raises :class:`CompareError` when
    ``fork`` is not a fork (its ``Forked`` header names the fork point) or, given the parent's
    ``parent_hash``, not this parent's."""
    header = next((e for e in fork if isinstance(e, Forked)), None)
    if header is None:
        raise CompareError("not a fork: it has no Forked event")
    if parent_hash is not None:
        check_parent(header, parent_hash, parent_name)
    at = header.at
    p_course, f_course = course(parent), course(fork)
    start = sum(1 for e in p_course if e.seq <= at)
    p_pos, f_pos = positions(parent), positions(fork)
    p_rows, f_rows = _rounds(p_course)[start:], _rounds(f_course)[start:]
    keys = sorted({(ep, rd) for ep, rd, _ in p_rows} | {(ep, rd) for ep, rd, _ in f_rows})
    changes = {e.seq for _, _, e in f_rows if own_change(e)}
    first = first_difference(parent, fork, at)  # the one rule, shared with report --parent
    first_seqs = {("p", first.parent_seq), ("f", first.fork_seq)} if first is not None else set()
    rows = []
    for key in keys:
        p_events = [e for ep, rd, e in p_rows if (ep, rd) == key]
        f_events = [e for ep, rd, e in f_rows if (ep, rd) == key]
        f_kept = [e for e in f_events if e.seq not in changes]
        same = len(p_events) == len(f_kept) and all(
            operator.eq(*comparable_pair(p, f, p_pos.get, f_pos.get)) for p, f in zip(p_events, f_kept, strict=True)
        )
        rows.append(
            SplitRow(
                episode=key[0],
                round=key[1],
                parent=[SplitLine(seq=e.seq, text=describe(e)) for e in p_events],
                fork=[SplitLine(seq=e.seq, text=describe(e), change=e.seq in changes) for e in f_events],
                differs=not same,
                first=any(("p", e.seq) in first_seqs for e in p_events)
                or any(("f", e.seq) in first_seqs for e in f_events),
            )
        )
    marked = next((i for i, r in enumerate(rows) if r.first), None)
    for row in rows[marked + 1 if marked is not None else 0 :]:
        row.first = False  # one row holds it (the parent's and the fork's event may fall in two)
    return SplitCourse(
        at=at,
        changes=changes_text(header.norms, header.agents),
        rows=rows,
        episodes=_labels(parent, fork, {ep for ep, _ in keys}),
        first_difference=first,
    )


def _labels(parent: Sequence[Event], fork: Sequence[Event], episodes: set[int]) -> list[EpisodeLabels]:
    p = {lab.episode: lab for lab in judge(list(parent))}
    f = {lab.episode: lab for lab in judge(list(fork))}
    out = []
    for n in sorted(episodes & (set(p) | set(f))):
        a = {k: getattr(p[n], k) for k in LABEL_FIELDS} if n in p else None
        b = {k: getattr(f[n], k) for k in LABEL_FIELDS} if n in f else None
        differing = [k for k in LABEL_FIELDS if a is None or b is None or a[k] != b[k]]
        task = (p.get(n) or f[n]).task_id
        out.append(EpisodeLabels(episode=n, task_id=task, parent=a, fork=b, differing=differing))
    return out
