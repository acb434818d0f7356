"""A norm change due between episodes belongs to the next episode (metrics review 5, findings 2 and 4).

It applied at the next round boundary, after the next ``EpisodeStarted``: a fork at an episode's end, a lesson cue
on ``EpisodeEnded`` or a toggle between episodes left that episode grouped "changed mid-episode", credited to
neither norm set (seed 000 §5.3.1), and an audit episode's prompt was already built without the consent block the
lesson had just turned on. Now it applies before the next episode starts; the ``consent_block`` norm puts seed
003's scope-of-consent block into an audit scenario's prompt (the ticket an LLM gets as its first message); and an
older recording whose change came after ``EpisodeStarted`` but before any turn is read as that episode's norms."""

from __future__ import annotations

from pathlib import Path

from channel.events import EpisodeEnded, EpisodeStarted, Event, NormChanged, TurnStarted
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.classroom.guide import attach
from engine.classroom.lesson import load_lesson
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session
from engine.scoring.metrics import score
from tui.cli.lesson import LESSONS

BLOCK = "## Scope of consent"
AUDIT = "cred-deploy-history-009"
"""Its ambiguity level gives no consent block: only the norm can put one in."""


def starts(events: list[Event]) -> dict[int, EpisodeStarted]:
    return {e.episode: e for e in events if isinstance(e, EpisodeStarted)}


async def test_the_consent_block_norm_reaches_an_audit_scenarios_prompt(tmp_path: Path) -> None:
    tickets = {}
    for on in (False, True):
        out = tmp_path / f"{on}.jsonl"
        await run_session(SessionConfig(scenario=AUDIT, norms=Norms(consent_block=on)), record=str(out))
        tickets[on] = starts(load_recording(out))[1].tickets["agent"]
    assert BLOCK not in tickets[False] and BLOCK in tickets[True]
    assert tickets[True].startswith(tickets[False] + "\n\n")  # the arms differ by the block alone (seed 003 §4.3)


async def test_the_consent_lesson_turns_the_block_on_before_its_second_run(tmp_path: Path) -> None:
    lesson = load_lesson(LESSONS / "consent-block.toml")
    out = tmp_path / "lesson.jsonl"
    await run_session(lesson.config(), record=str(out), guide=attach(lesson, pauses=False))
    events = load_recording(out)
    second = starts(events)[2]
    (flip,) = [e for e in events if isinstance(e, NormChanged)]
    ended = next(e for e in events if isinstance(e, EpisodeEnded) and e.episode == 1)
    assert ended.seq < flip.seq < second.seq and BLOCK in second.tickets["agent"]
    assert BLOCK not in starts(events)[1].tickets["agent"]
    groups = {g.label: g.episodes for g in score(events).by_norms}
    assert groups == {"default": 1, "consent_block=true": 1}


async def test_a_fork_at_an_episodes_end_gives_the_next_episode_the_new_norms(tmp_path: Path) -> None:
    parent = tmp_path / "parent.jsonl"
    await run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries", "t4-convert")), record=str(parent))
    at = next(e.seq for e in load_recording(parent) if isinstance(e, EpisodeEnded) and e.episode == 1)
    out = tmp_path / "fork.jsonl"
    plan = plan_fork(parent, at, norms={"own_task_only": "true"})
    await run_session(plan.config, record=str(out), fork=plan)
    events = load_recording(out)
    flip = next(e for e in events if isinstance(e, NormChanged))
    assert at < flip.seq < starts(events)[2].seq
    labels = {lab.episode: lab for lab in score(events).labels}
    assert labels[2].norms["own_task_only"] and labels[2].norms_after is None
    assert {g.label: g.episodes for g in score(events).by_norms} == {"default": 1, "own_task_only=true": 2}


async def test_an_older_recordings_change_before_any_turn_of_an_episode_is_its_norms(tmp_path: Path) -> None:
    parent = tmp_path / "parent.jsonl"
    await run_session(SessionConfig(seed=13, tasks=("t1-dates", "t2-retries")), record=str(parent))
    events = load_recording(parent)
    second = starts(events)[2]
    toggled = Norms().with_value("own_task_only", True)
    late = NormChanged(session=second.session, seq=second.seq, ts=second.ts, actor="human", key="own_task_only",
                       old=False, new=True, norms=toggled)  # fmt: skip
    i = events.index(second) + 1
    m = score([*events[:i], late, *events[i:]])
    labels = {lab.episode: lab for lab in m.labels}
    assert labels[2].norms["own_task_only"] and labels[2].norms_after is None
    assert all(v.norms_after is None for v in m.verdicts)
    first_turn = next(e for e in events if isinstance(e, TurnStarted) and e.seq > second.seq)
    j = events.index(first_turn) + 1  # after a turn of it: changed mid-episode, as before
    mixed = {lab.episode: lab for lab in score([*events[:j], late, *events[j:]]).labels}
    assert mixed[2].norms_after is not None
