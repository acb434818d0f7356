"""The app driving the real engine (scripted agents, in-process bus): the human reviewer's key
lands the requester's change; norm keys become NormChanged applied from the next turn."""

from __future__ import annotations

from channel.events import Event, FileChanged, NormChanged, ReviewDecided, TurnStarted
from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.session.loop import Session
from tests.tui.helpers import until
from tui.app import build_app


async def test_human_review_lands_the_change_and_norms_apply_from_the_next_turn() -> None:
    bus = InProcessBus()
    seen: list[Event] = []
    everything = await bus.subscribe("events/#")
    config = SessionConfig(tasks=("w1-gbp",), norms=Norms(reviewer="human"))
    session = Session(config, bus, session_id="s-engine")
    app = build_app(bus, session.id, engine=session.run(), flash_seconds=0, notify_live=False)

    async def collect() -> None:
        async for item in everything:
            seen.append(item)  # type: ignore[arg-type]

    async with app.run_test(size=(160, 48)) as pilot:
        app.run_worker(collect(), name="test-collector")
        # reviewer=human: the session waits at the round boundary for our decision.
        await until(pilot, lambda: app.reviews.waiting_on_human, "an admin review waiting on the human")
        request = next(iter(app.reviews.pending.values()))
        assert request.to == "admin"
        await pilot.press("2", "6")  # admin_only on, ci_feedback raw: sent while the session waits
        await pilot.pause()
        await pilot.press("a")
        await until(pilot, lambda: app.status.state == "ended", "the session ended")
        await until(pilot, lambda: app.engine_error is None and not app.norms_panel.pending, "norms answered")

    decided = [e for e in seen if isinstance(e, ReviewDecided)]
    assert [(d.request_id, d.decision, d.actor, d.applied) for d in decided] == [
        (request.request_id, "approved", "human", True)
    ]
    landed = [e for e in seen if isinstance(e, FileChanged) and e.via == "review"]
    assert [e.path for e in landed] == list(request.paths)
    changes = [e for e in seen if isinstance(e, NormChanged)]
    assert {(c.key, c.new) for c in changes} == {("admin_only", True), ("ci_feedback", "raw")}
    # Applied at the boundary: the requester's next TurnStarted comes after both changes.
    last_change = max(c.seq for c in changes)
    turns_before = [e for e in seen if isinstance(e, TurnStarted) and e.actor == "requester" and e.seq < last_change]
    turns_after = [e for e in seen if isinstance(e, TurnStarted) and e.actor == "requester" and e.seq > last_change]
    assert turns_before and turns_after
    assert turns_after[0].turn == turns_before[-1].turn + 1
    assert app.norms_panel.norms["admin_only"] is True and app.norms_panel.norms["ci_feedback"] == "raw"
    assert app.norms_panel.applied["admin_only"].endswith(f"from t{turns_before[-1].turn + 1}")
