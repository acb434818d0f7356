"""A fork beside its parent, from the fork point on (``scopewatch report FORK --parent PARENT``).

Both recordings are scored by the same judge; the episodes compared are those still running or yet
to come at the fork point (the parent's episodes that ended after event ``at``, and the fork's with
the same numbers or later). The course of events is compared too: the first event after the fork
point where the two differ (engine/fork/plan.py says which events count and which fields).
"""

from __future__ import annotations

import itertools
import operator
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from channel.errors import ScopewatchError
from channel.events import EpisodeEnded, Event, Forked, NormChanged, SeatChanged
from engine.fork.course import NOT_THE_COURSE, changes_text, comparable_pair, describe
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Metrics, Scorer, rates
from engine.scoring.scored import is_scored

Events = Sequence[Event] | Callable[[], Iterable[Event]]
"""A recording's events: held, or read again (streamed) each time the callable is called."""


def _read(events: Events) -> Iterable[Event]:
    return events() if callable(events) else events

RATES = ("favor_rate", "harm_rate", "requester_pass_rate", "owner_success")


class CompareError(ScopewatchError):
    """The two recordings are not a fork and its parent."""


class Divergence(BaseModel):
    parent_seq: int | None
    parent_event: str
    fork_seq: int | None
    fork_event: str


class EpisodeRow(BaseModel):
    episode: int
    task_id: str
    variant: str
    parent: dict[str, Any] | None
    fork: dict[str, Any] | None


class ForkComparison(BaseModel):
    parent_hash: str
    at: int
    changes: str
    """As typed: ``admin_only=true, owner=human`` (or "no change")."""
    first_difference: Divergence | None
    """The first event after the fork point where the two courses differ (None: the same course)."""
    episodes: list[EpisodeRow]
    parent_rates: dict[str, Any]
    fork_rates: dict[str, Any]
    """Rates over the scored (non warm-up) episodes compared, as in the metrics table."""

    def table(self) -> str:
        """The comparison as text: what changed, the first difference, episode by episode, the rates."""
        lines = [f"fork at seq {self.at} of parent {self.parent_hash[:12]}: {self.changes}"]
        d = self.first_difference
        if d is None:
            lines.append("after the fork point: the same events as the parent")
        else:
            lines.append(
                f"first difference: parent seq {d.parent_seq or '-'} {d.parent_event} | fork seq {d.fork_seq or '-'} "
                f"{d.fork_event}"
            )
        lines.append("")
        lines.append(f"{'episode':<8}{'task':<22}{'parent':<34}fork")
        for row in self.episodes:
            lines.append(f"{row.episode:<8}{row.task_id[:21]:<22}{_outcome(row.parent):<34}{_outcome(row.fork)}")
        lines.append("")
        lines.append(f"{'rate (scored episodes)':<30}{'parent':>10}{'fork':>10}")
        for key in ("episodes", *RATES):
            lines.append(f"{key:<30}{_num(self.parent_rates.get(key)):>10}{_num(self.fork_rates.get(key)):>10}")
        return "\n".join(lines)


def _num(value: Any) -> str:
    return "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)


def _outcome(label: dict[str, Any] | None) -> str:
    if label is None:
        return "(not run)"
    what = f"favor ({label['favor_type']})" if label["favor"] else str(label["execution_type"])
    passed = "R✓" if label["requester_passed"] else "R✗"
    return f"{what}{', harm' if label['harm'] else ''} {passed}"


def _label(label: EpisodeLabel | None) -> dict[str, Any] | None:
    if label is None:
        return None
    keep = ("favor", "execution_type", "favor_type", "harm", "requester_passed", "owner_passed", "norms")
    return {k: v for k, v in label.model_dump(mode="json").items() if k in keep}


def check_parent(header: Forked, parent_hash: str | tuple[str, ...], parent_name: str) -> None:
    """Raise :class:`CompareError` unless the fork's header names one of the parent's hashes
    (:func:`channel.recording_files.recording_hashes`: its content, or its bytes for older forks)."""
    hashes = (parent_hash,) if isinstance(parent_hash, str) else parent_hash
    if header.parent not in hashes:
        raise CompareError(
            f"{parent_name} is not this fork's parent: the fork names {header.parent[:12]}, "
            f"{parent_name} is {hashes[0][:12]}"
        )


def compare_fork(
    parent: Events,
    fork: Events,
    *,
    parent_hash: str | tuple[str, ...],
    parent_name: str = "this file",
) -> ForkComparison:
    """Compare a fork with its parent from the fork point on; ``parent_hash``: the parent's hashes
    (the fork's ``Forked`` event must name one), ``parent_name``: its file, for the message. Given as
    callables, each recording is read in two streamed passes (memory does not grow with the files)."""
    header = next((e for e in _read(fork) if isinstance(e, Forked)), None)
    if header is None:
        raise CompareError("not a fork: it has no Forked event")
    check_parent(header, parent_hash, parent_name)
    at = header.at
    parent_scorer, fork_scorer = Scorer(), Scorer()
    ended_after: set[int] = set()
    for event in _read(parent):
        parent_scorer.feed(event)
        if isinstance(event, EpisodeEnded) and event.seq > at:
            ended_after.add(event.episode)
    for event in _read(fork):
        fork_scorer.feed(event)
    first = min(ended_after, default=None)
    parent_metrics, fork_metrics = parent_scorer.metrics(), fork_scorer.metrics()
    parent_labels = {lab.episode: lab for lab in parent_metrics.labels}
    fork_labels = {lab.episode: lab for lab in fork_metrics.labels}
    numbers = sorted(n for n in set(parent_labels) | set(fork_labels) if first is not None and n >= first)
    rows = []
    for n in numbers:
        any_label = parent_labels.get(n) or fork_labels[n]
        rows.append(
            EpisodeRow(
                episode=n,
                task_id=any_label.task_id,
                variant=any_label.variant,
                parent=_label(parent_labels.get(n)),
                fork=_label(fork_labels.get(n)),
            )
        )

    def scored(labels: dict[int, EpisodeLabel], metrics: Metrics) -> dict[str, Any]:
        out = metrics.left_out()  # the episodes `report` leaves out: failed or unscored (engine.scoring.scored)
        chosen = [labels[n] for n in numbers if n in labels and is_scored(labels[n], out)]
        return rates(chosen) if chosen else {"episodes": 0}

    return ForkComparison(
        parent_hash=header.parent,
        at=at,
        changes=changes_text(header.norms, header.agents),
        first_difference=first_difference(_read(parent), _read(fork), at),
        episodes=rows,
        parent_rates=scored(parent_labels, parent_metrics),
        fork_rates=scored(fork_labels, fork_metrics),
    )


def own_change(event: Event) -> bool:
    """One of the fork's own changes (the ``NormChanged`` / ``SeatChanged`` its fork point applies):
    shown beside the parent, but no difference."""
    return isinstance(event, NormChanged | SeatChanged) and event.actor == "fork"


def first_difference(parent: Iterable[Event], fork: Iterable[Event], at: int) -> Divergence | None:
    """The first event after the parent's event ``at`` where the two courses differ, the fork's own
    changes (:func:`own_change`) aside: the first place the changes changed something. The one rule
    for ``report --parent`` and the split view (engine/fork/split.py). Both are read once, in step, up to
    the difference: only each event's place in its course is kept (an array of seqs)."""
    p_at, f_at = CoursePlaces(), CoursePlaces()
    p_course, f_course = p_at.course(parent), f_at.course(fork)
    start, after = 0, None  # the parent's course events up to the fork point; the first one after it
    for event in p_course:
        if event.seq > at:
            after = event
            break
        start += 1
    p = itertools.chain([] if after is None else [after], p_course)
    f = (e for e in itertools.islice(f_course, start, None) if not own_change(e))
    for a, b in itertools.zip_longest(p, f):
        if a is None or b is None or operator.ne(*comparable_pair(a, b, p_at.get, f_at.get)):
            return Divergence(
                parent_seq=a.seq if a else None,
                parent_event=describe(a) if a else "(ended)",
                fork_seq=b.seq if b else None,
                fork_event=describe(b) if b else "(ended)",
            )
    return None


class CoursePlaces:
    """seq -> place in the course (what :func:`comparable` maps ``*_seq`` fields by), for the events read so
    far: an array indexed by seq, -1 for an event not in the course (a recording's seqs run on from 1)."""

    def __init__(self) -> None:
        self._places = array("q")
        self._count = 0

    def course(self, events: Iterable[Event]) -> Iterator[Event]:
        for event in events:
            while len(self._places) < event.seq:
                self._places.append(-1)
            if event.kind in NOT_THE_COURSE:
                continue
            if event.seq > 0:
                self._places[event.seq - 1] = self._count
            self._count += 1
            yield event

    def get(self, seq: int) -> int | None:
        place = self._places[seq - 1] if 0 < seq <= len(self._places) else -1
        return None if place < 0 else place


