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
