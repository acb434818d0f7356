"""A recording as one HTML page, readable offline (``scopewatch report FILE --html OUT``): the
metrics, the favor/harm plot as inline SVG, the episodes with their labels, the favors, the harms
with their diffs, the reviews and the lesson's prompts, and the session's timeline.

The page is self-contained: its style is inline, it has no script, and it names no resource outside
itself (no fonts, images or links to fetch), so it opens the same with no network. Everything shown
is computed from the events, exactly as ``report`` scores them; every recorded text is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Iterator, Sequence

from channel.class_events import VoteClosed
from channel.events import (
    EpisodeEnded,
    EpisodeStarted,
    Event,
    HarmDetected,
    LessonPrompted,
    NormChanged,
    ReviewDecided,
    ReviewRequested,
    SessionEnded,
    SessionPaused,
    SessionResumed,
    SessionStarted,
    TrapFired,
    VerdictReached,
)
from engine.scoring.judge import EpisodeLabel
from engine.scoring.metrics import Scorer
from engine.scoring.tables import render_table
from scenarios.identity import short_hash

FAVOR_COLOUR = "#d97706"
HARM_COLOUR = "#dc2626"
"""The plot's two lines (the test looks for these colours on the rendered page)."""
TIMELINE = (
    SessionStarted,
    EpisodeStarted,
    EpisodeEnded,
    NormChanged,
    ReviewRequested,
    VoteClosed,
    ReviewDecided,
    HarmDetected,
    TrapFired,
    VerdictReached,
    LessonPrompted,
    SessionPaused,
    SessionResumed,
    SessionEnded,
)
"""The events the timeline lists (the rest are in the recording)."""

_STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 70em; color: #1f2937; background: #fff; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #d1d5db; }
table { border-collapse: collapse; font-size: 0.9em; } td, th { padding: 0.2em 0.6em; text-align: left; }
tr:nth-child(even) { background: #f3f4f6; } pre { background: #f9fafb; padding: 0.6em; overflow-x: auto; }
.yes { color: #b91c1c; font-weight: bold; } .muted { color: #6b7280; } .add { color: #15803d; }
.del { color: #b91c1c; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def cumulative_rates(scored: Sequence[EpisodeLabel]) -> list[tuple[int, float, float]]:
    """(episode, favor rate so far, harm rate so far) after each of the ``scored`` episodes
    (``Metrics.scored_labels``: no warm-up, failed or unscored one, as the rates count them)."""
    out: list[tuple[int, float, float]] = []
    favors = harms = 0
    for n, label in enumerate(scored, 1):
        favors += label.favor
        harms += label.harm
        out.append((label.episode, favors / n, harms / n))
    return out


LABEL_WIDTH = 40
"""Room for one x label ("ep120" at 11 px) on the plot."""


def plot_svg(points: Sequence[tuple[int, float, float]], *, width: int = 640, height: int = 260) -> str:
    """The favor and harm rates over the episodes, as an inline SVG (no fonts or files fetched)."""
    left, right, top, bottom = 48, 16, 16, 44
    w, h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" id="plot" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="favor and harm rate over episodes">',
        f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#ffffff" stroke="#9ca3af"/>',
    ]
    for tick in (0.0, 0.5, 1.0):
        y = top + h - tick * h
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + w}" y2="{y:.1f}" stroke="#e5e7eb"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{tick:.0%}</text>')
    if not points:
        parts.append(f'<text x="{left + w / 2}" y="{top + h / 2}" text-anchor="middle">no scored episode</text>')
        parts.append("</svg>")
        return "".join(parts)
    n = len(points)

    def x(i: int) -> float:
        return left + (w / 2 if n == 1 else i * w / (n - 1))

    step = -(-n // max(1, w // LABEL_WIDTH))  # every step-th episode labelled: labels never run together
    labelled = [i for i in range(0, n, step) if n - 1 - i >= step] + [n - 1]  # the last always, uncrowded
    for i in labelled:
        label = f"ep{points[i][0]}"
        parts.append(f'<text x="{x(i):.1f}" y="{top + h + 16}" font-size="11" text-anchor="middle">{label}</text>')
    # The favor line is the wider: where the two rates are equal (every favor harmed) both show.
    for name, index, colour, stroke in (("favor", 1, FAVOR_COLOUR, 8), ("harm", 2, HARM_COLOUR, 3)):
        what = "favor rate" if name == "favor" else "harms per episode"
        coords = " ".join(f"{x(i):.1f},{top + h - p[index] * h:.1f}" for i, p in enumerate(points))
        parts.append(
            f'<polyline id="plot-{name}" points="{coords}" fill="none" stroke="{colour}" stroke-width="{stroke}"/>'
        )
        for i, p in enumerate(points):
            cy = top + h - p[index] * h
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{cy:.1f}" r="{stroke - 1}" fill="{colour}">'
                f"<title>{what} after ep{p[0]}: {p[index]:.0%}</title></circle>"
            )
    legend_y = height - 8
    parts.append(f'<rect x="{left}" y="{legend_y - 9}" width="14" height="4" fill="{FAVOR_COLOUR}"/>')
    parts.append(f'<text x="{left + 18}" y="{legend_y - 4}" font-size="11">favor rate</text>')
    parts.append(f'<rect x="{left + 100}" y="{legend_y - 9}" width="14" height="4" fill="{HARM_COLOUR}"/>')
    parts.append(f'<text x="{left + 118}" y="{legend_y - 4}" font-size="11">harms per episode</text>')
    parts.append("</svg>")
    return "".join(parts)


def _diff(diff: str) -> str:
    lines = []
    for line in diff.splitlines():
        cls = "add" if line.startswith("+") else "del" if line.startswith("-") else ""
        lines.append(f'<span class="{cls}">{_e(line)}</span>' if cls else _e(line))
    return "<pre>" + "\n".join(lines) + "</pre>"


def _yes(flag: bool, *, bad: bool = True) -> str:
    """yes / no, a bad yes (a favor, a harm) marked."""
    return ('<span class="yes">yes</span>' if bad else "yes") if flag else '<span class="muted">no</span>'


def _pack_hash(started: SessionStarted) -> str:
    """The pack's hash (its first 12 digits, all of it on hover), which tells two packs of one name apart."""
    if not started.pack_hash:
        return ""
    return f' (pack <code title="{_e(started.pack_hash)}">{_e(short_hash(started.pack_hash))}</code>)'


def _timeline_text(event: Event) -> str:
    match event:
        case SessionStarted():
            return f"session started: {event.scenario}, seed {event.seed}"
        case EpisodeStarted():
            return f"episode {event.episode} started: {event.task_id} ({event.variant})"
        case EpisodeEnded():
            passed = ", ".join(f"{a} {'passed' if ok else 'failed'}" for a, ok in event.passed.items())
            return f"episode {event.episode} ended: {passed}"
        case NormChanged():
            return f"norm {event.key}: {event.old} → {event.new} (by {event.actor})"
        case ReviewRequested():
            return f"{event.actor} asks {event.to} to review {', '.join(event.paths)}"
        case ReviewDecided():
            return f"{event.actor} {event.decision} {event.request_id}"
        case VoteClosed():
            return (
                f"vote on {event.request_id} closed: {event.decision} ({event.approved} approve · {event.rejected} "
                f"reject of {event.present} present, {event.reason})"
            )
        case HarmDetected():
            return (
                f"harm ({event.stage}): {event.absent_team} {event.test} after {event.author}'s change to {event.path}"
            )
        case TrapFired():
            return f"trap {event.trap} fired ({event.severity}) by {event.actor}"
        case VerdictReached():
            return f"verdict for {event.actor}: {'overeager' if event.overeager else 'not overeager'}"
        case LessonPrompted():
            return f"lesson: {event.prompt}" + (f" [{' / '.join(event.choices)}]" if event.choices else "")
        case SessionEnded():
            return f"session ended ({event.reason})"
    return event.kind.removeprefix("Session").lower() if event.kind.startswith("Session") else event.kind


def _why(decided: ReviewDecided, ballot: VoteClosed | None) -> tuple[str, str]:
    """A decision's reason and, for a room's, every member's last vote (docs/classroom.md: a ``VoteClosed``
    records the tally, the members present, the quorum, the reason and the votes)."""
    if ballot is None:
        return decided.comment or "-", "-"
    tally = (
        f"{ballot.approved} approve · {ballot.rejected} reject of {ballot.present} present, quorum {ballot.quorum} "
        f"({ballot.reason})"
    )
    votes = ", ".join(f"{name}: {choice}" for name, choice in sorted(ballot.votes.items())) or "nobody voted"
    return tally, votes


def html_report(events: Sequence[Event], *, source: str = "") -> str:
    """The recording ``events`` as one self-contained HTML page; ``source`` names the file in the title."""
    return "".join(line + "\n" for line in html_lines(lambda: events, source=source))


def html_lines(events: Callable[[], Iterable[Event]], *, source: str = "") -> Iterator[str]:
    """The page's lines, from two streamed passes over ``events()`` (a recording read again): the first scores
    it and keeps what the page names (harms, decisions, prompts: few), the second gives the timeline's rows as
    they are written, so a recording of millions of events takes the memory ``report`` takes."""
    scorer = Scorer()
    started: SessionStarted | None = None
    t0, count = 0.0, 0
    harms: list[HarmDetected] = []
    decided: list[ReviewDecided] = []
    prompts: list[LessonPrompted] = []
    ballots: dict[str, VoteClosed] = {}
    for event in events():
        if not count:
            t0 = event.ts
        count += 1
        scorer.feed(event)
        if isinstance(event, SessionStarted) and started is None:
            started = event
        elif isinstance(event, HarmDetected) and event.stage == "final":
            harms.append(event)
        elif isinstance(event, ReviewDecided):
            decided.append(event)
        elif isinstance(event, LessonPrompted):
            prompts.append(event)
        elif isinstance(event, VoteClosed):
            ballots[event.request_id] = event
    metrics = scorer.metrics()
    title = f"scopewatch report: {source or (started.session if started else 'session')}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]
    if started is not None:
        out.append(
            f"<p>Session <b>{_e(started.session)}</b> on <b>{_e(started.scenario)}</b>{_pack_hash(started)}, seed "
            f"{started.seed}, {count} events.</p>"
        )
    out.append("<h2>Favor and harm over the episodes</h2>")
    out.append(plot_svg(cumulative_rates(metrics.scored_labels())))
    out.append('<p class="muted">Rates so far after each scored episode (warm-ups left out).</p>')
    out.append("<h2>Metrics</h2>")
    out.append(f"<pre>{_e(render_table(metrics))}</pre>")

    out.append("<h2>Episodes</h2>")
    out.append(
        "<table><tr><th>episode</th><th>task</th><th>variant</th><th>execution</th><th>favor</th>"
        "<th>favor type</th><th>harm</th><th>requester passed</th><th>owner passed</th></tr>"
    )
    for label in metrics.labels:
        out.append(
            f"<tr><td>{label.episode}</td><td>{_e(label.task_id)}</td><td>{_e(label.variant)}</td>"
            f"<td>{_e(label.execution_type)}</td><td>{_yes(label.favor)}</td><td>{_e(label.favor_type or '-')}</td>"
            f"<td>{_yes(label.harm)}</td><td>{_yes(label.requester_passed, bad=False)}</td>"
            f"<td>{_yes(label.owner_passed, bad=False)}</td></tr>"
        )
    out.append("</table>")

    # The count is the table's: scored episodes only (seed 000 §4.2: warm-ups have the reviewer, and are not scored).
    scored = [label for label in metrics.scored_labels() if label.favor]
    warmups = [label for label in metrics.labels if label.favor and label.variant == "warmup"]
    out.append(f"<h2>Favors ({len(scored)})</h2>")
    if not scored:
        out.append('<p class="muted">No favor: no owner changed another agent\'s file outside its own task.</p>')
    for label in [*scored, *warmups]:
        unscored = " A warm-up (the reviewer was available): not scored." if label.variant == "warmup" else ""
        out.append(
            f"<p>Episode {label.episode} ({_e(label.task_id)}): {_e(label.owner)} made {_e(label.requester)}'s "
            f"change outside its own task, unreviewed ({_e(label.favor_type)}).{unscored}</p>"
        )

    out.append(f"<h2>Harms to absent teams ({len(harms)})</h2>")
    if not harms:
        out.append('<p class="muted">No absent team\'s contract test was red at the end of an episode.</p>')
    for harm in harms:
        out.append(
            f"<h3>Episode {harm.episode}: {_e(harm.absent_team)}, {_e(harm.test)}</h3>"
            f"<p>After {_e(harm.author)}'s change to <code>{_e(harm.path)}</code>: {_e(harm.last_line)}</p>"
            f"{_diff(harm.diff)}"
        )

    out.append(f"<h2>Reviews and votes ({len(decided)} decisions)</h2>")
    if not decided:
        out.append('<p class="muted">No review was decided in this session.</p>')
    else:
        out.append(
            "<table><tr><th>seq</th><th>request</th><th>decided by</th><th>decision</th><th>why</th>"
            "<th>votes</th></tr>"
        )
        for d in decided:
            why, votes = _why(d, ballots.get(d.request_id) if d.actor == "room" else None)
            out.append(
                f"<tr><td>{d.seq}</td><td>{_e(d.request_id)}</td><td>{_e(d.actor)}</td><td>{_e(d.decision)}</td>"
                f"<td>{_e(why)}</td><td>{_e(votes)}</td></tr>"
            )
        out.append("</table>")
    if prompts:
        out.append(f"<h3>The lesson's prompts ({len(prompts)})</h3><ul>")
        for p in prompts:
            choices = f" [{' / '.join(p.choices)}]" if p.choices else ""
            out.append(f"<li>after event {p.at_seq}: {_e(p.prompt)}{_e(choices)}</li>")
        out.append("</ul>")

    out.append("<h2>Timeline</h2><table><tr><th>seq</th><th>time</th><th>what</th></tr>")
    yield from out
    for event in events():
        if isinstance(event, TIMELINE):
            yield f"<tr><td>{event.seq}</td><td>+{event.ts - t0:.1f}s</td><td>{_e(_timeline_text(event))}</td></tr>"
    yield "</table></body></html>"
