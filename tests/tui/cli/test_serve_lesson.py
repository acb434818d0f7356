"""A lesson served on a broker (newcomer5 #4): ``serve --lesson FILE`` puts its prompts in the served
stream every watcher gets (and the recording); served with a room it may start the room as the
reviewer and wait for room events. What a lesson sets itself is refused beside it in one line, and
``lesson run --bus`` points to ``serve --lesson``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from channel.class_events import VoteClosed
from channel.events import LessonPrompted, SessionEnded
from channel.recorder import read_recording
from tests.channel.broker import Broker
from tests.e2e.support import ROOT, cli
from tui.cli import main

ROOM_LESSON = """title = "served room"
scenario = "favorbench-mini"
tasks = ["w1-gbp"]
norms = { reviewer = "room" }

[[cues]]
event = "EpisodeStarted"
prompt = "Watch the requester."
pause = false

[[cues]]
event = "VoteClosed"
prompt = "What did the class decide?"
pause = false
"""


@pytest.mark.timeout(150)
async def test_a_lesson_served_in_a_room_reaches_the_bus_and_its_recording(mqtt_broker: Broker, tmp_path: Path) -> None:
    lesson, record = tmp_path / "l.toml", tmp_path / "served.jsonl"
    lesson.write_text(ROOM_LESSON)
    argv = cli(
        "serve", "--lesson", str(lesson), "--bus", mqtt_broker.url, "--room", "class", "--deadline", "0.5",
        "--record", str(record),
    )  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    _out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()
    events = list(read_recording(record))
    prompts = [e.prompt for e in events if isinstance(e, LessonPrompted)]
    assert prompts == ["Watch the requester.", "What did the class decide?"]
    assert any(isinstance(e, VoteClosed) for e in events)  # nobody voted: the deadline closed it
    assert isinstance(events[-1], SessionEnded) and events[-1].reason == "completed"
    said = err.decode()
    assert "scopewatch: lesson: served room" in said and "lesson (after event" in said


def test_what_the_lesson_sets_is_refused_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lesson = tmp_path / "l.toml"
    lesson.write_text(ROOM_LESSON)
    bus = ["--bus", "mqtt://127.0.0.1:1"]
    assert main(["serve", "--lesson", str(lesson), *bus, "--room", "c", "--seed", "5"]) == 2
    assert capsys.readouterr().err.startswith("scopewatch: --seed: the lesson sets the session")
    assert main(["serve", "--lesson", str(lesson), *bus]) == 2  # reviewer=room, and no room
    assert "norms.reviewer: reviewer=room" in capsys.readouterr().err
    assert main(["lesson", "check", str(lesson), "--room"]) == 0
    capsys.readouterr()
    assert main(["lesson", "run", "favors-and-absent-teams", "--headless", *bus]) == 2
    assert "scopewatch serve --lesson FILE --bus URL" in capsys.readouterr().err


def test_an_existing_record_file_is_one_line_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """classroom6 #5: no connection (the broker here is dead), and no false "cue(s) never fired"."""
    lesson = tmp_path / "l.toml"
    lesson.write_text(ROOM_LESSON)
    existing = tmp_path / "class.jsonl"
    existing.write_text("{}\n")
    bus = ["--bus", "mqtt://127.0.0.1:1", "--room", "c"]
    assert main(["serve", "--lesson", str(lesson), *bus, "--record", str(existing)]) == 2
    assert capsys.readouterr().err == f"scopewatch: --record {existing}: already exists; record to a new file\n"
