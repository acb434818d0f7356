"""The right column keeps its alert panels on screen (tui/widgets/right_column.py): whatever the norms
and the scoreboard grow to, Harm alerts with a harm in it and a room's request and tally stay visible,
at the sizes the docs promise for the wide layout (160x45, 120x40)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget

from channel.class_events import Member, RoomChanged, VoteCast
from channel.events import Event, NormChanged
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from tests.tui.helpers import feed
from tests.tui.scripted import SESSION, session_events
from tui.app import ScopewatchApp, build_app
from tui.widgets.norms import NORM_KEYS

SIZES = [(160, 45), (120, 40)]


def norm_flips(events: list[Event], *changes: tuple[str, bool | int | str]) -> list[Event]:
    """NormChanged events after ``events``: each one's status ("✓ ep3 from t2") lengthens a row."""
    norms = Norms()
    out: list[Event] = []
    seq = events[-1].seq
    for key, value in changes:
        old = getattr(norms, key)
        norms = norms.model_copy(update={key: value})
        seq += 1
        out.append(NormChanged(session=SESSION, seq=seq, actor="tui", key=key, old=old, new=value, norms=norms))
    return out


def on_screen(app: ScopewatchApp, widget: Widget, rows: int) -> bool:
    """``widget`` shows at least ``rows`` rows inside the body (above the notice line)."""
    region = widget.region
    return region.height >= rows and region.bottom <= app.notices.region.y


@pytest.mark.parametrize("size", SIZES)
async def test_harm_alerts_stay_on_screen_after_norm_flips(size: tuple[int, int]) -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0, notify_live=False)
    events = session_events()
    async with app.run_test(size=size) as pilot:
        await feed(pilot, bus, events)
        assert app.harms.harms
        flips: list[tuple[str, bool | int | str]] = [
            ("admin_only", True),
            ("own_task_only", True),
            ("ci_feedback", "causal"),
            ("reviewer", "available"),
        ]
        await feed(pilot, bus, norm_flips(events, *flips))
        await pilot.pause()
        assert on_screen(app, app.harms, 4), (app.harms.region, app.size)
        assert on_screen(app, app.reviews, 6)
        # One line a norm: a status too long for the column is cut, never wrapped under another norm.
        norms = app.norms_panel
        shown = ["".join(s.text for s in line) for line in norms.render_lines(norms.region.reset_offset)]
        assert "[1] reviewer" in shown[1] and "available" in shown[1]
        assert "[2] admin_only" in shown[2], shown
        if size[1] >= 44:  # a tall terminal shows every norm (a short one scrolls them: app.tcss)
            assert norms.region.height == len(NORM_KEYS) + 2


@pytest.mark.parametrize("size", SIZES)
async def test_a_rooms_request_and_tally_are_visible(size: tuple[int, int]) -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0, notify_live=False)
    app.reviews.me = "alice"
    events = session_events()
    members = tuple(Member(name=name, role="watcher") for name in ("alice", "bob"))
    members += (Member(name="teacher", role="instructor"),)
    seq = events[-1].seq
    room: list[Event] = [
        *norm_flips(events, ("reviewer", "room")),
        RoomChanged(
            session=SESSION,
            seq=seq + 2,
            room="class",
            members=members,
            seats={"owner": "scripted", "requester": "scripted"},
            quorum=2,
            deadline_s=120,
        ),
        VoteCast(session=SESSION, seq=seq + 3, actor="alice", request_id="r3.1", choice="approved"),
    ]
    async with app.run_test(size=size) as pilot:
        await feed(pilot, bus, [*events, *room])
        await pilot.pause()
        assert list(app.reviews.pending) == ["r3.1"]
        assert "seats" not in app.reviews.room.presence_line()  # scripted seats: the default, not said
        preview, shown = app.reviews.preview.region, app.reviews.query_one(VerticalScroll).region
        tally = len(Text(app.reviews.room.tally_line("r3.1")).wrap(app.console, preview.width))
        assert on_screen(app, app.reviews, 6)
        # The tally and the request's line under it, inside the panel's visible part.
        assert preview.y + tally + 1 <= min(shown.bottom, app.notices.region.y), (preview, shown)
        assert on_screen(app, app.harms, 4)
