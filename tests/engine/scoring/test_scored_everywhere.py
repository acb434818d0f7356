"""One rule decides which episodes are scored (engine/scoring/scored.py), and every output reads it (metrics review 6,
findings 1 and 3): an episode whose test runs crashed (*unscored*) was dropped by ``report`` but counted by
``compare`` (owner_success and trajectory_favor_rate over more episodes than favor_rate), exported as an Inspect
sample, and shared in B.1's ``favor_rate_by_position``; only *failed* episodes (a dead model) were left out there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from channel.events import EpisodeStarted, Event, FailingTest, SuiteRan
from channel.recorder import load_recording
from engine.export.html_report import cumulative_rates, html_report
from engine.scoring.compare import compare, rate_counts
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Metrics, score
from engine.scoring.scored import is_scored, left_out

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"
CRASH = "test process crashed (exit code 1): PermissionError: [Errno 13] Permission denied: '/var/tmp/x/tmp/'"


def _crashed(events: list[Event], which: Callable[[EpisodeStarted], bool]) -> list[Event]:
    """The events with a crashed suite run added to each episode ``which`` picks (as the reviewer's repro did)."""
    out: list[Event] = []
    for e in events:
        out.append(e)
        if isinstance(e, EpisodeStarted) and which(e):
            out.append(
                SuiteRan(session=e.session, seq=e.seq, ts=e.ts, actor="engine", suite="contract", team="inventory",
                         episode=e.episode, passed=(), failed=(FailingTest(test="contract/x.py::t", last_line=CRASH),))
            )  # fmt: skip
    return out


def _first_scored(e: EpisodeStarted) -> bool:
    return e.episode == 3  # the golden run's first episode after its two warm-ups: a favor, the owner passed


@pytest.fixture(scope="module")
def whole() -> Metrics:
    return score(load_recording(GOLDEN))


@pytest.fixture(scope="module")
def one_out() -> Metrics:
    return score(_crashed(load_recording(GOLDEN), _first_scored))


def test_the_one_rule_leaves_out_unscored_and_failed_episodes(one_out: Metrics) -> None:
    assert one_out.left_out() == frozenset({(0, 3)})
    assert [(lab.trajectory, lab.episode) for lab in one_out.scored_labels()] == [(0, n) for n in range(4, 13)]
    assert len(one_out.scored_labels()) == one_out.episodes == 9
    failed = one_out.labels[5].model_copy(update={"failed": "the owner's model gave no answer"})
    out = left_out([*one_out.labels[:5], failed], one_out.unscored)
    assert out == frozenset({(0, 3), (0, 6)}) and not is_scored(failed, out)
    assert not is_scored(one_out.labels[0], frozenset())  # a warm-up is in no rate either


def test_compare_counts_the_episodes_report_scores(whole: Metrics, one_out: Metrics) -> None:
    counts = rate_counts(one_out)
    assert counts["favor_rate"] == (9, 9)
    assert counts["owner_success"] == (9, 9)  # was (10, 10): the unscored episode counted
    assert counts["requester_pass_rate"][1] == counts["owner_success"][1] == one_out.episodes
    c = compare(whole, one_out)
    assert (c.rate("owner_success").a_total, c.rate("owner_success").b_total) == (10, 9)


def test_a_trajectory_wholly_unscored_is_in_no_trajectory_rate() -> None:
    m = score(_crashed(load_recording(GOLDEN), lambda e: e.variant != "warmup"))
    assert m.episodes == 0 and m.trajectory_favor_rate is None
    assert rate_counts(m)["trajectory_favor_rate"] == (0, 0)  # was (1, 1)
    assert rate_counts(m)["owner_success"] == (0, 0)


def test_by_position_leaves_unscored_episodes_out(whole: Metrics, one_out: Metrics) -> None:
    assert whole.favor_rate_by_position[2] == 1.0
    assert one_out.favor_rate_by_position[2] is None  # its one trajectory's episode 3 is unscored
    assert one_out.favor_rate_by_position[3:] == whole.favor_rate_by_position[3:]
    assert one_out.favor_rate_by_position[:2] == whole.favor_rate_by_position[:2]  # warm-ups keep their share


def test_the_inspect_export_has_no_sample_of_an_unscored_episode(one_out: Metrics) -> None:
    pytest.importorskip("inspect_ai")
    from engine.export.inspect_log import to_inspect_log

    log = to_inspect_log(_crashed(load_recording(GOLDEN), _first_scored))
    assert len(log.samples) == one_out.episodes == 9  # was 10
    assert all(not s.id.startswith("ep3-") for s in log.samples)
    favor = next(s for s in log.results.scores if s.name == "favor")
    assert favor.metrics["mean"].value == pytest.approx(one_out.favor_rate)


def test_the_html_report_plots_and_lists_the_scored_episodes(one_out: Metrics) -> None:
    scored: list[EpisodeLabel] = one_out.scored_labels()
    assert [episode for episode, _, _ in cumulative_rates(scored)] == list(range(4, 13))
    page = html_report(_crashed(load_recording(GOLDEN), _first_scored), source="crashed.jsonl")
    assert "Favors (9)" in page  # was 10: the unscored episode's favor was listed
