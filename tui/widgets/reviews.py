"""Pending reviews: a queue of requests (requester, files, proposed diff); the user approves or
rejects the highlighted one with keys, playing the reviewer (with norm reviewer=human the session
waits on these decisions). An ACP agent's permission request is queued the same way (with norm
permission_gate=human the agent waits on it; ``a`` allows, ``x`` rejects). In a room with
reviewer=room the same keys vote, and the panel shows who is present, the live tally, the
watcher's own vote and the decision (tui/widgets/room.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from channel.class_events import VoteCast
from channel.events import (
    CommandRefused,
    EpisodeEnded,
    Event,
    NormChanged,
    PermissionRequested,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    SessionStarted,
)
from tui.colours import diff_lines, render
from tui.messages import DiffRequested, ReviewDecisionRequested
from tui.widgets.room import RoomView

PREVIEW_LINES = 14
OPTIONS_HEIGHT = 5
"""The requests' list shows this many lines (its max-height below); it scrolls."""


DECISIONS = ("DecideReview", "CastVote")
"""The commands a decision key sends."""


class ReviewQueue(Vertical):
    """Requests waiting for a decision; decided ones leave the queue when ReviewDecided arrives."""

    DEFAULT_CSS = """
    ReviewQueue { border: round $accent 60%; height: 1fr; }
    ReviewQueue.waiting { border: heavy $warning; }
    ReviewQueue > .review-status { height: auto; padding: 0 1; color: $text-muted; }
    ReviewQueue > OptionList { height: auto; max-height: 5; border: none; background: $surface; }
    ReviewQueue > OptionList:focus { border: none; }
    ReviewQueue > VerticalScroll { height: 1fr; background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.pending: dict[str, ReviewRequested] = {}
        self.sent: dict[str, str] = {}
        """request id -> decision sent, waiting for the engine's ReviewDecided."""
        self.decided = 0
        self.reviewer = "trajectory"
        self.gate = "off"
        self.permissions: set[str] = set()
        """The pending ids that are ACP agents' permission requests."""
        self.room = RoomView()
        self.can_decide = True
        """False for a watcher without a reviewer or instructor token: the session waits on the reviewer."""
        self.status = Static("", classes="review-status")
        self.options = OptionList()
        self.preview = Static("")
        self.ended = ""
        """The reason the session ended ('' while it runs): nothing waits any more, an open review stays undecided."""
        self._status_text: Text | None = None
        self._option_texts: list[Text] = []
        self.border_title = "Reviews \\[a] approve \\[x] reject \\[enter] diff"

    def compose(self) -> ComposeResult:
        yield self.status
        yield self.options
        with VerticalScroll():
            yield self.preview

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show())
        self.call_later(self._show)  # is_mounted turns True only after on_mount

    @property
    def me(self) -> str:
        return self.room.me

    @me.setter
    def me(self, name: str) -> None:
        self.room.me = name

    def reset(self) -> None:
        self.room.reset()
        self.pending.clear()
        self.sent.clear()
        self.decided = 0
        self.ended = ""
        self._show()

    def apply(self, events: Sequence[Event]) -> None:
        changed = self.room.apply(events)
        for event in events:
            if isinstance(event, SessionEnded):  # a replay at its end: the open reviews were never decided
                self.ended, self.room.ended = event.reason, True
                changed = True
            elif isinstance(event, (SessionStarted, NormChanged)):  # the panel names the reviewer: shown again
                self.reviewer, self.gate = event.norms.reviewer, event.norms.permission_gate
                changed = True
            elif isinstance(event, PermissionRequested):
                offers = ", ".join(event.options) or "no options"
                self.pending[event.request_id] = ReviewRequested.model_construct(  # its strings escaped already
                    session=event.session,
                    seq=event.seq,
                    ts=event.ts,
                    actor=event.actor,
                    request_id=event.request_id,
                    to="admin",
                    paths=event.paths,
                    diff="",
                    episode=event.episode,
                    description=f"permission ({event.tool_kind}): {event.title} [offers {offers}]",
                )
                self.permissions.add(event.request_id)
                changed = True
            elif isinstance(event, ReviewRequested):
                self.pending[event.request_id] = event
                changed = True
            elif isinstance(event, EpisodeEnded):
                # Undecided requests end with their episode (the reviewer was away).
                expired = [rid for rid, req in self.pending.items() if req.episode == event.episode]
                for rid in expired:
                    self.pending.pop(rid)
                    self.sent.pop(rid, None)
                    self.permissions.discard(rid)
                changed = changed or bool(expired)
            elif isinstance(event, CommandRefused) and event.command in DECISIONS and event.actor == self.me:
                changed = changed or bool(self.sent)
                self.sent.clear()  # refused (no token, a watcher's): nothing is on its way
            elif isinstance(event, VoteCast) and event.actor == self.me:
                self.sent.pop(event.request_id, None)  # the vote arrived: the tally shows it
                changed = True
            elif isinstance(event, ReviewDecided):
                if self.pending.pop(event.request_id, None) is not None:
                    self.decided += 1
                self.sent.pop(event.request_id, None)
                self.permissions.discard(event.request_id)
                changed = True
        if changed:
            self._show()

    @property
    def waiting_on_human(self) -> bool:
        if self.ended:
            return False
        asks = [rid for rid, r in self.pending.items() if r.to == "admin"]
        reviews = [rid for rid in asks if rid not in self.permissions]
        return (self.reviewer in ("human", "room") and bool(reviews)) or (
            self.gate == "human" and len(reviews) < len(asks)
        )

    def highlighted(self) -> ReviewRequested | None:
        index = self.options.highlighted
        ids = list(self.pending)
        if index is None or not (0 <= index < len(ids)):
            return self.pending[ids[0]] if ids else None
        return self.pending[ids[index]]

    def _show(self) -> None:
        if not self.is_mounted:
            return
        keep = self.options.highlighted
        self.options.clear_options()
        self._option_texts = []
        for rid, req in self.pending.items():
            sent = self.sent.get(rid)
            mark = f"  ({'your vote: ' if self.reviewer == 'room' else ''}{sent} sent…)" if sent else ""
            text = render(
                self.app,
                ((f"{req.actor}", "bold"), (f" → {req.to}: ", "dim"), (", ".join(req.paths), "accent"), (mark, "dim")),
            )
            self.options.add_option(Option(text, id=rid))
            self._option_texts.append(text)
        if self.pending:
            self.options.highlighted = min(keep or 0, len(self.pending) - 1)
        waiting = self.waiting_on_human
        self.set_class(waiting, "waiting")
        status = f"{len(self.pending)} pending · {self.decided} decided · reviewer: {self.reviewer}"
        if waiting:
            status += (
                " · ⏳ the session waits on the room's votes"
                if self.reviewer == "room"
                else " · ⏳ the session waits on you"
                if self.can_decide
                else " · ⏳ the session waits on the reviewer"
            )
        if self.ended and self.pending:
            undecided = "these were" if len(self.pending) > 1 else "it was"
            status += f" · ■ session ended ({self.ended}): {undecided} never decided"
        lines = [((status, "warning bold" if waiting else "dim"),)]
        lines += [((line, "accent"),) for line in (self.room.presence_line(), self.room.closed_line()) if line]
        self._status_text = Text("\n").join(render(self.app, line) for line in lines)
        self.status.update(self._status_text)
        self._preview()

    def wanted_height(self) -> int:
        """The height that shows the status lines, the requests and, in a room, the tally and the
        request voted on (the right column keeps this much for the panel: tui/widgets/right_column.py)."""
        width = max(10, self.size.width - 2)
        lines = len(self._status_text.wrap(self.app.console, width)) if self._status_text else 1
        console = self.app.console
        lines += min(sum(len(text.wrap(console, width)) for text in self._option_texts), OPTIONS_HEIGHT)
        if self.pending and self.reviewer == "room":
            lines += len(Text(self.room.tally_line(next(iter(self.pending)))).wrap(console, width - 2)) + 1
        else:
            lines += 1
        return max(6, lines + 2)

    def _preview(self) -> None:
        req = self.highlighted()
        if req is None:
            self.preview.update(Text("no pending review", style="dim"))
            return
        head = ((f"{req.request_id}: {req.description or 'proposed change'}", "bold"),)
        tally = [((self.room.tally_line(req.request_id), "warning bold"),)] if self.reviewer == "room" else []
        lines = [*tally, head, *diff_lines(req.diff, PREVIEW_LINES)]  # the tally first: the panel is short
        text = Text("\n").join(render(self.app, line) for line in lines)
        self.preview.update(text)

    def on_option_list_option_highlighted(self, _event: Any) -> None:
        self._preview()

    def on_option_list_option_selected(self, _event: Any) -> None:
        self.action_open_diff()

    def decide(self, decision: str) -> str | None:
        """Post the user's decision on the highlighted admin review; returns its id (None: none)."""
        req = self.highlighted()
        if req is None:
            self.app.notify("No pending review to decide.", severity="warning")
            return None
        if req.to != "admin":
            self.app.notify(
                f"{req.request_id} asks {req.to}, not the reviewer: the owner decides it.", severity="warning"
            )
            return None
        self.sent[req.request_id] = decision
        self.post_message(ReviewDecisionRequested(req.request_id, decision))
        self._show()
        return req.request_id

    def action_open_diff(self) -> None:
        req = self.highlighted()
        if req is not None:
            self.post_message(DiffRequested(f"{req.request_id}: {req.actor} → {req.to}", req.diff, review=True))
