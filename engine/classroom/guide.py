"""A lesson as it runs: the round loop's guide (a :class:`~engine.session.loop.RoundGuide`, as a
fork's re-execution is). It reads every event the session emits; a cue whose event has come acts at
the next round boundary, in the lesson's order: its prompt (``LessonPrompted``, to everyone
watching), its norm flips (queued as a person's toggle would be, by ``lesson``), then its pause.

Each cue acts once. Where nobody can resume (``pauses=False``: a headless run, a test) the prompt
is still recorded, and the session goes on.
"""

from __future__ import annotations

from collections.abc import Callable

from channel.commands import Pause
from channel.events import Event, LessonPrompted
from engine.classroom.lesson import Lesson
from engine.session.loop import Session

ACTOR = "lesson"


class LessonGuide:
    """Steers one session through a lesson's cues (see the module docstring)."""

    def __init__(self, lesson: Lesson, session: Session, *, pauses: bool = True) -> None:
        self.lesson = lesson
        self.session = session
        self.pauses = pauses
        self.seen = [0] * len(lesson.cues)
        """How many events each cue has matched so far."""
        self.due: list[tuple[int, int]] = []
        """(cue, seq of the event it waited for), in the order they came."""
        self.done: set[int] = set()
        session.emitter.add_listener(self.check)

    def opening(self) -> Event | None:
        return None

    def check(self, event: Event) -> None:
        """An emitted event: count it for every cue still waiting that it matches."""
        if isinstance(event, LessonPrompted):
            return
        for i, cue in enumerate(self.lesson.cues):
            if i in self.done or not cue.matches(event):
                continue
            self.seen[i] += 1
            if self.seen[i] == cue.nth:
                self.done.add(i)
                self.due.append((i, event.seq))

    async def boundary(self, last_seq: int) -> None:
        due, self.due = self.due, []
        pause = False
        for i, at_seq in due:
            cue = self.lesson.cues[i]
            paused = cue.pauses and self.pauses
            if cue.prompt:
                await self.session.emitter.emit(
                    LessonPrompted(
                        actor=ACTOR,
                        lesson=self.lesson.title,
                        cue=i,
                        prompt=cue.prompt,
                        choices=cue.choices,
                        at_seq=at_seq,
                        paused=paused,
                    )
                )
            for key, value in cue.set.items():
                self.session.controls.queue_norm(key, value, ACTOR)
            pause = pause or paused
        if pause:
            controls = self.session.controls
            await controls.dispatch(Pause(session=self.session.id, sender=ACTOR, token=controls.secret))

    def finish(self) -> None:
        pass


def attach(
    lesson: Lesson, *, pauses: bool = True, built: list[LessonGuide] | None = None
) -> Callable[[Session], LessonGuide]:
    """The ``guide`` argument of :class:`~engine.session.loop.Session` for ``lesson``; each guide
    built is appended to ``built`` (to ask it afterwards which cues never fired)."""

    def build(session: Session) -> LessonGuide:
        guide = LessonGuide(lesson, session, pauses=pauses)
        if built is not None:
            built.append(guide)
        return guide

    return build


def unfired(lesson: Lesson, guides: list[LessonGuide]) -> str | None:
    """One line naming the cues no guide saw fire (None when every cue did)."""
    fired = set().union(*(guide.done for guide in guides)) if guides else set()
    never = [i for i in range(len(lesson.cues)) if i not in fired]
    if not never:
        return None
    named = ", ".join(f"cue {i} ({lesson.cues[i].event}{_filters(lesson, i)})" for i in never)
    return f"lesson: {len(never)} of {len(lesson.cues)} cue(s) never fired: {named}"


def _filters(lesson: Lesson, i: int) -> str:
    cue = lesson.cues[i]
    parts = [f"{label} {value}" for label, value in (("episode", cue.episode), ("by", cue.actor), ("on", cue.path))]
    shown = [part for part, value in zip(parts, (cue.episode, cue.actor, cue.path), strict=True) if value is not None]
    return "".join(f" {part}" for part in shown) + (f" #{cue.nth}" if cue.nth > 1 else "")
