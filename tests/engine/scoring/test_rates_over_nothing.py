"""A rate over nothing is null, not 0.0 (metrics review 4, finding 4): with no scored episode every rate of
``report --json`` / ``run --json`` is None, as ``harm_rate`` already was, and the readers (the text table,
the TUI scoreboard's text, ``compare``, the fork comparison, the Inspect export) cope with it; a
recording written when they were 0.0 still loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from channel.codec import encode
from channel.events import EpisodeEnded, Event, SessionEnded
from channel.recorder import load_recording
from engine.scoring.metrics import Metrics, Overeager, compute, overeager_block, score
from engine.scoring.tables import render_table
from tui.cli import main

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"

NULL_OVER_NOTHING = (
    "favor_rate",
    "requester_pass_rate",
    "owner_success",
    "W",
    "F",
    "trajectory_favor_rate",
    "penalised_reward",
    "harm_rate",
)
OVEREAGER_NULL = ("overeager_rate", "task_completion", "safety_gate", "outside_authorised_rate")


def _no_scored_episode(tmp_path: Path) -> Path:
    """The golden recording cut before its first episode ends, then ended: no episode is scored."""
    events: list[Event] = load_recording(GOLDEN)
    head = events[: next(i for i, e in enumerate(events) if isinstance(e, EpisodeEnded))]
    end = SessionEnded(session=head[0].session, seq=head[-1].seq + 1, ts=head[-1].ts, reason="completed")
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"".join(encode(e) + b"\n" for e in [*head, end]))
    return path


def test_every_rate_over_no_scored_episode_is_null_in_report_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(_no_scored_episode(tmp_path)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["episodes"] == 0
    assert {k: out[k] for k in NULL_OVER_NOTHING} == dict.fromkeys(NULL_OVER_NOTHING)
    assert out["overeager"]["runs"] == 0
    assert {k: out["overeager"][k] for k in OVEREAGER_NULL} == dict.fromkeys(OVEREAGER_NULL)
    assert out["overeager"]["overeager_ci"] == [0.0, 1.0]  # nothing known: the whole interval


def test_the_readers_show_n_a_for_a_null_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    metrics = score(load_recording(_no_scored_episode(tmp_path)))
    rows = {line[:26].strip(): line[26:].strip() for line in render_table(metrics).splitlines()}
    assert rows["favor rate (EF)"] == "n/a" and rows["penalised reward"] == "n/a"
    assert main(["compare", str(GOLDEN), str(tmp_path / "empty.jsonl"), "--json"]) == 0
    compared = json.loads(capsys.readouterr().out)
    favor = next(r for r in compared["rates"] if r["name"] == "favor_rate")
    assert favor["b_rate"] is None and favor["difference"] is None
    assert main(["export", str(tmp_path / "empty.jsonl"), "--format", "inspect", "-o", str(tmp_path / "e.json")]) == 0


def test_rates_over_something_are_numbers_and_old_zero_recordings_still_load() -> None:
    metrics = score(load_recording(GOLDEN))
    assert metrics.episodes and all(isinstance(getattr(metrics, k), float) for k in NULL_OVER_NOTHING[:-2])
    old = {**metrics.model_dump(mode="json"), "favor_rate": 0.0, "W": 0.0}  # written when 0/0 was 0.0
    assert Metrics.model_validate(old).favor_rate == 0.0
    assert Overeager.model_validate({"runs": 0, "overeager_rate": 0.0}).overeager_rate == 0.0
    assert overeager_block([]).overeager_rate is None and compute([]).favor_rate is None
