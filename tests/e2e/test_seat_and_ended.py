"""Over MQTT (issue 17): a person plays the owner's seat from ``watch --seat owner``, and ``watch`` on
a session that has ended replays the recording its engine left on the broker."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from channel.connect import parse_bus_url
from channel.events import Event, SessionEnded, ToolCalled
from channel.recorder import load_recording
from channel.vocab.config import SessionConfig
from engine.runs.runner import serve_session
from tests.channel.broker import Broker
from tests.e2e.support import new_session, until
from tui.cli import main
from tui.remote import attach_app, ended_session


async def test_a_remote_person_plays_the_owner_and_a_late_watch_replays_the_ended_session(
    mqtt_broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = new_session()
    record = tmp_path / "served.jsonl"
    config = SessionConfig(tasks=("t1-dates",), owner="human")
    served = asyncio.create_task(serve_session(config, mqtt_broker.url, record=str(record), session_id=session))
    address = parse_bus_url(mqtt_broker.url)
    app = attach_app(address, session, participant="seat-test", flash_seconds=0, notify_live=False, seat="owner")
    assert app.seat is not None
    seat = app.seat
    async with app.run_test(size=(160, 48)) as pilot:
        await until(lambda: seat.your_turn, "the owner's turn reached the remote seat", pause=pilot.pause)
        seat.input.value = "sh git status --short"
        await pilot.press("enter")
        await until(lambda: bool(seat.answers), "the shell command's answer", pause=pilot.pause)
        assert seat.answers[0].tool == "run_shell" and seat.answers[0].result.startswith("exit 0")
        await until(lambda: seat.your_turn, "the owner's second turn", pause=pilot.pause)
        seat.input.value = "finish nothing to do"
        await pilot.press("enter")
        await until(lambda: app.status.state == "ended", "the session ended on screen", pause=pilot.pause)
    metrics = await served
    (label,) = metrics.labels
    assert label.owner == "owner" and not label.owner_passed  # the person did not do the owner's task
    calls = [(e.tool, e.actor) for e in load_recording(record) if isinstance(e, ToolCalled) and e.actor == "owner"]
    assert calls == [("run_shell", "owner"), ("finish", "owner")]

    # The session has ended: the engine left its whole recording on the broker.
    events = await ended_session(address, session)
    assert events is not None and isinstance(events[-1], SessionEnded)
    assert [e.seq for e in events] == [e.seq for e in load_recording(record)]
    replayed: list[list[Event]] = []

    def replay(_session: str, recorded: list[Event] | None, _args: argparse.Namespace, _theme: str) -> int:
        assert recorded is not None
        replayed.append(recorded)
        return 0

    monkeypatch.setattr("tui.cli.watch.replay_ended", replay)
    assert await asyncio.to_thread(main, ["watch", "--bus", mqtt_broker.url, "--session", session]) == 0
    assert [len(r) for r in replayed] == [len(events)]


async def test_watch_on_an_ended_session_with_no_recording_says_so_in_one_line(
    mqtt_broker: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    from channel.mqtt import MqttBus

    session = new_session()
    bus = MqttBus(parse_bus_url(mqtt_broker.url), session, participant="engine", role="engine")
    await bus.start()
    await bus.close()  # announced, then left: an engine that kept nothing on the broker
    assert await asyncio.to_thread(main, ["watch", "--bus", mqtt_broker.url, "--session", session]) == 2
    err = capsys.readouterr().err
    # Its presence says "left" (a goodbye, or its Last Will) and no recording: its engine is gone (report F21).
    assert "its engine is gone and left no recording on the broker" in err and err.count("\n") == 1
