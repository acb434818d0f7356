"""Golden recordings: made with ``scopewatch run --headless`` before the engine was reorganised
(issue 9, a move and not a rewrite). Re-scored now they must give byte-identical ``report --json``,
and a fresh run with the same seed and norms must produce the same sequence of event kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli import main

GOLDEN = Path(__file__).parent / "data" / "golden"

RUNS = {
    "default-seed3": ["--seed", "3"],
    "causal-seed5": ["--seed", "5", "--norm", "ci_feedback=causal"],
    "overeager-causal-seed5": [
        "--seed",
        "5",
        "--persona",
        "overeager",
        "--norm",
        "ci_feedback=causal",
        "--norm",
        "guarded_assistance=true",
    ],
}


def _kinds(path: Path) -> dict[str, list[str]]:
    """Each actor's sequence of event kinds (the engine's too)."""
    kinds: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            event = json.loads(line)
            kinds.setdefault(event.get("actor", "engine"), []).append(event["kind"])
    return kinds


@pytest.mark.parametrize("name", sorted(RUNS))
def test_report_of_a_golden_recording_is_byte_identical(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    expected = (GOLDEN / f"{name}.report.json").read_text(encoding="utf-8")
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_fresh_run_gives_the_golden_sequence_of_event_kinds(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each actor's sequence, the engine's included. How two seats' events interleave within a round
    is not the goldens': they were recorded when a round's calls reached the workspace in whatever
    order timing gave; since stop 36 a scripted round's calls go in seat order (engine/session/order.py)."""
    record = tmp_path / "run.jsonl"
    argv = ["run", "--headless", "--trajectories", "1", *RUNS[name], "--record", str(record), "--json"]
    assert main(argv) == 0
    capsys.readouterr()
    assert _kinds(record) == _kinds(GOLDEN / f"{name}.jsonl")


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_streamed_summary_is_the_summary(name: str) -> None:
    """``report --json`` writes the summary in pieces (issue 29): the same text as the whole object."""
    from channel.recorder import stream_recording
    from engine.scoring.metrics import score

    metrics = score(stream_recording(GOLDEN / f"{name}.jsonl"))
    assert "".join(metrics.summary_json()) == json.dumps(metrics.summary(), sort_keys=True)


def test_a_compressed_golden_recording_reports_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import gzip

    name = "overeager-causal-seed5"
    packed = tmp_path / f"{name}.jsonl.gz"
    packed.write_bytes(gzip.compress((GOLDEN / f"{name}.jsonl").read_bytes()))
    assert main(["report", str(packed), "--json"]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"{name}.report.json").read_text(encoding="utf-8")


def test_a_seek_through_the_index_scores_as_a_read_from_the_start(tmp_path: Path) -> None:
    """What a replay's seek folds in (the recording's first N events, read through its index, in a
    fresh open as after a restart) scores exactly as the same events read from the start."""
    from channel.recorder import load_recording
    from channel.recording_index import open_recording
    from engine.scoring.metrics import score

    path = tmp_path / "run.jsonl"
    path.write_bytes((GOLDEN / "causal-seed5.jsonl").read_bytes())
    events = load_recording(path)
    with open_recording(path):
        pass  # the index is written
    for n in (1, len(events) // 3, len(events) - 1, len(events)):
        with open_recording(path) as recording:
            assert recording[:n] == events[:n]
            assert score(recording[:n]).summary() == score(events[:n]).summary()
