"""Pilot test: an ACP agent's permission request (norm permission_gate=human) shows in the review
queue as waiting on the person; ``a`` publishes its DecideReview; the engine's answer clears it."""

from __future__ import annotations

from channel.commands import DecideReview
from channel.events import NormChanged, PermissionRequested, ReviewDecided
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from tests.tui.helpers import drain, feed
from tests.tui.scripted import SESSION, session_events
from tui.app import build_app

SIZE = (160, 48)


async def test_a_permission_request_is_answered_from_the_review_queue() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    seq = events[-1].seq
    gate = NormChanged(session=SESSION, seq=seq + 1, key="permission_gate", old="off", new="human",
                       norms=Norms(permission_gate="human"))
    asked = PermissionRequested(session=SESSION, seq=seq + 2, actor="owner", request_id="p3.1",
                                title="Edit services/checkout/cart.py", tool_kind="edit",
                                paths=("services/checkout/cart.py",), options=("allow_once", "reject_once"), episode=3)
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [*events, gate, asked])
        assert "p3.1" in app.reviews.pending and app.reviews.waiting_on_human
        app.reviews.options.highlighted = list(app.reviews.pending).index("p3.1")
        await pilot.pause()
        assert "permission (edit): Edit services/checkout/cart.py" in str(app.reviews.preview.render())
        await pilot.press("a")
        await pilot.pause()
        sent = await drain(bus, commands)
        assert sent == [DecideReview(session=SESSION, request_id="p3.1", decision="approved")]
        decided = ReviewDecided(session=SESSION, seq=seq + 3, actor="human", request_id="p3.1", decision="approved")
        await feed(pilot, bus, [decided])
        assert "p3.1" not in app.reviews.pending and not app.reviews.permissions
