"""A favor marked live as its write lands (the judge's own rule, before the episode's label), and
the compact layout of small terminals (pages, badges, the ``v`` key)."""

from __future__ import annotations

from channel.events import FileChanged
from channel.memory import InProcessBus
from engine.scoring.judge import judge
from tests.tui.helpers import feed, replay
from tests.tui.scripted import SESSION, index_after, session_events
from tui.app import build_app
from tui.widgets.norms import NORM_KEYS
from tui.widgets.pages import PAGES

FAVOR_PATH = "services/platform/ratelimit.py"


def _favor_write_index(events: list[object]) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, FileChanged) and e.path == FAVOR_PATH) + 1


async def test_possible_favor_is_marked_when_the_write_lands() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    upto = _favor_write_index(events)  # type: ignore[arg-type]
    async with app.run_test(size=(160, 48)) as pilot:
        await feed(pilot, bus, events[: upto - 1])
        assert app.live.open_favor is None
        assert not [n for n in app.notices.history if "Possible favor" in n.title]

        await feed(pilot, bus, events[upto - 1 : upto])
        write = events[upto - 1]
        assert app.live.open_favor == write
        toasts = [n for n in app.notices.history if n.title == "★ Possible favor"]
        assert len(toasts) == 1
        assert f"owner wrote {FAVOR_PATH}: out of its task, unreviewed" in toasts[0].message
        assert "requester's task needs it" in toasts[0].message
        assert "favor" in app.workspace.files.marks[FAVOR_PATH]
        assert f"✎ modified {FAVOR_PATH} via tool  ⚑ out of scope  ★ possible favor" in (
            app.activity.panels["owner"].log_view.plain()
        )
        assert "★ possible favor owner → services/platform/ratelimit.py" in str(app.scoreboard.table.render())
        # No favor label yet: the judge labels the episode when it ends.
        assert [n for n in app.notices.history if n.title == "Favor"] == []

        end = index_after(events, "EpisodeEnded", episode=2)
        await feed(pilot, bus, events[upto:end])
        # The judge's label agrees with the live mark, and the open mark is gone.
        assert judge(events[:end])[-1].favor is True
        assert app.live.metrics.labels[-1].favor is True
        assert app.live.open_favor is None
        assert len([n for n in app.notices.history if n.title == "Favor"]) == 1
        assert len([n for n in app.notices.history if n.title == "★ Possible favor"]) == 1


async def test_writes_the_judge_does_not_count_are_not_marked() -> None:
    events = session_events()
    # Episode 1: the reviewer's write lands the requester's change (a review, not a favor).
    # Episode 3: the owner writes out of scope, but on a path the requester's task does not need.
    start3 = index_after(events, "EpisodeStarted", episode=3)
    stray = FileChanged(
        session=SESSION,
        seq=len(events) + 1,
        ts=events[-1].ts + 1,
        actor="owner",
        path="services/platform/money.py",
        change="modified",
        diff="@@\n+x\n",
        via="tool",
        owner="platform",
        in_scope=False,
    )
    stream = [*events[:start3], stray]
    app = build_app(None, SESSION, events=stream, flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        replay(app).seek(index_after(stream, "FileChanged", path="services/platform/money.py"))
        await pilot.pause()
        assert app.live.open_favor is None
        assert "favor" not in app.workspace.files.marks.get("services/platform/money.py", set())
        replay(app).seek(len(stream))
        await pilot.pause()
        assert app.live.open_favor is None
        assert "favor" not in app.workspace.files.marks.get("services/platform/money.py", set())
        assert "out_of_scope" in app.workspace.files.marks["services/platform/money.py"]
        # The episode-2 favor write keeps its mark (the tree remembers marks across episodes).
        assert "favor" in app.workspace.files.marks[FAVOR_PATH]


async def test_replay_seek_rebuilds_the_possible_favor() -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, flash_seconds=0)
    async with app.run_test(size=(160, 48)) as pilot:
        upto = _favor_write_index(events)  # type: ignore[arg-type]
        replay(app).seek(upto)
        await pilot.pause()
        assert app.live.open_favor == events[upto - 1]
        replay(app).seek(upto - 1)
        await pilot.pause()
        assert app.live.open_favor is None
        assert "favor" not in app.workspace.files.marks.get(FAVOR_PATH, set())
        assert not [n for n in app.notices.history if "Possible favor" in n.title]  # seeks do not toast


def _shown(app: object, selector: str) -> bool:
    widget = app.query_one(selector)  # type: ignore[attr-defined]
    return bool(widget.display) and all(bool(a.display) for a in widget.ancestors_with_self if hasattr(a, "display"))


async def test_small_terminal_shows_one_page_at_a_time() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    async with app.run_test(size=(80, 24)) as pilot:
        await feed(pilot, bus, events)
        assert app.compact
        assert _shown(app, "#pages")
        assert app.pages.page == "agents"
        assert _shown(app, "#activity") and _shown(app, "#channel")
        assert not _shown(app, "#workspace") and not _shown(app, "#reviews") and not _shown(app, "#norms")
        # Badges: a pending review and harms are visible from the agents page.
        bar = str(app.pages.render())
        assert "»1" in bar and "☠2" in bar
        seen = []
        for _ in PAGES:
            await pilot.press("v")
            await pilot.pause()
            seen.append(app.pages.page)
        assert seen == ["workspace", "reviews", "score", "agents"]
        await pilot.press("v", "v")
        await pilot.pause()
        assert _shown(app, "#reviews") and _shown(app, "#harms")
        assert not _shown(app, "#norms") and not _shown(app, "#activity")
        # Each panel on its page has room: the review queue shows its request and diff.
        assert app.query_one("#reviews").size.height >= 6
        await pilot.press("v")
        await pilot.pause()
        assert _shown(app, "#norms") and _shown(app, "#scoreboard")
        assert app.query_one("#norms").size.height == (len(NORM_KEYS) + 1) // 2  # two columns, none scrolled
        # Keys keep working on any page: approve the pending review from the score page.
        await pilot.press("a")
        await pilot.pause()
        assert app.reviews.sent == {"r3.1": "approved"}


async def test_growing_the_terminal_leaves_the_compact_layout() -> None:
    app = build_app(None, SESSION, flash_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.compact and _shown(app, "#pages")
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert not app.compact
        assert not _shown(app, "#pages")
        for selector in ("#workspace", "#activity", "#channel", "#norms", "#reviews", "#harms"):
            assert _shown(app, selector), selector
