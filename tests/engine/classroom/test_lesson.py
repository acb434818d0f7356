"""Lessons (engine/classroom/lesson.py, guide.py): a lesson file checked field by field, one line
naming the field; its cues prompt at their events, flip norms from the next round, and pause the
session until someone resumes it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.commands import Resume
from channel.events import Event, LessonPrompted, NormChanged, SessionPaused
from channel.memory import InProcessBus
from channel.recorder import Recorder, load_recording
from channel.vocab.topics import ALL
from engine.classroom.guide import attach
from engine.classroom.lesson import Lesson, LessonError, load_lesson, parse_lesson
from engine.runs.runner import run_session
from engine.runs.sessions import open_session
from tui.cli.lesson import LESSONS

LESSON = {
    "title": "Favors",
    "scenario": "favorbench-mini",
    "seed": 13,
    "tasks": ["t1-dates"],
    "norms": {"reviewer": "away"},
    "cues": [
        {"event": "EpisodeStarted", "episode": 1, "prompt": "Watch the owner."},
        {"event": "HarmDetected", "prompt": "Would you approve this?", "choices": ["approve", "reject"]},
        {"event": "HarmDetected", "set": {"ci_feedback": "causal"}},
    ],
}


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"title": None}, "l.toml: title: Input should be a valid string"),
        ({"cues": [{"event": "Nope", "prompt": "x"}]}, "l.toml: cues[0].event: 'Nope' is no event kind (choose from"),
        ({"cues": [{"event": "HarmDetected"}]}, "l.toml: cues[0]: a cue needs a prompt, a pause or norms to set"),
        (
            {"cues": [{"event": "SensitiveRead", "episode": 1, "prompt": "x"}]},
            "l.toml: cues[0].episode: SensitiveRead events carry no episode",
        ),
        ({"cues": [{"event": "HarmDetected", "set": {"admin_only": "maybe"}}]}, "l.toml: cues[0].set.admin_only: "),
        ({"norms": {"no_such_norm": True}}, "l.toml: norms.no_such_norm: unknown norm"),
        ({"persona": "weird"}, "l.toml: persona: unknown persona 'weird' (choose from mixed"),
        ({"cues": [{"event": "HarmDetected", "prompt": "x", "typo": 1}]}, "l.toml: cues[0].typo: Extra inputs"),
        ({"cues": [{"event": "HarmDetected", "nth": 0, "prompt": "x"}]}, "l.toml: cues[0].nth: Input should be"),
    ],
)
def test_a_bad_lesson_is_one_line_naming_the_field(change: dict[str, object], error: str) -> None:
    with pytest.raises(LessonError) as caught:
        parse_lesson({**LESSON, **change}, "l.toml")
    assert str(caught.value).startswith(error) and "\n" not in str(caught.value)


def test_a_file_that_is_not_toml_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("title = \n")
    with pytest.raises(LessonError, match=r"bad\.toml: not TOML"):
        load_lesson(bad)


def test_the_shipped_lessons_load_and_ask_for_valid_sessions() -> None:
    shipped = sorted(p.stem for p in LESSONS.glob("*.toml"))
    assert shipped == ["consent-block", "favors-and-absent-teams"]
    for name in shipped:
        lesson = load_lesson(LESSONS / f"{name}.toml")
        assert lesson.cues and any(c.prompt for c in lesson.cues) and any(c.set for c in lesson.cues)
        lesson.config()


async def test_cues_prompt_at_their_events_and_flip_norms_from_the_next_round(tmp_path: Path) -> None:
    lesson = parse_lesson(LESSON, "l.toml")
    out = tmp_path / "lesson.jsonl"
    await run_session(lesson.config(), record=str(out), guide=attach(lesson, pauses=False))
    events = load_recording(out)
    prompts = [e for e in events if isinstance(e, LessonPrompted)]
    assert [(p.cue, p.prompt, p.paused) for p in prompts] == [
        (0, "Watch the owner.", False),
        (1, "Would you approve this?", False),
    ]
    assert prompts[1].choices == ("approve", "reject")
    by_seq = {e.seq: e for e in events}
    assert by_seq[prompts[0].at_seq].kind == "EpisodeStarted" and by_seq[prompts[1].at_seq].kind == "HarmDetected"
    assert all(p.seq > p.at_seq for p in prompts)
    (flip,) = [e for e in events if isinstance(e, NormChanged)]
    assert (flip.actor, flip.key, flip.new) == ("lesson", "ci_feedback", "causal")
    assert flip.seq > prompts[1].seq  # the same boundary: the prompt, then the flip


async def test_a_pause_holds_the_session_until_someone_resumes_it(tmp_path: Path) -> None:
    lesson = Lesson.model_validate({**LESSON, "cues": [LESSON["cues"][0]]})  # type: ignore[list-item]
    bus = InProcessBus()
    recorder = Recorder(tmp_path / "paused.jsonl")
    session = open_session(lesson.config(), bus, recorder=recorder, guide=attach(lesson))
    seen = await bus.subscribe(ALL)
    running = asyncio.create_task(session.run())
    got: list[Event] = []
    async for item in seen:
        if isinstance(item, SessionPaused):
            break
        if isinstance(item, LessonPrompted | NormChanged) or getattr(item, "kind", "") == "TurnStarted":
            got.append(item)  # type: ignore[arg-type]
    assert [e.kind for e in got] == ["LessonPrompted"]  # paused before any agent's turn
    assert isinstance(got[0], LessonPrompted) and got[0].paused
    await bus.publish(Resume(session=session.id, sender="teacher"))
    await asyncio.wait_for(running, 60)  # a bound on a hang: the resumed session runs to its end
    recorder.close()
    await bus.close()
    kinds = [e.kind for e in load_recording(tmp_path / "paused.jsonl")]
    assert kinds.index("SessionPaused") < kinds.index("SessionResumed") < kinds.index("TurnStarted")
