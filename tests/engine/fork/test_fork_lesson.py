"""A fork of a lesson's recording (classroom6 #4): the recording keeps its lesson, and the fork runs the
lesson's cues again, so a fork with no change redoes the lesson's prompts and norm flips, and a fork past a
prompt is no divergence. A recording of a lesson that does not keep it is refused past a cue, in one line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from channel.class_events import LessonPrompted
from channel.events import Event, NormChanged, SessionStarted
from channel.recorder import load_recording
from engine.classroom.guide import attach
from engine.classroom.lesson import parse_lesson
from engine.export.inspect_log import recording_hash
from engine.fork.compare import compare_fork
from engine.fork.errors import ForkError
from engine.fork.plan import plan_fork
from engine.runs.runner import run_session

LESSON = parse_lesson(
    {
        "title": "Norm flip lesson",
        "seed": 13,
        "tasks": ["t1-dates", "t2-retries"],
        "norms": {"reviewer": "away"},
        "cues": [
            {"event": "ToolCalled", "actor": "owner", "nth": 2, "set": {"admin_only": True}, "prompt": "Admin only."},
            {"event": "EpisodeStarted", "episode": 2, "prompt": "Episode 2."},
        ],
    },
    "l.toml",
)


@pytest.fixture(scope="module")
def parent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lesson") / "class.jsonl"
    asyncio.run(run_session(LESSON.config(), record=str(path), guide=attach(LESSON, pauses=False)))
    return path


def lessons(events: list[Event]) -> list[tuple[str, object]]:
    """The lesson's doings: its prompts (by cue) and norm flips."""
    return [
        (f"prompt {e.cue}", e.prompt) if isinstance(e, LessonPrompted) else (f"{e.key} by {e.actor}", e.new)
        for e in events
        if isinstance(e, LessonPrompted) or (isinstance(e, NormChanged) and e.actor == "lesson")
    ]


def test_a_lesson_recording_keeps_its_lesson(parent: Path) -> None:
    started = load_recording(parent)[0]
    assert isinstance(started, SessionStarted) and started.config is not None and started.config.lesson is not None
    assert started.config.lesson["title"] == "Norm flip lesson"


async def test_a_fork_with_no_change_redoes_the_lessons_prompts_and_flips(parent: Path, tmp_path: Path) -> None:
    events = load_recording(parent)
    assert lessons(events) == [("prompt 0", "Admin only."), ("admin_only by lesson", True), ("prompt 1", "Episode 2.")]
    out = tmp_path / "same.jsonl"
    plan = plan_fork(parent, 2)
    await run_session(plan.config, record=str(out), fork=plan)
    fork = load_recording(out)
    assert lessons(fork) == lessons(events)
    assert compare_fork(events, fork, parent_hash=recording_hash(parent)).first_difference is None


async def test_a_fork_past_a_prompt_reproduces_it_and_runs_on_with_its_change(parent: Path, tmp_path: Path) -> None:
    events = load_recording(parent)
    at = next(e.seq for e in events if isinstance(e, LessonPrompted)) + 3
    out = tmp_path / "changed.jsonl"
    plan = plan_fork(parent, at, norms={"own_task_only": "true"})
    await run_session(plan.config, record=str(out), fork=plan)  # no ForkDiverged at the prompt
    fork = load_recording(out)
    assert lessons(fork)[:2] == lessons(events)[:2]
    assert any(isinstance(e, NormChanged) and (e.actor, e.key) == ("fork", "own_task_only") for e in fork)


def test_a_recording_that_does_not_keep_its_lesson_is_refused_past_a_cue(parent: Path, tmp_path: Path) -> None:
    lines = parent.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    del first["config"]["lesson"]  # as recorded before recordings kept their lesson
    older = tmp_path / "older.jsonl"
    older.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    prompt = next(e.seq for e in load_recording(older) if isinstance(e, LessonPrompted))
    with pytest.raises(ForkError) as refused:
        plan_fork(older, prompt + 3)
    message = str(refused.value)
    assert "\n" not in message and "lesson 'Norm flip lesson'" in message and "record the lesson again" in message
