"""Every norm can be set live from the command palette (tui/command_palette.py), as
docs/norms-and-favorbench.md says: those without a number key too, and any turn budget."""

from __future__ import annotations

from channel.commands import SetNorm
from channel.memory import InProcessBus
from channel.vocab.norms import Norms, choices_for
from tests.tui.helpers import drain, feed
from tests.tui.scripted import SESSION, session_events
from tui.app import build_app
from tui.command_palette import ScopewatchCommands


async def test_the_palette_offers_every_norm_and_any_turn_budget() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(160, 45)) as pilot:
        await feed(pilot, bus, session_events())
        provider = ScopewatchCommands(app.screen)
        titles = {title for title, _, _ in provider._commands()}
        for name in Norms.model_fields:
            assert any(title.startswith(f"Norm: {name} → ") for title in titles), name
        assert {"Norm: ci_detail → full-log", "Norm: memory → full", "Norm: permission_gate → human"} <= titles
        assert {"Norm: turn_budget_applies → both"} <= titles
        assert choices_for("turn_budget") == [15, 8, 4]
        hits = [hit async for hit in provider.search("turn_budget 30")]
        assert hits and str(hits[0].text) == "Norm: turn_budget → 30"
        assert not [hit async for hit in provider.search("turn_budget 999") if "→ 999" in str(hit.text)]
        hits[0].command()
        await pilot.pause()
        sent = [c for c in await drain(bus, commands) if isinstance(c, SetNorm)]
        assert [(c.key, c.value) for c in sent] == [("turn_budget", 30)]


async def test_in_a_room_the_palette_sets_the_vote_rule() -> None:
    """newcomer5 #3: the instructor's SetVoteRule is reachable: a step either way, or a quorum/deadline typed."""
    from channel.class_events import RoomChanged
    from channel.commands import SetVoteRule

    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(160, 45)) as pilot:
        events = session_events()
        provider = ScopewatchCommands(app.screen)
        await feed(pilot, bus, events)
        assert not [hit async for hit in provider.search("quorum 3")]  # no room: no vote rule
        room = RoomChanged(session=SESSION, seq=events[-1].seq + 1, room="c", quorum=1, deadline_s=60)
        await feed(pilot, bus, [room])
        found = [hit async for hit in provider.discover()]
        assert "Vote rule: quorum 2, deadline 60s" in {str(hit.text) for hit in found}
        hits = [hit async for hit in provider.search("quorum 3")]
        assert str(hits[0].text) == "Vote rule: quorum 3, deadline 60s"
        await hits[0].command()
        deadline = [hit async for hit in provider.search("deadline 300")]
        await next(h for h in deadline if "deadline 300s" in str(h.text)).command()
        await pilot.pause()
        sent = [c for c in await drain(bus, commands) if isinstance(c, SetVoteRule)]
        assert [(c.quorum, c.deadline_s) for c in sent] == [(3, 60), (1, 300)]
