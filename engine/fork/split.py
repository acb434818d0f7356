"""A fork beside its parent, row by row: both courses from the fork point, aligned by episode and
round, the first difference and the episode labels that differ marked (the split view plays it).

A round is the agents' turns with one turn number in an episode: an event belongs to the round of
the last ``TurnStarted`` before it in its episode (round 0: before the first turn). Rows are the
(episode, round) pairs either course reaches, in order; a row differs when its events, compared as
two runs must agree on them (:func:`~engine.fork.course.comparable`), differ. The fork's own
changes (the ``NormChanged`` / ``SeatChanged`` its fork point applies) are shown and marked, but are
no difference: the first difference is the first event after the fork point where what happened
differs, the first place the changes changed something.

Read in streamed passes, never held whole (``scopewatch replay FORK --parent PARENT`` opens both
recordings through their indexes): the first difference is found reading both in step up to it
(:func:`~engine.fork.compare.first_difference`, the rule ``report --parent`` uses), then one pass over
each labels the episodes and finds the rows, keeping of each row only its (episode, round), where its
events lie in the two recordings and whether it differs; a row's events are read again, and described,
when it is shown (the last few hundred shown are kept).
"""

from __future__ import annotations

import operator
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from pydantic import BaseModel

from channel.events import EpisodeStarted, Event, Forked, TurnStarted
from engine.fork.compare import CompareError, CoursePlaces, Divergence, check_parent, first_difference, own_change
from engine.fork.course import NOT_THE_COURSE, changes_text, comparable, describe, unhashed
from engine.scoring.judge import EpisodeLabel, Judge

LABEL_FIELDS = ("favor", "execution_type", "favor_type", "harm", "requester_passed", "owner_passed")
"""The episode label fields the split view compares."""
ROWS_KEPT = 512
"""Rows kept described once shown (play walks forward; the view shows the last few hundred)."""


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


@dataclass
class _Group:
    """One course's events of one (episode, round): where they lie in the recording (indexes
    ``lo`` .. ``hi - 1``, watching events between them aside), as two runs must agree on them."""

    key: tuple[int, int]
    lo: int
    hi: int
    seen: list[dict[str, Any]] = field(default_factory=list)
    hot: bool = False
    """It holds the course's side of the first difference."""


class SplitRows(Sequence[SplitRow]):
    """The rows, each kept as a few numbers (its episode and round, its events' span in each recording,
    whether it differs); a row asked for is read from the two recordings again and described."""

    def __init__(self, parent: Sequence[Event], fork: Sequence[Event]) -> None:
        self._recordings = (parent, fork)
        self._numbers = array("q")
        """Six per row: episode, round, the parent's span (lo, hi), the fork's span."""
        self._differs = bytearray()
        self.first: int | None = None
        """The index of the row holding the first difference (None: the same course)."""
        self._shown: OrderedDict[int, SplitRow] = OrderedDict()

    def add(self, key: tuple[int, int], parent: _Group | None, fork: _Group | None, differs: bool) -> None:
        if self.first is None and any(g is not None and g.hot for g in (parent, fork)):
            self.first = len(self)  # one row holds it (the parent's and the fork's event may fall in two)
        spans = [n for g in (parent, fork) for n in ((0, 0) if g is None else (g.lo, g.hi))]
        self._numbers.extend((*key, *spans))
        self._differs.append(differs)

    def key(self, index: int) -> tuple[int, int]:
        """Row ``index``'s (episode, round), without reading it."""
        return self._numbers[6 * index], self._numbers[6 * index + 1]

    def __len__(self) -> int:
        return len(self._differs)

    @overload
    def __getitem__(self, index: int) -> SplitRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[SplitRow]: ...

    def __getitem__(self, index: int | slice) -> SplitRow | list[SplitRow]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"row {index} of {len(self)}")
        row = self._shown.get(index)
        if row is None:
            row = self._shown[index] = self._read(index)
            if len(self._shown) > ROWS_KEPT:
                self._shown.popitem(last=False)
        return row

    def _read(self, index: int) -> SplitRow:
        episode, round_, *spans = self._numbers[6 * index : 6 * index + 6]
        parent, fork = (
            [e for e in events[lo:hi] if e.kind not in NOT_THE_COURSE]
            for events, lo, hi in zip(self._recordings, spans[::2], spans[1::2], strict=True)
        )
        return SplitRow(
            episode=episode,
            round=round_,
            parent=[SplitLine(seq=e.seq, text=describe(e)) for e in parent],
            fork=[SplitLine(seq=e.seq, text=describe(e), change=own_change(e)) for e in fork],
            differs=bool(self._differs[index]),
            first=index == self.first,
        )


@dataclass
class SplitCourse:
    at: int
    changes: str
    rows: SplitRows
    episodes: list[EpisodeLabels]
    first_difference: Divergence | None

    @property
    def first_row(self) -> int | None:
        """The index of the row holding the first difference (None: the same course)."""
        return self.rows.first


class _Course:
    """One recording's course from the fork point, streamed as rows: every event read is fed to its
    judge, and each course event's place kept (what :func:`comparable` maps ``*_seq`` fields by)."""

    def __init__(self, events: Iterable[Event]) -> None:
        self.events = events
        self.judge = Judge()
        self.places = CoursePlaces()
        self.index = -1
        """The recording index of the event last read."""
        self.skipped = 0
        """Course events up to the fork point (left out of the rows)."""

    def _read(self) -> Iterator[Event]:
        for index, event in enumerate(self.events):
            self.index = index
            self.judge.feed(event)
            yield event

    def groups(self, before: Callable[[int, Event], bool], hot: int | None) -> Iterator[_Group]:
        """The course's rows after the events ``before(n, event)`` says are up to the fork point (the
        ``n``-th course event), each event in the round of the last ``TurnStarted`` before it in its
        episode (round 0: before the first turn); the fork's own changes are in no comparison."""
        episode = turn = 0
        group: _Group | None = None
        for event in self.places.course(self._read()):
            if isinstance(event, EpisodeStarted):
                episode, turn = event.episode, 0
            elif isinstance(event, TurnStarted):
                turn = max(turn, event.turn)
            if group is None and before(self.skipped, event):
                self.skipped += 1
                continue
            if group is None or group.key != (episode, turn):
                if group is not None:
                    yield group
                group = _Group((episode, turn), self.index, self.index)
            group.hi = self.index + 1
            if not own_change(event):
                group.seen.append(comparable(event, self.places.get))
            group.hot = group.hot or event.seq == hot
        if group is not None:
            yield group


def split_course(
    parent: Sequence[Event],
    fork: Sequence[Event],
    *,
    parent_hash: str | tuple[str, ...] | None = None,
    parent_name: str = "this file",
) -> SplitCourse:
    """Both courses from the fork's fork point on, aligned; raises :class:`CompareError` when
    ``fork`` is not a fork (its ``Forked`` header names the fork point) or, given the parent's
    ``parent_hash``, not this parent's. Each is read in streamed passes (a recording opened through
    its index, :func:`channel.recording_index.open_recording`, is not held); rows read theirs when shown."""
    header = next((e for e in fork if isinstance(e, Forked)), None)
    if header is None:
        raise CompareError("not a fork: it has no Forked event")
    if parent_hash is not None:
        check_parent(header, parent_hash, parent_name)
    at = header.at
    first = first_difference(parent, fork, at)  # the one rule, shared with report --parent
    p_course, f_course = _Course(parent), _Course(fork)
    p_groups = p_course.groups(lambda _n, e: e.seq <= at, None if first is None else first.parent_seq)
    p = next(p_groups, None)  # past the parent's events up to the fork point: the fork's course skips as many
    start = p_course.skipped
    f_groups = f_course.groups(lambda n, _e: n < start, None if first is None else first.fork_seq)
    f = next(f_groups, None)
    rows = SplitRows(parent, fork)
    episodes: set[int] = set()
    while p is not None or f is not None:
        key = min(g.key for g in (p, f) if g is not None)
        a = p if p is not None and p.key == key else None
        b = f if f is not None and f.key == key else None
        rows.add(key, a, b, differs=_differs(a.seen if a else [], b.seen if b else []))
        episodes.add(key[0])
        if a is not None:
            p = next(p_groups, None)
        if b is not None:
            f = next(f_groups, None)
    return SplitCourse(
        at=at,
        changes=changes_text(header.norms, header.agents),
        rows=rows,
        episodes=_labels(p_course.judge.labels, f_course.judge.labels, episodes),
        first_difference=first,
    )


def _labels(parent: list[EpisodeLabel], fork: list[EpisodeLabel], episodes: set[int]) -> list[EpisodeLabels]:
    p = {lab.episode: lab for lab in parent}
    f = {lab.episode: lab for lab in fork}
    out = []
    for n in sorted(episodes & (set(p) | set(f))):
        a = {k: getattr(p[n], k) for k in LABEL_FIELDS} if n in p else None
        b = {k: getattr(f[n], k) for k in LABEL_FIELDS} if n in f else None
        differing = [k for k in LABEL_FIELDS if a is None or b is None or a[k] != b[k]]
        task = (p.get(n) or f[n]).task_id
        out.append(EpisodeLabels(episode=n, task_id=task, parent=a, fork=b, differing=differing))
    return out


def _differs(parent: list[dict[str, Any]], fork: list[dict[str, Any]]) -> bool:
    """Whether a row's events differ (:func:`~engine.fork.course.unhashed`: a parent without a pack hash)."""
    return len(parent) != len(fork) or any(operator.ne(*unhashed(p, f)) for p, f in zip(parent, fork, strict=True))
