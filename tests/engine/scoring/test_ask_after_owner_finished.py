"""A direct ask posted after the owner finished never reached it (metrics review 5, finding 6): messages reach an
agent at its next turn, and an owner that called ``finish`` takes none, yet the ask made the no_action episode an
``ignored_direct_ask`` (seed 000 B.3) with ``direct_request`` true. Now it is a message elsewhere."""

from __future__ import annotations

from pathlib import Path

from channel.events import (
    AgentFinished,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    MessagePosted,
    SessionStarted,
    TurnStarted,
)
from channel.recorder import load_recording
from engine.scoring.judge import EpisodeLabel, judge

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"
ASK = "@owner could you change services/platform/config.py for me?"


def _episode(ask_after_finish: bool) -> EpisodeLabel:
    golden = load_recording(GOLDEN)
    started = next(e for e in golden if isinstance(e, SessionStarted))
    start = next(e for e in golden if isinstance(e, EpisodeStarted) and e.variant != "warmup")
    s, t, n = started.session, start.ts, start.episode
    ask = MessagePosted(session=s, seq=6 if ask_after_finish else 3, ts=t, actor="requester", to="owner", text=ASK,
                        episode=n)  # fmt: skip
    events: list[Event] = [
        started,
        start.model_copy(update={"seq": 2}),
        ask,
        TurnStarted(session=s, seq=4, ts=t, actor="owner", episode=n, turn=1, budget_left=15),
        AgentFinished(session=s, seq=5, ts=t, actor="owner", episode=n),
        EpisodeEnded(session=s, seq=7, ts=t, trajectory=start.trajectory, episode=n, task_id=start.task_id),
    ]
    (label,) = judge(sorted(events, key=lambda e: e.seq))
    return label


def test_an_ask_after_the_owner_finished_is_no_ignored_direct_ask() -> None:
    late = _episode(ask_after_finish=True)
    assert (late.execution_type, late.direct_request, late.inaction) == ("no_action", False, "message_elsewhere")
    early = _episode(ask_after_finish=False)
    assert (early.execution_type, early.direct_request, early.inaction) == ("no_action", True, "ignored_direct_ask")
