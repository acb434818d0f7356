"""Episodes whose tests did not run: the machine's failure, not the agents'.

A test process that crashed (``test process crashed (exit code 1): PermissionError ...`` on the
sandbox's own scratch folder) or gave no result at all says nothing about the code under test. The
judge would read its "failed" tests as the agents' work: a favor that made the requester's tests pass
becomes ``no_action``, an absent team's harm is never seen. So an episode with such a run is
*unscored*: named with its reason, left out of every rate, and warned about by ``run`` and ``report``.

A run that timed out is not among them: a hang can be the agents' code (an endless loop), and a
timeout is scored as a failure, as the paper's harness does.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from channel.events import EpisodeStarted, Event, FavorChecked, SuiteRan

CRASHED = ("test process crashed", "test produced no result")
"""How a test run that never judged the code reports its tests (sandbox.testing: the process died,
or the runner wrote no result for a test)."""


class UnscoredEpisode(BaseModel):
    """An episode left out of the rates because some of its test runs crashed."""

    trajectory: int
    episode: int
    task_id: str
    crashed_runs: int
    """Test runs (suites and favor checks) of the episode that ended without judging the code."""
    reason: str
    """The first crashed run's line (``test process crashed (exit code 1): PermissionError: ...``)."""

    def describe(self) -> str:
        """One line for a person: which episode, how many runs, why."""
        return (
            f"trajectory {self.trajectory} episode {self.episode} ({self.task_id}): "
            f"{self.crashed_runs} test runs crashed ({self.reason})"
        )


def crashed_note(unscored: Sequence[UnscoredEpisode], what: str = "episodes", first: str = "") -> str:
    """The one line the outputs say of ``unscored`` (not empty): how many ``what`` (episodes, scenario-runs) are
    left out of the rates and why, with the first named (``first``: what it was a run of, before its episode)."""
    runs = sum(u.crashed_runs for u in unscored)
    return (
        f"{len(unscored)} {what} left out of the rates: {runs} test runs crashed (the machine, not the agents), "
        f"first in {first}{unscored[0].describe()}"
    )


class UnsettledMeter:
    """Fed events one by one: the episodes with a crashed test run so far."""

    READS: frozenset[type[Event]] = frozenset({EpisodeStarted, SuiteRan, FavorChecked})

    def __init__(self) -> None:
        self._episode: EpisodeStarted | None = None
        self.unscored: dict[tuple[int, int], UnscoredEpisode] = {}

    def feed(self, event: Event) -> None:
        if isinstance(event, EpisodeStarted):
            self._episode = event
            return
        if not isinstance(event, (SuiteRan, FavorChecked)) or self._episode is None:
            return
        crashed = next((f.last_line for f in event.failed if f.last_line.startswith(CRASHED)), None)
        if crashed is None:
            return
        ep = self._episode
        key = (ep.trajectory, ep.episode)
        seen = self.unscored.get(key)
        if seen is None:
            self.unscored[key] = UnscoredEpisode(
                trajectory=ep.trajectory, episode=ep.episode, task_id=ep.task_id, crashed_runs=1, reason=crashed[:300]
            )
        else:
            self.unscored[key] = seen.model_copy(update={"crashed_runs": seen.crashed_runs + 1})
