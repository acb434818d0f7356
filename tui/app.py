"""The scopewatch app: a projection of the event stream.

One worker reads the bus and posts :class:`~tui.messages.EventsArrived`; the handler folds the buffered batch into
every projection widget. The app publishes commands (channel/commands.py) and never reaches into the engine. It runs
live (an ``engine`` coroutine run as a worker in the same loop), on a recording (``events``: a timeline), or attached
to a remote session (a bus and a session id). What differs is the app's mode (tui/modes.py): the app asks it what to
start and what the session keys do, never which mode it is. The layout is in tui/app.tcss.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.geometry import Size
from textual.notifications import SeverityLevel
from textual.widgets import Footer, Input
from textual.worker import Worker, WorkerState

from channel.bus import Bus, Dropped, Subscription
from channel.commands import CastVote, DecideReview, SetNorm, _Command
from channel.events import Event
from channel.vocab.topics import ALL
from engine.scoring.live import LiveScore
from themes import DARK, THEMES, register_all, resolve
from tui.collector import CollectorTuning
from tui.command_palette import ScopewatchCommands
from tui.host import SessionApp
from tui.keys import APP_BINDINGS
from tui.messages import (
    BusEnded,
    DiffRequested,
    EventsArrived,
    EventsDropped,
    NormToggleRequested,
    ReviewDecisionRequested,
)
from tui.modes import SessionMode, mode_for
from tui.screens.diff import DiffScreen
from tui.widgets.activity import ActivityPanes
from tui.widgets.channel_log import ChannelPanel
from tui.widgets.harm import HarmAlerts
from tui.widgets.norms import NormsPanel, next_norm
from tui.widgets.notices import NoticeBar
from tui.widgets.pages import PAGES, PageBar
from tui.widgets.reviews import ReviewQueue
from tui.widgets.right_column import RightColumn
from tui.widgets.scoreboard import Scoreboard
from tui.widgets.seat import SeatPanel
from tui.widgets.status import StatusBar
from tui.widgets.workspace import WorkspacePanel

BUFFER_CAP = 20_000
"""Events buffered for the screen before the bus reader waits (back-pressure, bounded memory)."""
YIELD_EVERY = 200
DRAIN_INTERVAL = 1 / 20
"""Live events are folded in (and the screen updated) at most this often: a flood becomes a few
large batches a second instead of many small ones, each costing widget updates and a repaint."""
COMPACT_WIDTH = 100
COMPACT_HEIGHT = 30
"""Below either size the panels become pages shown one at a time (the page bar, key ``v``)."""
NORMS_COLUMN = 40  # a column of norms in the compact layout: two side by side from twice this width, else one


class ScopewatchApp(SessionApp):
    """Watch a session: live, replayed or remote. See :func:`build_app`."""

    TITLE = "scopewatch"
    COMMANDS = App.COMMANDS | {ScopewatchCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (30, "-short"), (44, "-tall")]

    CSS_PATH = "app.tcss"

    BINDINGS: ClassVar[list[BindingType]] = list(APP_BINDINGS)

    def __init__(
        self,
        bus: Bus | None,
        session_id: str,
        *,
        engine: Coroutine[Any, Any, Any] | None = None,
        events: Sequence[Event] | None = None,
        theme: str | None = None,
        token: str | None = None,
        flash_seconds: float = 0.8,
        autoplay: bool = False,
        speed: float = 1.0,
        max_log_lines: int = 400,
        notify_live: bool = True,
        seat: str | None = None,
    ) -> None:
        super().__init__()
        register_all(self)
        self.theme = resolve(theme)
        self.bus = bus
        self.collector = CollectorTuning()
        self.session_id = session_id
        self.token = token
        self.mode: SessionMode = mode_for(self, bus, engine=engine, events=events, autoplay=autoplay, speed=speed)
        """Live, watch or replay: what to start on mount and what the session keys do (tui/modes.py)."""
        self.notify_live = notify_live
        self.applied = 0
        """Events folded into the projection so far (since the last reset)."""
        self._buffer: list[Event] = []
        self._flush_posted = False
        self._last_drain = 0.0
        self._drained = asyncio.Event()
        self._subscription: Subscription | None = None
        self.engine_error: BaseException | None = None

        self.status = StatusBar(session_id, mode=self.mode.name)
        self.workspace = WorkspacePanel(flash_seconds=flash_seconds, id="workspace")
        self.activity = ActivityPanes(max_lines=max_log_lines, id="activity")
        self.channel = ChannelPanel(max_lines=max_log_lines, id="channel")
        self.norms_panel = NormsPanel(id="norms")
        self.live = LiveScore()  # the live score (judge and metrics): the scoreboard and page badges read it
        self.scoreboard = Scoreboard(self.live, id="scoreboard")
        self.reviews = ReviewQueue(id="reviews")
        self.harms = HarmAlerts(id="harms")
        self.right = RightColumn(self.norms_panel, self.scoreboard, self.reviews, self.harms, id="right")
        self.pages = PageBar(id="pages")
        self.notices = NoticeBar(id="notices")
        self.footer = Footer()
        self.seat = SeatPanel(seat, id="seat") if seat else None
        """A person's place in an agent's seat (``--owner human``, ``watch --seat``): tui/widgets/seat.py."""
        self._reviewer_before = "trajectory"  # the reviewer norm to give back when the person leaves the seat
        self.compact = False
        """Small terminal: panels shown one page at a time (see :data:`COMPACT_WIDTH`)."""

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield self.status
        yield self.pages
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield self.workspace
            with Vertical(id="middle"):
                yield self.activity
                yield self.channel
            yield self.right
        if self.seat is not None:
            yield self.seat
        yield self.notices
        yield from self.mode.compose()
        yield self.footer

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Built-in Textual themes lack the team/favor/harm variables: borrow the dark theme's.
        return dict(DARK.variables)

    async def on_mount(self) -> None:
        self.collector.start()
        self._layout(self.size)
        await self.mode.start()

    def on_unmount(self) -> None:
        self.collector.stop()

    # --- small terminals: pages ---------------------------------------------------------------

    def on_resize(self, event: Resize) -> None:
        self._layout(event.size)

    def _layout(self, size: Size) -> None:
        compact = size.width < COMPACT_WIDTH or size.height < COMPACT_HEIGHT
        self.compact = compact
        if not self.screen_stack:
            return
        screen = self.screen_stack[0]
        screen.set_class(compact, "-compact")
        if not any(screen.has_class(f"-page-{name}") for name, _ in PAGES):
            screen.add_class(f"-page-{self.pages.page}")
        self.footer.compact = compact
        self.footer.show_command_palette = size.width >= 80  # at 60 columns it pushed "? Keys" and "q Quit" off
        self.status.compact = compact
        self.norms_panel.set_columns(2 if compact and size.width >= 2 * NORMS_COLUMN else 1)
        self.right.fit()
        self.status.show()
        self.refresh_bindings()

    def action_show_page(self, name: str) -> None:
        """Show one page of the compact layout (the wide layout shows them all anyway)."""
        if name not in dict(PAGES):
            return
        self.pages.page = name
        if not self.screen_stack:
            return
        screen = self.screen_stack[0]
        for page, _ in PAGES:
            screen.set_class(page == name, f"-page-{page}")

    def action_next_page(self) -> None:
        names = [name for name, _ in PAGES]
        self.action_show_page(names[(names.index(self.pages.page) + 1) % len(names)])

    def _badges(self) -> None:
        self.pages.show_counts(self.reviews, self.harms, self.live, self.norms_panel)

    # --- the event stream --------------------------------------------------------------------

    async def follow(self, bus: Bus) -> None:
        """Subscribe to the bus now and fold this session's events in: the one bus reader, a worker."""
        self._subscription = await bus.subscribe(ALL, maxsize=10_000)
        self.run_worker(self._read_bus(self._subscription), name="bus", group="bus", exit_on_error=False)

    async def _read_bus(self, subscription: Subscription) -> None:
        count = 0
        while True:
            try:
                item = await subscription.get()
            except StopAsyncIteration:
                break
            if isinstance(item, Dropped):
                self.post_message(EventsDropped(item.count))
                continue
            if isinstance(item, _Command) or getattr(item, "session", self.session_id) != self.session_id:
                continue
            self._buffer.append(item)
            if not self._flush_posted:
                self._flush_posted = True
                self.post_message(EventsArrived())
            count += 1
            if len(self._buffer) >= BUFFER_CAP:
                self._drained.clear()
                await self._drained.wait()
            elif count % YIELD_EVERY == 0:
                await asyncio.sleep(0)
        self.post_message(BusEnded())

    @on(EventsArrived)
    def _drain(self) -> None:
        wait = self._last_drain + DRAIN_INTERVAL - time.monotonic()
        if wait > 0:
            # Too soon after the last batch: let events gather (the reader posts nothing meanwhile).
            self.set_timer(wait, self._drain_now)
            return
        self._drain_now()

    def _drain_now(self) -> None:
        batch, self._buffer = self._buffer, []
        self._flush_posted = False
        self._drained.set()
        self._last_drain = time.monotonic()
        if batch:
            self.apply_events(batch, live=True)

    @on(EventsDropped)
    def _dropped(self, message: EventsDropped) -> None:
        self.status.dropped += message.count
        self.status.show()

    @on(BusEnded)
    def _bus_ended(self) -> None:
        if self.status.state != "ended":
            self.notify("The event stream ended.", severity="warning")

    def _focus_reviews(self) -> None:
        """The session began to wait on the person at this screen: the review list takes the focus (its ``enter``
        opens the highlighted diff; elsewhere ``enter`` and the arrows were the focused tree's, and the heavy
        border of a waiting panel read as focus: newcomer4 01), unless they are typing (the seat's input)."""
        if self.reviews.can_decide and not isinstance(self.focused, Input):
            self.reviews.options.focus(scroll_visible=False)  # the right column keeps its fit (test_right_column)

    def apply_events(self, batch: Sequence[Event], *, live: bool) -> None:
        """Fold a batch of events (in seq order) into every projection; ``live`` batches notify."""
        with self.batch_update():
            # The live score's judge first: it knows which writes make an episode a favor.
            score = self.live.apply(batch)
            favor_seqs = {write.seq for write in score.favors}
            self.scoreboard.show(score)
            self.workspace.apply(batch, favor_seqs)
            self.activity.apply(batch, favor_seqs)
            self.channel.apply(batch)
            self.norms_panel.apply(batch)
            self.reviews.apply(batch)
            waiting = self.reviews.waiting_on_human
            if live and waiting and not self.status.waiting:
                self._focus_reviews()
            self.status.waiting = waiting
            self.status.apply(batch)
            harms = self.harms.apply(batch)
            if self.seat is not None:
                self.seat.apply(batch)
            self._badges()
            self.right.fit()
        self.applied += len(batch)
        if live and self.notify_live:
            self.notices.announce(harms, [x for x in score.closed if x.favor], score.favors, self.live.requester, batch)

    def reset_projection(self) -> None:
        """Forget every event folded in (a replay's seek then folds in the recording up to its cursor)."""
        self.live.reset()
        projections = (self.status, self.workspace, self.activity, self.channel, self.norms_panel, self.reviews)
        for widget in (*projections, self.scoreboard, self.harms):
            widget.reset()
        self.applied = 0

    # --- workers: one place for their errors -------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state == WorkerState.ERROR and worker.error is not None:
            if worker.name == "engine":
                self.engine_error = worker.error
            self.log.error(worker.error)
            self.notify(
                f"{worker.name} stopped: {type(worker.error).__name__}: {worker.error}",
                title="Error",
                severity="error",
                timeout=30,
            )

    # --- commands ----------------------------------------------------------------------------

    async def send(self, command: _Command) -> bool:
        """Publish a command for the session; False (with a notice) when there is nothing to command."""
        return await self.mode.send(command)

    def command(self, kind: type[_Command], **fields: Any) -> _Command:
        """A command of ``kind`` for this session, from the TUI (with the reviewer's token, if any)."""
        return kind(session=self.session_id, sender="tui", token=self.token, **fields)

    def request_norm(self, key: str, value: Any) -> None:
        self.post_message(NormToggleRequested(key, value))

    @on(NormToggleRequested)
    async def _norm_toggle(self, message: NormToggleRequested) -> None:
        if await self.send(self.command(SetNorm, key=message.key, value=message.value)):
            self.norms_panel.request(message.key, message.value)
            self._badges()

    @on(ReviewDecisionRequested)
    async def _review_decision(self, message: ReviewDecisionRequested) -> None:
        rid, choice = message.request_id, message.decision  # in a room (reviewer=room) the same keys vote
        vote = self.command(CastVote, request_id=rid, choice=choice) if self.reviews.reviewer == "room" else None
        await self.send(vote or self.command(DecideReview, request_id=rid, decision=choice))

    @on(DiffRequested)
    def _open_diff(self, message: DiffRequested) -> None:
        self.push_screen(DiffScreen(message.title, message.diff, review=message.review))

    def next_norm_value(self, key: str) -> Any:
        return next_norm(self.norms_panel.norms, key, in_room=self.reviews.room.room is not None)

    def action_toggle_norm(self, key: str) -> None:
        self.request_norm(key, self.next_norm_value(key))

    def action_reviewer_seat(self) -> None:
        """Take the reviewer's seat (the session then waits for your decisions), or give it back."""
        panel = self.norms_panel
        current = panel.pending.get("reviewer", panel.norms.get("reviewer", "trajectory"))
        if current == "human":
            self.request_norm("reviewer", self._reviewer_before)
            self.notify(f"you left the reviewer's seat; the reviewer is {self._reviewer_before} again")
        else:
            self._reviewer_before = current
            self.request_norm("reviewer", "human")
            self.notify("you are the reviewer: the session waits for your decisions (a / x); r gives the seat back")

    def action_keys(self) -> None:
        """Show or hide the keys of the focused panel and the app (Textual's help panel)."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None,
        markup: bool = True,
    ) -> None:  # fmt: skip
        """Every notice goes to the notice line (tui/widgets/notices.py: the notification policy), never a toast."""
        self.notices.say(message, title=title, severity=severity, timeout=6.0 if timeout is None else timeout)

    def action_help_quit(self) -> None:  # ctrl+c: Textual's notice is markup, which the notice line showed as is
        self.notify("press q to quit (ctrl+q anywhere)", title="Do you want to quit?")

    def action_next_theme(self) -> None:
        names = list(THEMES)
        self.theme = names[(names.index(self.theme) + 1) % len(names)] if self.theme in names else names[0]
        self.notify(f"theme: {self.theme}", timeout=2)

    def set_theme(self, name: str) -> None:
        self.theme = resolve(name)

    # --- the session keys: the mode decides what they do -------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next_page":
            return self.compact  # pages exist in the compact layout only
        return self.mode.allows(action)

    def action_decide(self, decision: str) -> None:
        self.mode.decide(decision)

    async def action_toggle_pause(self) -> None:
        await self.mode.toggle_pause()

    async def action_play(self) -> None:
        await self.mode.toggle_pause()

    async def action_step(self) -> None:
        await self.mode.step()

    async def action_faster(self) -> None:
        await self.mode.change_speed(+1)

    async def action_slower(self) -> None:
        await self.mode.change_speed(-1)

    def action_seek_by(self, count: int) -> None:
        self.mode.seek_by(count)

    def action_seek_fraction(self, fraction: float) -> None:
        self.mode.seek_fraction(fraction)

    def action_seek_to(self, index: int) -> None:
        self.mode.seek_to(index)

    def action_fork(self) -> None:
        self.mode.fork()


def build_app(
    bus: Bus | None,
    session_id: str,
    *,
    engine: Coroutine[Any, Any, Any] | None = None,
    events: Sequence[Event] | None = None,
    theme: str | None = None,
    **options: Any,
) -> ScopewatchApp:
    """The one app factory, shared by the CLI and the tests.

    - live: ``bus`` + ``session_id`` + ``engine`` (``session.run()``, run as a worker);
    - watch (attached to a session served elsewhere): ``bus`` + ``session_id``;
    - replay: ``events`` (a recording read with :func:`channel.recorder.read_recording`).
    """
    return ScopewatchApp(bus, session_id, engine=engine, events=events, theme=theme, **options)
