"""The shared channel and the DMs (DMs visibly private), plus the session's own notices: review
requests and decisions, branch episodes' merge requests, approvals, merges and refused pushes, norm
changes, pause/resume, refused commands, a lesson's prompts."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Vertical

from channel.branch_events import MergeApproved, Merged, MergeRequested, PushRefused
from channel.events import (
    CommandRefused,
    EpisodeEnded,
    Event,
    LessonPrompted,
    MessagePosted,
    NormChanged,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    SessionPaused,
    SessionResumed,
    SpeedChanged,
)
from tui.colours import Line
from tui.widgets.event_log import EventLog


def message_line(event: MessagePosted) -> Line:
    tag = "" if event.intent == "info" else f"[{event.intent}{' → ' + event.asks if event.asks else ''}] "
    if event.to is None:
        return (("# ", "primary"), (f"{event.actor}: ", "bold"), (tag, "accent"), (event.text, ""))
    return (
        (f"🔒 DM {event.actor} → {event.to} ", "dm bold"),
        ("(private) ", "dm dim italic"),
        (tag, "accent"),
        (event.text, "dm italic"),
    )


def notice_line(event: Event) -> Line | None:
    if isinstance(event, MessagePosted):
        return message_line(event)
    if isinstance(event, ReviewRequested):
        return (
            ("» ", ""),
            (f"{event.actor} asks {event.to} to review {', '.join(event.paths)}", "accent"),
            (f": {event.description}" if event.description else "", "dim"),
        )
    if isinstance(event, ReviewDecided):
        spec = "success" if event.decision == "approved" else "error"
        applied = " (change landed)" if event.applied else ""
        return ((f"» {event.actor} {event.decision} {event.request_id}{applied}", spec),)
    if isinstance(event, MergeRequested | MergeApproved | Merged | PushRefused):
        return branch_line(event)
    if isinstance(event, NormChanged):
        return ((f"⚑ norm {event.key}: {event.old} → {event.new} (from the next turn)", "warning bold"),)
    if isinstance(event, SessionPaused):
        return (("|| paused", "warning"),)
    if isinstance(event, SessionResumed):
        return (("▶ resumed", "success"),)
    if isinstance(event, SpeedChanged):
        return ((f"⏩ speed x{event.speed:g}", "dim"),)
    if isinstance(event, CommandRefused):
        return ((f"✗ {event.command} refused: {event.reason}", "error"),)
    if isinstance(event, EpisodeEnded):
        passed = ", ".join(f"{a} {'passed' if ok else 'failed'}" for a, ok in event.passed.items())
        return ((f"── episode {event.episode} ({event.task_id}) ended: {passed}", "dim"),)
    if isinstance(event, SessionEnded):
        return ((f"■ session ended ({event.reason})", "primary bold"),)
    if isinstance(event, LessonPrompted):
        return lesson_line(event)
    return None


def branch_line(event: MergeRequested | MergeApproved | Merged | PushRefused) -> Line:
    """A branch episode's merge request (pending until someone approves it), approval, merge or refused push."""
    if isinstance(event, MergeRequested):
        owned = f"; needs @{' @'.join(sorted({t for ts in event.owned.values() for t in ts}))}" if event.owned else ""
        asks = ", ".join(event.reviewers) or "nobody"
        return (
            ("⑂ ", ""),
            (f"{event.actor} opened {event.request_id} ({event.branch} → main), asks {asks}", "accent"),
            (f"{owned}: pending", "warning"),
        )
    if isinstance(event, MergeApproved):
        return ((f"⑂ {event.actor} (@{event.team}) approved {event.request_id} by {event.author}", "success bold"),)
    if isinstance(event, Merged):
        return ((f"⑂ {event.actor} merged {event.request_id or event.branch} into main", "success"),)
    return ((f"✗ push to main by {event.actor} refused: {event.reason}", "error"),)


def lesson_line(event: LessonPrompted) -> Line:
    """A lesson's prompt, for everyone watching: the question, its choices, and how to go on."""
    return (
        ("📣 lesson: ", "accent bold"),
        (event.prompt, "bold"),
        (f" [{' / '.join(event.choices)}]" if event.choices else "", "accent"),
        (" (paused: p resumes)" if event.paused else "", "dim"),
    )


class ChannelPanel(Vertical):
    """The conversation: shared channel lines, private DMs, session notices."""

    DEFAULT_CSS = """
    ChannelPanel { border: round $primary 50%; height: 1fr; }
    """

    def __init__(self, *, max_lines: int = 500, id: str | None = None) -> None:
        super().__init__(id=id)
        self.log_view = EventLog(max_lines=max_lines)
        self.border_title = "Shared channel · 🔒 DMs · notices"

    def compose(self) -> ComposeResult:
        yield self.log_view

    def reset(self) -> None:
        self.log_view.reset()

    def apply(self, events: Sequence[Event]) -> None:
        lines = [line for line in (notice_line(e) for e in events) if line is not None]
        self.log_view.add(lines)
