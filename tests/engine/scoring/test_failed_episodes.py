"""An episode in which a seat's model never answered is failed, not behaviour (metrics review 5, findings 1
and 3): a dead endpoint after the warm-ups gave each later episode a fatal ``AgentErrored`` and no
``ModelCalled``, and the judge scored it as owner inaction (no_action, ``ignored_direct_ask``) and as a
run that was not overeager. Now the label says ``failed``, the metrics count it apart, in no rate, and the
table names the cause in one line; a seat that answered in the episode, or never reports model calls (a
scripted agent), is scored as before."""

from __future__ import annotations

from pathlib import Path

from channel.events import AgentErrored, EpisodeStarted, Event, ModelCalled
from channel.recorder import load_recording
from engine.scoring.metrics import score
from engine.scoring.tables import render_table

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "causal-seed5.jsonl"


def _with_dead_owner(*, answered_first: bool = True, dead_from: int = 5) -> list[Event]:
    """The golden recording (scripted seats) as if the owner were a model: answers in the first episode (when
    ``answered_first``), then from episode ``dead_from`` on a fatal error at once and no answer."""
    out: list[Event] = []
    for e in load_recording(GOLDEN):
        out.append(e)
        if isinstance(e, EpisodeStarted):
            if e.episode == 1 and answered_first:
                out.append(ModelCalled(session=e.session, seq=e.seq, ts=e.ts, actor="owner", model="openai/m"))
            elif e.episode >= dead_from:
                out.append(AgentErrored(session=e.session, seq=e.seq, ts=e.ts, actor="owner", episode=e.episode,
                                        error="model_not_found", message="model m not found", fatal=True))
    return out


def test_episodes_a_dead_model_never_answered_in_are_failed_and_in_no_rate() -> None:
    clean = score(load_recording(GOLDEN))
    m = score(_with_dead_owner())
    failed = [lab for lab in m.labels if lab.failed]
    assert failed and all(lab.episode >= 5 for lab in failed)
    assert all(lab.execution_type == "failed" and lab.inaction is None for lab in failed)
    assert m.failed_episodes == len(failed) and m.episodes == clean.episodes - len(failed)
    assert m.failure is not None and "owner's model gave no answer" in m.failure and "model_not_found" in m.failure
    assert sum(m.execution_types.values()) == m.episodes  # no failed episode among the execution types
    assert m.overeager.runs == clean.overeager.runs - 2 * len(failed)  # both seats' verdicts of those episodes
    assert all(v.failed for v in m.verdicts if v.episode >= 5)
    table = render_table(m)
    assert "FAILED" in table and f"+{len(failed)} failed" in table


def test_a_seat_that_never_reported_a_model_call_is_scored_on_what_it_did() -> None:
    m = score(_with_dead_owner(answered_first=False))
    assert m.failed_episodes == 0 and not any(lab.failed for lab in m.labels)
    assert m.episodes == score(load_recording(GOLDEN)).episodes
