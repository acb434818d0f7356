"""Pilot tests: scripted events on an in-process bus; assert what the widgets show and what the
app publishes on cmd/#."""

from __future__ import annotations

from textual.widgets import Static

from channel.commands import DecideReview, Pause, SetNorm, SetSpeed
from channel.events import DomainEntered, NormChanged, ReviewDecided, SessionPaused, TeamInfo
from channel.memory import InProcessBus
from channel.vocab.norms import Norms
from engine.scoring.metrics import score
from tests.tui.helpers import drain, feed, replay, until
from tests.tui.scripted import HARM_TEST, SESSION, index_after, session_events
from themes import THEMES
from tui.app import build_app
from tui.screens.diff import DiffScreen
from tui.screens.harm import HarmScreen

SIZE = (160, 48)


async def test_screen_shows_teams_agents_channel_and_marks() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events)
        tree = app.workspace.files
        assert tree.team_var == {
            "checkout": "team-1",
            "platform": "team-2",
            "notifications": "team-absent",
            "reporting": "team-absent",
        }
        assert "⊘ notifications (absent)" in app.workspace.legend.render().plain  # type: ignore[union-attr]
        assert "out_of_scope" in tree.marks["services/platform/ratelimit.py"]
        assert "harm" in tree.marks["services/platform/ratelimit.py"]
        assert "refused" in tree.marks["services/platform/config.py"]
        assert set(app.activity.panels) == {"requester", "owner"}
        owner_log = app.activity.panels["owner"].log_view.plain()
        assert "✎ modified services/platform/ratelimit.py via tool  ⚑ out of scope" in owner_log
        assert '+LIMITS = {"default": 200}' in owner_log
        assert "$ git status --short" in owner_log
        assert app.activity.panels["owner"].budget_left == 15  # episode 3 started, owner not yet moved
        assert app.activity.panels["requester"].budget_left == 14
        channel = app.channel.log_view.plain()
        assert "🔒 DM requester → owner (private) [request → owner] Could you raise" in channel
        assert "# owner: Working on my health summary first." in channel
        assert app.status.state == "running" and "ep3 t2-retries (trap)" in app.status.episode


async def test_moving_to_another_domain_rebuilds_the_workspace_tree() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    entered = DomainEntered(
        session=SESSION,
        seq=events[-1].seq + 1,
        scenario="favorbench/crm",
        teams=(TeamInfo(name="sales", patterns=("services/sales/**",)), TeamInfo(name="helpdesk", absent=True)),
        files={"services/sales/quote.py": "sales", "services/helpdesk/sla.py": "helpdesk"},
    )
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [*events, entered])
        tree = app.workspace.files
        assert tree.team_var == {"sales": "team-1", "helpdesk": "team-absent"}
        assert set(tree.owner) == {"services/sales/quote.py", "services/helpdesk/sla.py"}
        assert "⊘ helpdesk (absent)" in app.workspace.legend.render().plain  # type: ignore[union-attr]
        assert app.status.scenario == "favorbench/crm"


async def test_approving_a_review_with_keys_publishes_decide_review() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0, token="secret")
    events = session_events()
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events)
        assert list(app.reviews.pending) == ["r3.1"]
        assert "Raise retries to 5" in str(app.reviews.preview.render())
        await pilot.press("a")
        await pilot.pause()
        sent = await drain(bus, commands)
        assert sent == [DecideReview(session=SESSION, request_id="r3.1", decision="approved", token="secret")]
        assert app.reviews.sent == {"r3.1": "approved"}
        # The engine's answer removes it from the queue.
        await feed(
            pilot,
            bus,
            [
                ReviewDecided(
                    session=SESSION, seq=99, actor="human", request_id="r3.1", decision="approved", applied=True
                )
            ],
        )
        assert app.reviews.pending == {}
        assert "» human approved r3.1 (change landed)" in app.channel.log_view.plain()


async def test_rejecting_publishes_rejected() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, session_events())
        await pilot.press("x")
        await pilot.pause()
        sent = await drain(bus, commands)
        assert [(c.kind, c.decision) for c in sent] == [("DecideReview", "rejected")]  # type: ignore[attr-defined]


async def test_norm_keys_publish_set_norm_and_show_when_applied() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, session_events())
        await pilot.press("2", "6")  # admin_only, ci_feedback
        await pilot.pause()
        sent = await drain(bus, commands)
        assert sent == [
            SetNorm(session=SESSION, key="admin_only", value=True),
            SetNorm(session=SESSION, key="ci_feedback", value="raw"),
        ]
        assert app.norms_panel.pending == {"admin_only": True, "ci_feedback": "raw"}
        assert "→ on (sent)" in str(app.norms_panel.render())
        norms = Norms().with_value("admin_only", True).model_dump()
        await feed(
            pilot, bus, [NormChanged(session=SESSION, seq=99, key="admin_only", old=False, new=True, norms=norms)]
        )
        assert app.norms_panel.norms["admin_only"] is True
        assert "admin_only" not in app.norms_panel.pending
        assert app.norms_panel.applied["admin_only"] == "ep3 from t2"
        assert "⚑ norm admin_only: False → True (from the next turn)" in app.channel.log_view.plain()


async def test_pause_and_speed_keys_publish_commands() -> None:
    bus = InProcessBus()
    commands = await bus.subscribe("cmd/#")
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, session_events())
        await pilot.press("p")
        await feed(pilot, bus, [SessionPaused(session=SESSION, seq=99)])
        await pilot.press("p", "plus", "n")
        await pilot.pause()
        sent = await drain(bus, commands)
        assert [c.kind for c in sent] == ["Pause", "Resume", "SetSpeed", "Step"]  # type: ignore[attr-defined]
        assert sent[0] == Pause(session=SESSION)
        assert sent[2] == SetSpeed(session=SESSION, speed=2.0)


async def test_harm_raises_an_alert_naming_test_and_change_and_opens_what_it_teaches() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    harm_at = index_after(events, "HarmDetected")
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events[:harm_at])
        assert len(app.harms.harms) == 1
        alert = str(app.harms.options.get_option_at_index(0).prompt)
        assert "notifications" in alert and HARM_TEST in alert and "owner: services/platform/ratelimit.py" in alert
        toasts = [n for n in app.notices.history if n.severity == "error"]
        assert len(toasts) == 1
        assert HARM_TEST in toasts[0].message
        assert "owner's change to services/platform/ratelimit.py" in toasts[0].message
        assert "notifications" in toasts[0].title
        app.harms.options.focus()
        await pilot.press("enter")
        await pilot.pause()
        # Its change beside the broken test and the safe alternative (tests/tui/test_harm_view.py has the rest).
        assert isinstance(app.screen, HarmScreen)
        assert '+LIMITS = {"default": 200}' in str(app.screen.query_one("#harm-change-body", Static).render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HarmScreen)


async def test_favor_label_notifies() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events[: index_after(events, "EpisodeEnded", episode=2)])
        favors = [n for n in app.notices.history if n.title == "Favor"]
        assert len(favors) == 1 and "solicited" in favors[0].message
        assert app.live.metrics.favor_rate == 1.0


async def test_replay_seek_shows_metrics_as_of_that_event() -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, flash_seconds=0)
    mode = replay(app)
    async with app.run_test(size=SIZE) as pilot:
        ep2_end = index_after(events, "EpisodeEnded", episode=2)
        mode.seek(ep2_end)
        await pilot.pause()
        assert app.live.metrics == score(events[:ep2_end])
        assert app.live.metrics.episodes == 1 and app.live.metrics.harm_rate == 1.0
        assert "episodes 1 +1 warm-up  favor 1.00  harm 1.00" in str(app.scoreboard.table.render())
        # Scripted seats: marked as report and compare mark them (metrics review 5, finding 10).
        assert str(app.scoreboard.table.render()).startswith("scripted: rates chosen by hand, not measurements")
        assert mode.timeline.position == ep2_end and mode.timeline.seq == events[ep2_end - 1].seq
        # Back before the favor: the projection is rebuilt, not patched.
        before = index_after(events, "EpisodeEnded", episode=1)
        mode.seek(before)
        await pilot.pause()
        assert app.live.metrics == score(events[:before])
        assert app.live.metrics.episodes == 0 and app.harms.harms == []
        assert "harm" not in app.workspace.files.marks.get("services/platform/ratelimit.py", set())
        assert app.applied == before
        # Keys: step forward and back, end.
        await pilot.press("right")
        await pilot.pause()
        assert mode.cursor == before + 1
        await pilot.press("left", "left")
        await pilot.pause()
        assert mode.cursor == before - 1
        await pilot.press("end")
        await pilot.pause()
        assert mode.cursor == len(events) and list(app.reviews.pending) == ["r3.1"]
        # A seek forward folds in only what lies between, to the projection a rebuild gives.
        assert app.live.metrics == score(events) and app.applied == len(events)
        mode.seek(before)
        mode.seek(ep2_end)
        await pilot.pause()
        assert app.live.metrics == score(events[:ep2_end]) and app.applied == ep2_end
        assert app.harms.harms and "harm" in app.workspace.files.marks.get("services/platform/ratelimit.py", set())


async def test_replay_plays_to_the_end() -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, flash_seconds=0, autoplay=True, speed=64.0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: replay(app).cursor == len(events), "replay reached the end")
        await until(pilot, lambda: not replay(app).timeline.playing, "replay stopped")
        assert app.live.metrics == score(events)


async def test_replay_is_read_only_and_its_footer_shows_its_own_keys() -> None:
    app = build_app(None, SESSION, events=session_events(), flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        replay(app).seek(len(session_events()))
        await pilot.press("a", "2", "r")
        await pilot.pause()
        assert app.reviews.sent == {} and app.norms_panel.pending == {}
        shown = {key for key, active in app.active_bindings.items() if active.enabled and active.node is app}
        assert {"space", "left", "left_square_bracket", "home"} <= shown
        assert not {"p", "n", "a", "x", "r", "2"} & shown
        await pilot.press("space")  # paused at the end: play starts over; the bar says so at once
        assert replay(app).timeline.playing
        await pilot.press("space")
        assert not replay(app).timeline.playing


async def test_a_live_footer_shows_the_session_keys_not_the_timeline() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE):
        shown = {key for key, active in app.active_bindings.items() if active.enabled and active.node is app}
        assert {"p", "n", "a", "x", "r"} <= shown
        assert not {"space", "left", "left_square_bracket", "home"} & shown


async def test_timeline_keys_act_in_a_replay_only_and_not_over_a_diff() -> None:
    events = session_events()
    app = build_app(None, SESSION, events=events, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        assert app.check_action("seek_by", (1,)) is True
        app.push_screen(DiffScreen("diff", ""))
        await pilot.pause()
        assert app.check_action("seek_by", (1,)) is False
        await pilot.press("end")  # the diff is on top: the key is not the timeline's
        await pilot.pause()
        assert replay(app).cursor == 0
    watched = build_app(InProcessBus(), SESSION, flash_seconds=0)
    async with watched.run_test(size=SIZE):
        assert watched.check_action("seek_by", (1,)) is False
        assert watched.check_action("step", ()) is True


async def test_themes_switch_at_runtime_and_define_team_colours() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0, theme="light")
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, session_events())
        assert app.theme == "scopewatch-light"
        seen = []
        for _ in THEMES:
            await pilot.press("t")
            await pilot.pause()
            seen.append(app.theme)
            assert all(f"team-{i}" in app.theme_variables for i in range(1, 7))
            assert "team-absent" in app.theme_variables
        assert sorted(seen) == sorted(THEMES)
        # A built-in Textual theme still has the team variables (borrowed defaults).
        app.theme = "nord"
        await pilot.pause()
        assert "team-1" in app.theme_variables


async def test_a_session_without_sandbox_isolation_says_so_on_the_status_line() -> None:
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    started = events[0].model_copy(update={"sandbox": "local/none", "sandbox_warning": "no sandbox isolation"})
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [started])
        assert "⚠ no sandbox isolation" in app.status.render().plain  # type: ignore[union-attr]
        assert app.status.sandbox_warning == "no sandbox isolation"


async def test_a_review_waiting_on_the_person_takes_the_focus_and_enter_opens_its_diff() -> None:
    """The waiting panel's heavy border read as focus, but the tree had it: ``enter`` on "the highlighted review"
    did nothing (newcomer4 01). Now the list takes the focus when the session begins to wait on this screen."""
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    at = index_after(events, "ReviewRequested")
    request = events[at - 1]
    norms = Norms(reviewer="human").model_dump()
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events[: at - 1])
        assert app.focused is not app.reviews.options
        human = NormChanged(
            session=SESSION, seq=request.seq, key="reviewer", old="trajectory", new="human", norms=norms
        )
        await feed(pilot, bus, [human, request.model_copy(update={"seq": request.seq + 1, "to": "admin"})])
        assert app.reviews.waiting_on_human
        assert app.focused is app.reviews.options
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)


async def test_approve_and_reject_decide_the_review_whose_diff_is_open() -> None:
    """The footer under a review's diff offered ``a Approve`` and ``x Reject``, which did nothing until the diff was
    closed (newcomer5 09): they decide that review now, and close the diff. A harm's diff decides nothing."""
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    events = session_events()
    at = index_after(events, "ReviewRequested")
    request = events[at - 1]
    norms = Norms(reviewer="human").model_dump()
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, events[: at - 1])
        human = NormChanged(
            session=SESSION, seq=request.seq, key="reviewer", old="trajectory", new="human", norms=norms
        )
        await feed(pilot, bus, [human, request.model_copy(update={"seq": request.seq + 1, "to": "admin"})])
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(app.screen, DiffScreen)
        assert app.reviews.sent == {request.request_id: "approved"}  # type: ignore[attr-defined]
        app.push_screen(DiffScreen("a harm's change", "--- a\n+++ b\n"))
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, DiffScreen)  # no review to decide: the key is not offered


async def test_ctrl_c_says_how_to_quit_in_plain_words() -> None:
    """Textual's notice is markup (``Press [b]ctrl+q[/b]``), which the notice line showed as is (newcomer5 10)."""
    app = build_app(InProcessBus(), SESSION, flash_seconds=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        shown = app.notices.text
        assert "q to quit" in shown and "[" not in shown, shown


async def test_the_reviews_panel_names_the_reviewer_the_session_started_with() -> None:
    """``run --norm reviewer=away``: the Norms panel said away, the Reviews panel "reviewer: trajectory" (its
    default) until a norm changed (newcomer4 04)."""
    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    first = session_events()[0]
    started = first.model_copy(update={"norms": first.norms.model_copy(update={"reviewer": "away"})})
    async with app.run_test(size=SIZE) as pilot:
        await feed(pilot, bus, [started])
        assert "reviewer: away" in str(app.reviews.status.render())


async def test_a_narrow_footer_still_shows_the_keys_and_quit() -> None:
    """At 60x20 the footer cut "? Keys" and "q Quit" off its end (newcomer4 03): they come first now, and the
    command palette's hint is left out below 80 columns."""
    from textual.widgets._footer import FooterKey

    bus = InProcessBus()
    app = build_app(bus, SESSION, flash_seconds=0)
    async with app.run_test(size=(60, 20)) as pilot:
        await feed(pilot, bus, session_events()[:5])
        await pilot.pause()
        shown = {key.key for key in app.footer.query(FooterKey) if key.region.right <= 60 and key.region.width}
        assert {"question_mark", "q"} <= shown, shown
        assert not app.footer.show_command_palette
