"""Whom the session waits on, as the Reviews panel says it (report F11): a watcher without a reviewer
or instructor token is told the session waits on the reviewer, not on it; a decision it sent that
the engine refused loses its "(approved sent…)" mark."""

from __future__ import annotations

from textual.app import App, ComposeResult

from channel.events import CommandRefused, ReviewRequested, SessionStarted
from channel.vocab.norms import Norms
from tui.widgets.reviews import ReviewQueue

STARTED = SessionStarted(session="s", seq=1, scenario="m", norms=Norms(reviewer="human"))
ASKED = ReviewRequested(session="s", seq=2, actor="owner", request_id="r1", to="admin", paths=("a.py",), diff="")


class Panel(App[None]):
    def __init__(self, can_decide: bool) -> None:
        super().__init__()
        self.queue = ReviewQueue()
        self.queue.me = "viewer-1"
        self.queue.can_decide = can_decide

    def compose(self) -> ComposeResult:
        yield self.queue


def shown(queue: ReviewQueue) -> str:
    return f"{queue.status.render()} | {queue.options.get_option_at_index(0).prompt}"


async def test_a_watcher_without_a_token_is_told_the_session_waits_on_the_reviewer() -> None:
    for can_decide, said in ((False, "waits on the reviewer"), (True, "waits on you")):
        app = Panel(can_decide)
        async with app.run_test() as pilot:
            app.queue.apply([STARTED, ASKED])
            await pilot.pause()
            assert said in shown(app.queue)


async def test_a_refused_decision_loses_its_sent_mark() -> None:
    app = Panel(False)
    async with app.run_test() as pilot:
        app.queue.apply([STARTED, ASKED])
        app.queue.decide("approved")
        await pilot.pause()
        assert "approved sent" in shown(app.queue)
        refused = CommandRefused(session="s", seq=3, actor="viewer-1", command="DecideReview", reason="unsigned")
        app.queue.apply([refused])
        await pilot.pause()
        assert "sent" not in shown(app.queue).split("|")[1]


async def test_an_ended_room_session_waits_on_no_vote() -> None:
    """A room's replay at its end (newcomer5 #11): the open ballot was never decided; nothing waits on votes."""
    from channel.class_events import RoomChanged
    from channel.events import SessionEnded

    started = SessionStarted(session="s", seq=1, scenario="m", norms=Norms(reviewer="room"))
    room = RoomChanged(session="s", seq=3, room="class", members=(), seats={}, quorum=1, deadline_s=120)
    app = Panel(True)
    async with app.run_test() as pilot:
        app.queue.apply([started, ASKED, room])
        await pilot.pause()
        assert "waits on the room's votes" in shown(app.queue) and app.queue.waiting_on_human
        app.queue.apply([SessionEnded(session="s", seq=4, reason="cancelled")])
        await pilot.pause()
        status = str(app.queue.status.render())
        assert "waits on" not in status and not app.queue.waiting_on_human
        assert "session ended (cancelled): it was never decided" in status
        assert "never closed: the session ended" in app.queue.room.tally_line("r1")
