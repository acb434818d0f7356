"""What a newcomer meets first (issue 16): the demo keeps going and offers the reviewer's seat, and
notices never cover the panels where alerts live."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from channel.events import (
    EpisodeStarted,
    Event,
    HarmDetected,
    NormChanged,
    ReviewRequested,
    SessionStarted,
    TurnStarted,
)
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from engine.session.loop import Session
from tests.tui.helpers import feed, until
from tests.tui.scripted import SESSION, session_events
from tui.app import ScopewatchApp, build_app


def _engine_app(config: SessionConfig) -> tuple[ScopewatchApp, list[Event], InProcessBus]:
    bus = InProcessBus()
    session = Session(config, bus, session_id="s-first-hour")
    seen: list[Event] = []
    session.emitter.add_listener(seen.append)
    app = build_app(bus, session.id, engine=session.run(), flash_seconds=0, notify_live=False)
    return app, seen, bus


async def test_the_demo_starts_another_trajectory_when_one_ends() -> None:
    app, seen, _ = _engine_app(SessionConfig(tasks=("w1-gbp",), repeat=True))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(
            pilot,
            lambda: any(isinstance(e, EpisodeStarted) and e.trajectory >= 1 for e in seen),
            "a second trajectory",
        )
        assert app.status.state != "ended"
        await pilot.press("q")


async def test_the_reviewer_seat_key_makes_the_session_wait_for_a_decision() -> None:
    # Paced, and paused once the session listens (it has when it says it started): a pause sent before
    # that was lost, and an unpaced session could reach its first request before the pause landed.
    app, seen, _ = _engine_app(SessionConfig(tasks=("w1-gbp",), pace=0.3))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: any(isinstance(e, SessionStarted) for e in seen), "the session started")
        await pilot.press("p")  # paused first, so the seat is taken before the first request
        await until(pilot, lambda: app.status.state == "paused", "paused")
        await pilot.press("r")
        await until(pilot, lambda: app.norms_panel.norms.get("reviewer") == "human", "the seat taken (NormChanged)")
        await pilot.press("p")
        await until(pilot, lambda: app.reviews.waiting_on_human, "an admin request waiting on the person")
        changed = [e for e in seen if isinstance(e, NormChanged) and e.key == "reviewer"]
        assert [c.new for c in changed] == ["human"]
        request = next(e for e in seen if isinstance(e, ReviewRequested) and e.to == "admin")
        turns = len([e for e in seen if isinstance(e, TurnStarted)])
        for _ in range(20):
            await pilot.pause(0.02)
        assert len([e for e in seen if isinstance(e, TurnStarted)]) == turns  # it waits for you
        assert request.request_id in app.reviews.pending
        await pilot.press("r")  # the seat given back: the scripted reviewer answers again
        await until(pilot, lambda: request.request_id not in app.reviews.pending, "the request answered")
        assert [c.new for c in seen if isinstance(c, NormChanged) and c.key == "reviewer"] == ["human", "trajectory"]


def _overlaps(a: Widget, b: Widget) -> bool:
    return bool(a.region and b.region and a.region.overlaps(b.region))


def _harms_and_a_review() -> list[Event]:
    events = session_events()
    harm = next(e for e in events if isinstance(e, HarmDetected))
    request = next(e for e in events if isinstance(e, ReviewRequested))
    last = events[-1].seq
    extra: list[Event] = [
        harm.model_copy(update={"seq": last + i + 1, "absent_team": f"team{i}", "test": f"t{i}::test"})
        for i in range(2)
    ]
    pending = request.model_copy(update={"seq": last + 3, "request_id": "r9.1", "to": "admin"})
    return [*events, *extra, pending]


async def test_no_notice_covers_the_harm_alerts_or_pending_reviews_panels() -> None:
    for size in ((160, 48), (80, 24)):
        bus = InProcessBus()
        app = build_app(bus, SESSION, flash_seconds=0)
        async with app.run_test(size=size) as pilot:
            await feed(pilot, bus, _harms_and_a_review())
            assert len(app.harms.harms) >= 3 and app.reviews.pending
            pages = ("reviews",) if app.compact else ("",)
            for page in pages:
                if page:
                    app.action_show_page(page)
                    await pilot.pause()
                toasts = list(app.screen.query("Toast"))
                assert toasts == [], f"{size}: toasts on screen"
                assert app.notices.history, "the harms were announced"
                for panel in (app.harms, app.reviews):
                    assert panel.region != Region(), f"{size}: {panel.id} not on screen"
                    assert not _overlaps(app.notices, panel), f"{size}: the notice line covers {panel.id}"


async def test_the_focused_panel_has_its_own_border() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await feed(pilot, bus, session_events())
        for focused, other in ((app.reviews, app.harms), (app.harms, app.reviews)):
            focused.options.focus()
            await pilot.pause()
            assert focused.styles.border_top[0] == "double"
            assert other.styles.border_top[0] != "double"
            assert app.workspace.styles.border_top[0] != "double"
