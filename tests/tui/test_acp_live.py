"""A live session in the app with an ACP agent of ours as owner (tests/engine/agents/acp_agent.py),
as ``scopewatch run --owner acp:'...' --norm permission_gate=...`` starts it: with the gate
``human`` its permission request waits in the review queue and in its panel until ``a`` allows it,
and then the agent goes on (it posts the answer it got); with the gate ``off`` the same run needs
no decision."""

from __future__ import annotations

import asyncio
import shlex
import sys
from typing import Any

from channel.memory import InProcessBus
from channel.vocab.config import SessionConfig
from channel.vocab.norms import Norms
from engine.session.loop import Session
from tests.engine.agents.test_acp import AGENT, FILES
from tests.tui.helpers import until
from tui.app import build_app

OWNER = "acp:" + shlex.join([sys.executable, str(AGENT), *FILES["owner"]])


def live(gate: str) -> tuple[Any, Session]:
    bus = InProcessBus()
    config = SessionConfig(tasks=("w1-gbp",), seed=1, owner=OWNER, norms=Norms(permission_gate=gate))  # type: ignore[arg-type]
    session = Session(config, bus)
    return build_app(bus, session.id, engine=session.run(), notify_live=False), session


def channel(app: Any) -> str:
    return str(app.channel.log_view.plain())


async def ended(app: Any) -> None:
    """Wait for the engine's worker to end (the one-episode session ran to its end). The mode holds
    the worker: ``app.workers`` drops it once it has ended, which it may have done already."""
    engine = app.mode.worker
    await asyncio.wait_for(engine.wait(), 120)  # a bound on a hang, not a judge of speed
    assert app.engine_error is None


async def test_with_the_gate_human_the_request_waits_until_a_allows_it() -> None:
    app, _ = live("human")
    async with app.run_test(size=(170, 50)) as pilot:
        await until(pilot, lambda: any(r.startswith("p1.") for r in app.reviews.pending), "the permission request")
        [asked] = list(app.reviews.pending)
        assert app.reviews.waiting_on_human
        status = app.activity.panels["owner"].acp
        await until(pilot, lambda: "[a] allow" in str(status.render()), "the request in the owner's panel")
        assert "permission:" not in channel(app)  # the agent waits on the answer
        await pilot.press("a")
        await until(pilot, lambda: asked not in app.reviews.pending, "the engine's decision")
        await until(pilot, lambda: "permission: yes" in channel(app), "the agent going on with the answer")
        await until(pilot, lambda: "second prompt:" in channel(app), "the agent's next turn")
        assert "[a] allow" not in str(status.render())
        await ended(app)


async def test_with_the_gate_off_the_same_run_needs_no_decision() -> None:
    app, _ = live("off")
    async with app.run_test(size=(170, 50)) as pilot:
        await until(pilot, lambda: "second prompt:" in channel(app), "the agent's next turn")
        assert "permission: yes" in channel(app) and not app.reviews.waiting_on_human
        assert "human approved" not in channel(app)
        await ended(app)
