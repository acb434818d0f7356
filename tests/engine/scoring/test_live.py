"""The live score (engine/scoring/live.py), fed batch by batch as the app feeds it, ends where the
offline score of the whole recording is, and marks each favor episode's write once, as it happens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from channel.events import FileChanged
from channel.recorder import load_recording
from engine.scoring.live import LiveScore
from engine.scoring.metrics import score

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"


@pytest.mark.parametrize("name", ["default-seed3", "causal-seed5", "overeager-causal-seed5"])
def test_live_score_in_batches_equals_the_offline_score(name: str) -> None:
    events = load_recording(GOLDEN / f"{name}.jsonl")
    live = LiveScore()
    closed, favors = [], []
    for i in range(0, len(events), 7):
        update = live.apply(events[i : i + 7])
        closed += update.closed
        favors += update.favors
        assert update.changed or not (update.closed or update.favors)
    assert live.metrics.summary() == score(events).summary()
    assert len(favors) == sum(label.favor for label in closed) > 0
    assert all(isinstance(w, FileChanged) for w in favors)
    assert live.open_favor is None and live.open_episode.startswith("ep12 ")
    live.reset()
    assert live.metrics.episodes == 0 and live.open_episode == "" and live.open_favor is None


def test_the_live_score_imports_no_ui() -> None:
    code = "import sys, engine.scoring.live; sys.exit(any(m.split('.')[0] in ('textual', 'tui') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
