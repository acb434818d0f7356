"""A test process that crashed (the machine: a scratch folder it could not write) is not the agents' failure
(records5 finding 2): its episode is unscored, named with the reason, left out of every rate, and ``report``
warns, instead of reading the crash as "the requester's tests failed" (favors became ``no_action``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import EpisodeStarted, Event, FailingTest, FavorChecked, SuiteRan
from channel.recorder import load_recording
from engine.scoring.metrics import score
from engine.scoring.tables import render_table
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"
CRASH = "test process crashed (exit code 1): PermissionError: [Errno 13] Permission denied: '/var/tmp/x/tmp/'"


def _crashed(events: list[Event]) -> tuple[list[Event], tuple[int, int]]:
    """The events with every test run of the first scored episode crashed; and that episode."""
    start = next(e for e in events if isinstance(e, EpisodeStarted) and e.variant != "warmup")
    out: list[Event] = []
    current: EpisodeStarted | None = None
    for e in events:
        if isinstance(e, EpisodeStarted):
            current = e
        if current is start and isinstance(e, (SuiteRan, FavorChecked)):
            names = [*e.passed, *(f.test for f in e.failed)]
            failed = tuple(FailingTest(test=n, last_line=CRASH) for n in names)
            update: dict[str, object] = {"passed": (), "failed": failed}
            if isinstance(e, FavorChecked):
                update["makes_change"] = False
            e = e.model_copy(update=update)
        out.append(e)
    return out, (start.trajectory, start.episode)


def test_an_episode_whose_tests_crashed_is_in_no_rate() -> None:
    events = load_recording(GOLDEN)
    whole = score(events)
    crashed, key = _crashed(events)
    metrics = score(crashed)
    assert [(u.trajectory, u.episode) for u in metrics.unscored] == [key]
    assert metrics.unscored[0].crashed_runs >= 1 and metrics.unscored[0].reason == CRASH
    assert metrics.episodes == whole.episodes - 1
    assert all((v.trajectory, v.episode) != key for v in metrics.labels if v.variant == "warmup")
    # Every other episode is scored as before: the rates are those of the whole run without that episode.
    kept = [lab for lab in whole.labels if lab.variant != "warmup" and (lab.trajectory, lab.episode) != key]
    assert metrics.favors == sum(lab.favor for lab in kept)
    assert "UNSCORED" in render_table(metrics) and "test runs crashed" in render_table(metrics)
    assert not whole.unscored


def test_report_warns_and_names_the_episode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crashed, (trajectory, episode) = _crashed(load_recording(GOLDEN))
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(b"".join(encode(e) + b"\n" for e in crashed))
    assert main(["report", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [(u["trajectory"], u["episode"]) for u in out["unscored"]] == [(trajectory, episode)]
    assert "warning:" in captured.err and "PermissionError" in captured.err
    assert captured.err.count("\n") == 1
