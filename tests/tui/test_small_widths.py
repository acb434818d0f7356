"""A 60-column terminal (the compact layout): the norms stay one a line, each value beside its own
norm, and the page bar names every page, badges included."""

from __future__ import annotations

from channel.events import NormChanged
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from tests.tui.helpers import feed
from tests.tui.scripted import SESSION, session_events
from tui.app import build_app
from tui.widgets.norms import NORM_KEYS


async def test_sixty_columns_keep_norms_on_their_lines_and_every_page_named() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()  # ends with a review request to the admin
    human = NormChanged(
        session=SESSION,
        seq=events[-1].seq + 1,
        actor="tui",
        key="reviewer",
        old="trajectory",
        new="human",
        norms=Norms(reviewer="human"),
    )
    async with app.run_test(size=(60, 15)) as pilot:
        await feed(pilot, bus, [*events, human])
        app.action_show_page("score")
        await pilot.pause()
        bar = app.pages.render().plain  # type: ignore[union-attr]
        assert "⏳1" in bar and "Score" in bar and "…" not in bar, bar
        lines = app.norms_panel.render().plain.splitlines()  # type: ignore[union-attr]
        assert len(lines) == len(NORM_KEYS)
        for (key, name), line in zip(NORM_KEYS, lines, strict=True):
            assert line.startswith(f"[{key}] {name}"), line
        assert "human" in lines[0]
        width = app.norms_panel.content_region.width
        assert all(len(line) <= width for line in lines)
        # The norms scroll on so short a page: the scoreboard below them keeps room.
        board = app.scoreboard.region
        assert board.y + 3 <= app.notices.region.y, board  # its border and two rows at least
