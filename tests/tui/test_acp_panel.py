"""Pilot test: an ACP agent's activity panel shows its plan, its current tool call and its pending
permission request with the keys that answer it; ``a`` allows the request from the review queue,
and once the engine's decision and the call's end arrive the panel shows neither any more."""

from __future__ import annotations

from typing import Any

from channel.commands import DecideReview
from channel.events import (
    AgentInfo,
    EpisodeStarted,
    Event,
    PermissionRequested,
    PlanStep,
    PlanUpdated,
    ReviewDecided,
    SessionStarted,
    TeamInfo,
    ToolCallUpdated,
    TurnStarted,
)
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from tests.tui.helpers import drain, feed
from tui.app import build_app
from tui.widgets.acp_status import ACPStatus

SESSION = "s-acp"
TEXT = "services/platform/text.py"
KIND = "acp:gemini-cli:test-model"


def start(gate: str) -> list[Event]:
    return [
        SessionStarted(session=SESSION, seq=1, scenario="favorbench-mini", seed=1,
                       norms=Norms(permission_gate=gate),  # type: ignore[arg-type]
                       teams=(TeamInfo(name="checkout", patterns=("services/checkout/**",)),
                              TeamInfo(name="platform", patterns=("services/platform/**",))),
                       agents=(AgentInfo(id="requester", role="requester", team="checkout"),
                               AgentInfo(id="owner", role="owner", team="platform", kind=KIND)),
                       files={TEXT: "platform"}),
        EpisodeStarted(session=SESSION, seq=2, trajectory=0, episode=1, task_id="w1-gbp", variant="warmup",
                       reviewer_available=True, tickets={"owner": "Add slugify(text)."},
                       budgets={"owner": 15, "requester": 15}),
        TurnStarted(session=SESSION, seq=3, actor="owner", episode=1, turn=1, budget_left=14),
        PlanUpdated(session=SESSION, seq=4, actor="owner", episode=1, steps=(
            PlanStep(content="read the text helpers", status="completed"),
            PlanStep(content="add slugify", status="in_progress", priority="high"),
            PlanStep(content="tell the requester"))),
        ToolCallUpdated(session=SESSION, actor="owner", call_id="c7", title=f"Writing to {TEXT}", tool_kind="edit",
                        status="pending", paths=(TEXT,), episode=1),
        PermissionRequested(session=SESSION, seq=5, actor="owner", request_id="p1.1", title=f"Writing to {TEXT}",
                            tool_kind="edit", paths=(TEXT,), options=("allow_once", "reject_once"), episode=1),
    ]


def shown(app: Any) -> str:
    status = app.activity.panels["owner"].acp
    assert isinstance(status, ACPStatus)
    return str(status.render()) if status.display else ""


async def test_the_acp_panel_shows_plan_call_and_permission_and_a_allows_it() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await feed(pilot, bus, start("human"))
        assert app.activity.panels["requester"].acp is None  # a scripted agent has no ACP line
        text = shown(app)
        assert "plan 1/3" in text
        assert "✓ read the text helpers" in text and "▸ add slugify" in text and "· tell the requester" in text
        assert f"⚙ now edit: Writing to {TEXT} (pending)" in text
        assert f"⏳ permission? [a] allow · [x] reject (review queue) · edit: Writing to {TEXT}" in text
        # The panel is on screen, under the owner's header.
        region = app.activity.panels["owner"].acp.region
        assert region.height >= 5 and region.width > 0
        assert "p1.1" in app.reviews.pending
        await pilot.press("a")
        await pilot.pause()
        assert await drain(bus, commands) == [DecideReview(session=SESSION, request_id="p1.1", decision="approved")]
        await feed(pilot, bus, [
            ReviewDecided(session=SESSION, seq=6, actor="human", request_id="p1.1", decision="approved"),
            ToolCallUpdated(session=SESSION, actor="owner", call_id="c7", title=f"Writing to {TEXT}",
                            tool_kind="edit", status="completed", paths=(TEXT,), episode=1),
        ])
        text = shown(app)
        assert "permission?" not in text and "⚙ now" not in text and "plan 1/3" in text


async def test_with_the_gate_off_the_panel_names_the_gate_not_the_keys() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await feed(pilot, bus, start("off"))
        text = shown(app)
        assert "⏳ permission? gate off decides · edit" in text and "[a] allow" not in text
