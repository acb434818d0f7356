"""``reviewer=room`` only in a room (report F16): outside one no vote would ever decide a review, so
``run`` refuses it in one line, the engine refuses a ``SetNorm`` to it, and the TUI's norm key ``1``
and its command palette skip it."""

from __future__ import annotations

import pytest

from channel.commands import SetNorm
from channel.events import CommandRefused, Event
from channel.vocab.norms import Norms
from engine.session.controls import SessionControls
from tui.cli import main
from tui.widgets.norms import next_norm


@pytest.mark.parametrize("command", [["run", "--headless"], ["run", "--headless", "--jobs", "2"]])
def test_run_refuses_reviewer_room_without_a_room(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--norm", "reviewer=room", "--trajectories", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--norm reviewer=room" in err and "--room NAME" in err


async def test_the_engine_refuses_set_norm_reviewer_room_outside_a_room() -> None:
    emitted: list[Event] = []

    async def emit(event: Event) -> None:
        emitted.append(event)

    controls = SessionControls(emit, Norms(), on_decision=lambda _d: None)  # type: ignore[arg-type]
    await controls.dispatch(SetNorm(session="s", key="reviewer", value="room", sender="teacher"))
    (refused,) = emitted
    assert isinstance(refused, CommandRefused) and "no room" in refused.reason


def test_the_norm_key_skips_room_outside_a_room() -> None:
    assert next_norm({"reviewer": "human"}, "reviewer", in_room=False) == "trajectory"
    assert next_norm({"reviewer": "human"}, "reviewer", in_room=True) == "room"
